import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ChakraProvider, createSystem, defaultConfig } from '@chakra-ui/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { texts } from '../../../../domain/texts.ts';
import { ApiError } from '../../../lib/api-errors.ts';
import { getUiState, removeMessage } from '../../../lib/ui-state.ts';

const navigate = vi.fn();
vi.mock('@tanstack/react-router', () => ({ useNavigate: () => navigate }));
const apiSend = vi.fn();
const signOut = vi.fn();
vi.mock('../../../lib/firebase.ts', () => ({ signOut: () => signOut() }));
vi.mock('../../../lib/api.ts', async (orig) => ({ ...(await orig<typeof import('../../../lib/api.ts')>()), apiSend: (...a: unknown[]) => apiSend(...a) }));

const { CreateNotificationForm } = await import('./create-notification-page.tsx');
const { ExistingUserForm, NewUserForm } = await import('./create-user-page.tsx');

const system = createSystem(defaultConfig);
const wrap = (ui: React.ReactNode) => render(<ChakraProvider value={system}>{ui}</ChakraProvider>);
const messages = () => getUiState().messages.map((m) => m.message);
const flush = () => act(async () => undefined);

beforeEach(() => {
  apiSend.mockReset();
  navigate.mockReset();
  signOut.mockReset();
});
afterEach(() => {
  cleanup();
  for (const m of getUiState().messages) removeMessage(m.key);
  vi.useRealTimers();
});

describe('Create Notification', () => {
  it('sends nothing with empty content', async () => {
    wrap(<CreateNotificationForm />);
    fireEvent.change(screen.getByLabelText('Content'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await flush();
    expect(apiSend).not.toHaveBeenCalled();
    expect(messages()).toEqual([]);
  });

  it('sends a general notification', async () => {
    apiSend.mockResolvedValue({});
    wrap(<CreateNotificationForm />);
    fireEvent.change(screen.getByLabelText('Content'), { target: { value: 'Hello all' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await flush();
    expect(apiSend).toHaveBeenCalledWith('/notification', 'POST', { notification: { message: 'Hello all' } }, expect.anything());
    expect(messages()).toContain(texts.publicNotificationCreated);
  });

  it('signs out, then goes to /login 3 s after a 401', async () => {
    vi.useFakeTimers();
    // Signed out first: /login sends a signed-in user back to /.
    const order: string[] = [];
    signOut.mockImplementation(async () => void order.push('signOut'));
    navigate.mockImplementation(async () => void order.push('navigate'));
    apiSend.mockRejectedValue(new ApiError(401, 'UNAUTHORIZED', 'no'));
    wrap(<CreateNotificationForm />);
    fireEvent.change(screen.getByLabelText('Content'), { target: { value: 'Hi' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await flush();
    expect(messages()).toContain(texts.adminUnauthorized);
    act(() => vi.advanceTimersByTime(2999));
    expect(navigate).not.toHaveBeenCalled();
    expect(signOut).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    await flush();
    expect(navigate).toHaveBeenCalledWith({ to: '/login' });
    expect(order).toEqual(['signOut', 'navigate']);
  });
});

describe('Create User', () => {
  it('says Missing information and sends nothing when a field is empty', async () => {
    wrap(<NewUserForm />);
    for (const label of ['First Name', 'Last Name', 'Email', 'Phone Number']) {
      fireEvent.change(screen.getByRole('textbox', { name: new RegExp(`^${label}`) }), { target: { value: 'x@y.z' } });
    }
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await flush();
    expect(apiSend).not.toHaveBeenCalled();
    expect(messages()).toEqual([texts.missingInformation]);
  });

  it("shows the server's message on another failure", async () => {
    apiSend.mockRejectedValue(new ApiError(409, 'EMAIL_EXISTS', 'An account with the email a@b.c already exists'));
    wrap(<NewUserForm />);
    for (const label of ['First Name', 'Last Name', 'Email', 'Phone Number', 'Country']) {
      fireEvent.change(screen.getByRole('textbox', { name: new RegExp(`^${label}`) }), { target: { value: ' a@b.c ' } });
    }
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await flush();
    expect(apiSend).toHaveBeenCalledWith(
      '/admin/users',
      'POST',
      { firstName: 'a@b.c', lastName: 'a@b.c', email: 'a@b.c', phone: 'a@b.c', country: 'a@b.c' },
      expect.anything(),
    );
    expect(messages()).toEqual(['An account with the email a@b.c already exists']);
  });

  it('links an existing user only with both fields', async () => {
    apiSend.mockResolvedValue({});
    wrap(<ExistingUserForm />);
    fireEvent.change(screen.getByRole('textbox', { name: /^User ID/ }), { target: { value: 'uid-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await flush();
    expect(messages()).toEqual([texts.missingInformation]);
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'contacts' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await flush();
    expect(apiSend).toHaveBeenCalledWith('/admin/users/link', 'POST', { recordId: 'uid-1', recordModule: 'contacts' }, expect.anything());
    expect(messages()).toContain(texts.userLinked);
  });
});
