import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { ChakraProvider, createSystem, defaultConfig } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestFile, StaffRequest } from '../../../../domain/staff.ts';
import { ApiError, NetworkError } from '../../../lib/api-errors.ts';
import { PortalDb } from '../../../lib/db.ts';
import { requestFile, staffRequest, withReplica } from '../../../lib/test-kit.ts';
import { ReplicaContext } from '../../../lib/replica.ts';
import { texts } from '../../../../domain/texts.ts';
import { getUiState, removeMessage } from '../../../lib/ui-state.ts';

vi.mock('@tanstack/react-router', () => ({
  Link: ({ children, to, params: _params, ...rest }: { children: ReactNode; to: string; params?: unknown }) => (
    <a href={to} {...rest}>
      {children}
    </a>
  ),
}));
const apiGet = vi.fn();
const apiSend = vi.fn();
const apiRequest = vi.fn();
vi.mock('../../../lib/api.ts', async (orig) => ({
  ...(await orig<typeof import('../../../lib/api.ts')>()),
  apiGet: (...a: unknown[]) => apiGet(...a),
  apiSend: (...a: unknown[]) => apiSend(...a),
  apiRequest: (...a: unknown[]) => apiRequest(...a),
}));

const { RequestPage } = await import('./request-page.tsx');

const system = createSystem(defaultConfig);
const messages = () => getUiState().messages.map((m) => m.message);

const request = staffRequest('r1', { Created_Time: '2026-01-02T10:00:00.000Z', requestDetails: { TRACK_MASTER_fraudType: 'crypto' }, updatedAt: '2026-01-02T10:00:00.000Z' });
const fileOf = (r: StaffRequest): RequestFile =>
  requestFile(r, {
    client: { uid: 'u1', email: 'client@demo.test', name: 'Casey Client' },
    allowedActions: { Pending: ['price', 'reject'], 'Waiting for actions': ['start', 'payment', 'contract', 'reject'] }[r.status as string] ?? [],
  });

let db: PortalDb;
withReplica((opened) => (db = opened), () => 'staff-test');
beforeEach(async () => {
  apiGet.mockReset();
  apiSend.mockReset();
  apiRequest.mockReset();
});
afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  for (const m of getUiState().messages) removeMessage(m.key);
});

async function openPage() {
  render(
    <ChakraProvider value={system}>
      <ReplicaContext.Provider value={db}>
        <RequestPage requestId="r1" />
      </ReplicaContext.Provider>
    </ChakraProvider>,
  );
  await screen.findByRole('heading', { name: /Track Master request TM-0001/ });
}

