import { ChakraProvider, createSystem, defaultConfig } from '@chakra-ui/react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TeamMember } from '../../../../domain/staff.ts';
import { ApiError } from '../../../lib/api-errors.ts';
import { getUiState, removeMessage } from '../../../lib/ui-state.ts';

const apiSend = vi.fn();
vi.mock('../../../lib/api.ts', async (orig) => ({ ...(await orig<typeof import('../../../lib/api.ts')>()), apiSend: (...a: unknown[]) => apiSend(...a) }));

const { AdminRoleButton } = await import('./admin-role-button.tsx');

const system = createSystem(defaultConfig);

const member: TeamMember = { uid: 'bob', email: 'bob@demo.test', name: 'Bob Stone', isAdmin: false, isStaff: true, disabled: false, version: 4 };

describe('AdminRoleButton', () => {
  beforeEach(() => {
    apiSend.mockReset();
  });
  afterEach(() => {
    cleanup();
    for (const m of getUiState().messages) removeMessage(m.key);
  });

  const show = (who: TeamMember, onChanged = vi.fn()) =>
    render(
      <ChakraProvider value={system}>
        <AdminRoleButton member={who} disabled={false} onChanged={onChanged} />
      </ChakraProvider>,
    );

  it('asks first, naming what an admin can do, then grants the admin role on the version shown', async () => {
    const onChanged = vi.fn();
    apiSend.mockResolvedValue({});
    show(member, onChanged);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Make bob@demo.test an admin' })));
    expect(apiSend).not.toHaveBeenCalled();
    const dialog = await screen.findByRole('dialog', { name: 'Make Bob Stone an admin?' });
    expect(dialog.querySelector('[data-testid="admin-powers"]')?.textContent).toBe(
      'approve payment details changesedit business settingscreate userschange roles, making or removing admins',
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Yes, make admin' })));
    const [path, method, body] = apiSend.mock.calls[0] as [string, string, unknown];
    expect([path, method, body]).toEqual(['/staff/users/bob/role', 'PUT', { version: 4, admin: true }]);
    expect(onChanged).toHaveBeenCalled();
    expect(getUiState().messages.map((m) => m.message)).toContain('Bob Stone is now an admin.');
  });

  it('removes the admin role of an admin, and says the server refusal when there is one', async () => {
    apiSend.mockRejectedValue(new ApiError(409, 'LAST_ADMIN', 'bob@demo.test is the last admin. Make someone else an admin first.'));
    show({ ...member, isAdmin: true });
    expect(screen.queryByRole('button', { name: 'Make bob@demo.test an admin' })).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Remove the admin role of bob@demo.test' })));
    await screen.findByRole('dialog', { name: 'Remove Bob Stone as admin?' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Yes, remove admin' })));
    expect(apiSend.mock.calls[0]?.[2]).toEqual({ version: 4, admin: false });
    expect(getUiState().messages.map((m) => m.message)).toContain('bob@demo.test is the last admin. Make someone else an admin first.');
  });
});