describe('request page', () => {
  it('offers only the actions the server allows', async () => {
    apiGet.mockResolvedValue(fileOf(request));
    await openPage();
    expect(screen.getAllByTestId(/^action-/).map((el) => el.dataset.testid)).toEqual(['action-price', 'action-reject']);
    expect(screen.getByRole('button', { name: 'Set price' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Start work' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Record payment' })).toBeNull();
  });

  it('checks the price before sending anything', async () => {
    apiGet.mockResolvedValue(fileOf(request));
    await openPage();
    fireEvent.change(screen.getByLabelText(/^Price/), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set price' }));
    expect(await screen.findByText('Price must be more than 0')).toBeTruthy();
    expect(apiSend).not.toHaveBeenCalled();
  });

  it('on a version conflict keeps the input, shows what changed, and redoes it on the fresh version', async () => {
    const changed: StaffRequest = { ...request, contractSigned: true, version: 2 };
    apiGet.mockResolvedValueOnce(fileOf(request)).mockResolvedValue(fileOf(changed));
    apiSend.mockRejectedValueOnce(new ApiError(409, 'VERSION_CONFLICT', 'Someone else changed this request.', { current: changed }));
    await openPage();

    fireEvent.change(screen.getByLabelText(/^Price/), { target: { value: '500' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set price' }));

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: /changed/ })).toBeTruthy();
    expect(within(alert).getByText('Contract signed: No → Yes')).toBeTruthy();
    expect((screen.getByLabelText(/^Price/) as HTMLInputElement).value).toBe('500');
    expect(apiSend).toHaveBeenLastCalledWith('/staff/requests/r1/transition', 'POST', { to: 'Waiting for actions', version: 1, totalAmount: 500, contractSigned: false }, expect.anything());

    apiSend.mockResolvedValueOnce({ ...changed, status: 'Waiting for actions', totalAmount: 500, leftToPay: 500, version: 3 });
    const redo = within(alert).getByRole('button', { name: 'Redo on the fresh state' });
    await waitFor(() => expect((redo as HTMLButtonElement).disabled).toBe(false));
    await act(async () => fireEvent.click(redo));

    expect(apiSend).toHaveBeenLastCalledWith('/staff/requests/r1/transition', 'POST', { to: 'Waiting for actions', version: 2, totalAmount: 500, contractSigned: false }, expect.anything());
    expect(messages()).toContain('Price set successfully.');
    await waitFor(() => expect(screen.queryByRole('heading', { name: /changed/ })).toBeNull());
  });

  it('sends the version the staff member started from, even if a live update changed the page meanwhile', async () => {
    apiGet.mockResolvedValue(fileOf(request));
    await openPage();
    await waitFor(async () => expect(await db.staffRequests.get('r1')).toBeTruthy());
    fireEvent.input(screen.getByLabelText(/^Price/), { target: { value: '500' } });
    fireEvent.change(screen.getByLabelText(/^Price/), { target: { value: '500' } });
    // The staff feed brings someone else's change while the price is being typed.
    const copy = await db.staffRequests.get('r1');
    const changed = fileOf({ ...request, contractSigned: true, version: 2 });
    // From now on the server has the changed request: the reload after the 409 must not put the old one back.
    apiGet.mockResolvedValue(changed);
    await act(async () => {
      await db.staffRequests.put({ ...copy!, data: changed, fetchedAt: Date.now() + 1000 });
    });
    await waitFor(() => expect(screen.getByTestId('request-contract').textContent).toBe('Yes'));
    apiSend.mockRejectedValueOnce(new ApiError(409, 'VERSION_CONFLICT', 'Someone else changed this request.', {}));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Set price' })));
    expect(apiSend.mock.calls[0][2]).toMatchObject({ version: 1 });
    const alert = await screen.findByTestId('conflict-alert');
    expect(within(alert).getByText('Contract signed: No → Yes')).toBeTruthy();
  });

  it('shows the server message and reloads when the action is no longer allowed', async () => {
    apiGet.mockResolvedValueOnce(fileOf(request)).mockResolvedValue(fileOf({ ...request, status: 'Rejected', rejectionReason: 'Spam', version: 2 }));
    apiSend.mockRejectedValueOnce(new ApiError(409, 'ILLEGAL_TRANSITION', 'Set price is not allowed on a request that is Rejected.', { status: 'Rejected', allowed: [] }));
    await openPage();
    fireEvent.change(screen.getByLabelText(/^Price/), { target: { value: '500' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set price' }));
    await waitFor(() => expect(messages()).toContain('Set price is not allowed on a request that is Rejected.'));
    expect(await screen.findByText(/No actions are available on a request that is Rejected/)).toBeTruthy();
    expect(apiGet).toHaveBeenCalledTimes(2);
  });

  it('sends a payment retry with the same Idempotency-Key, and a changed payment with a new one', async () => {
    const awaiting: StaffRequest = { ...request, status: 'Waiting for actions', totalAmount: 500, leftToPay: 500, version: 4 };
    apiGet.mockResolvedValue(fileOf(awaiting));
    await openPage();
    const form = screen.getByTestId('action-payment');
    fireEvent.change(within(form).getByLabelText(/^Amount/), { target: { value: '200' } });
    fireEvent.change(within(form).getByLabelText(/^Method/), { target: { value: 'WIRE' } });
    const submit = within(form).getByRole('button', { name: 'Record payment' });
    const keyOf = (call: number) => (apiRequest.mock.calls[call][1] as { headers: Record<string, string> }).headers['Idempotency-Key'];

    apiRequest.mockRejectedValueOnce(new NetworkError('offline'));
    await act(async () => fireEvent.click(submit));
    expect(messages()).toContain(texts.needsConnection);

    apiRequest.mockRejectedValueOnce(new NetworkError('offline'));
    await act(async () => fireEvent.click(submit));
    expect(keyOf(1)).toBe(keyOf(0));

    fireEvent.change(within(form).getByLabelText(/^Amount/), { target: { value: '250' } });
    const deal = { id: 'd1', requestId: 'r1', productRequestType: 'TRACK_MASTER', Created_Time: '2026-01-03T00:00:00.000Z', amount: 250, invoice: null, invoiceNumber: 'INV-2001', method: 'WIRE', reference: '', paidAt: '2026-01-03' };
    apiRequest.mockResolvedValueOnce(new Response(JSON.stringify({ data: { request: { ...awaiting, paid: 250, leftToPay: 250, version: 5 }, deal } }), { status: 201 }));
    await act(async () => fireEvent.click(submit));
    expect(keyOf(2)).not.toBe(keyOf(0));
    expect(JSON.parse(JSON.stringify((apiRequest.mock.calls[2][1] as { json: unknown }).json))).toMatchObject({ version: 4, amount: 250, method: 'WIRE', reference: '' });
    await waitFor(() => expect(messages()).toContain('Payment recorded successfully.'));
  });
});

describe('request page offline', () => {
  it('keeps the answer on the device and shows it offline, quietly dated, instead of an error', async () => {
    apiGet.mockResolvedValueOnce(fileOf(request));
    await openPage();
    await waitFor(async () => expect((await db.staffRequests.get('r1'))?.data.request.id).toBe('r1'));
    cleanup();

    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    apiGet.mockRejectedValue(new NetworkError('offline'));
    await openPage();
    expect(await screen.findByText(/^Offline copy from \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/)).toBeTruthy();
    expect(screen.queryByText(texts.needsConnection)).toBeNull();
    // Actions need the server: disabled, and the page says why.
    expect((screen.getByRole('button', { name: 'Set price' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getAllByText('You are offline').length).toBeGreaterThan(0);
  });

  it('without a copy, offline is the connection error', async () => {
    apiGet.mockRejectedValue(new NetworkError('offline'));
    render(
      <ChakraProvider value={system}>
        <ReplicaContext.Provider value={db}>
          <RequestPage requestId="r1" />
        </ReplicaContext.Provider>
      </ChakraProvider>,
    );
    expect(await screen.findByText(texts.needsConnection)).toBeTruthy();
  });

  it('queues an internal note offline and shows it as waiting to be sent', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await db.staffRequests.put({ key: 'r1', data: fileOf(request), fetchedAt: 1 });
    apiGet.mockRejectedValue(new NetworkError('offline'));
    await openPage();
    fireEvent.change(screen.getByLabelText(/New internal note/), { target: { value: 'Called the bank' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add note' })));
    const note = await screen.findByTestId('note');
    expect(within(note).getByText('Called the bank')).toBeTruthy();
    expect(within(note).getByText(texts.waitingToSend)).toBeTruthy();
    const [command] = await db.outbox.toArray();
    expect(command).toMatchObject({ kind: 'staffNote', path: '/staff/notes', json: { clientUid: 'u1', requestId: 'r1', body: 'Called the bank' } });
  });
});
