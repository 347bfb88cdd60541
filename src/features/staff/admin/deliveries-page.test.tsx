import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { ChakraProvider, createSystem, defaultConfig } from '@chakra-ui/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeliveryItem } from '../../../../domain/push.ts';
import { getUiState, removeMessage } from '../../../lib/ui-state.ts';
import { UNKNOWN_RETRY_WARNING, eventLabel } from './delivery-labels.ts';

vi.mock('@tanstack/react-router', () => ({ useNavigate: () => vi.fn() }));
vi.mock('../../../lib/firebase.ts', () => ({ signOut: vi.fn() }));
const apiRequest = vi.fn();
vi.mock('../../../lib/api.ts', async (orig) => ({ ...(await orig<typeof import('../../../lib/api.ts')>()), apiRequest: (...a: unknown[]) => apiRequest(...a) }));

const { DeliveryList, lastAnswer } = await import('./deliveries-page.tsx');

const system = createSystem(defaultConfig);
const wrap = (ui: React.ReactNode) => render(<ChakraProvider value={system}>{ui}</ChakraProvider>);
const messages = () => getUiState().messages.map((m) => m.message);
const flush = () => act(async () => undefined);
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function delivery(over: Partial<DeliveryItem>): DeliveryItem {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    eventKind: 'reply',
    channel: 'push',
    recipientUid: 'uid-1',
    recipientEmail: 'client@demo.test',
    state: 'failed',
    attempts: 6,
    lastStatus: 503,
    lastError: 'gave up after 6 attempts: 503 Service Unavailable',
    skipReason: null,
    createdAt: '2026-11-27T10:00:00.000Z',
    finishedAt: '2026-11-27T10:30:00.000Z',
    ...over,
  };
}
// The table (desktop) holds every row; the stacked list (phone) repeats them and CSS shows one of the two.
const table = () => within(screen.getByRole('table', { name: 'Deliveries' }));

beforeEach(() => apiRequest.mockReset());
afterEach(() => {
  cleanup();
  for (const m of getUiState().messages) removeMessage(m.key);
});

describe('event labels', () => {
  it('names each event for people and shows a kind it does not know as stored', () => {
    expect(eventLabel('reply')).toBe('Support reply');
    expect(eventLabel('priced')).toBe('Request priced');
    expect(eventLabel('workStarted')).toBe('Work started');
    expect(eventLabel('reportReady')).toBe('Report ready');
    expect(eventLabel('rejected')).toBe('Request rejected');
    expect(eventLabel('payment')).toBe('Payment received');
    expect(eventLabel('refundDecided')).toBe('Refund decided');
    expect(eventLabel('notification')).toBe('Notification');
    expect(eventLabel('generalNotification')).toBe('Notification');
    for (const staff of ['newLead', 'newRequest', 'clientMessage', 'refundRequested']) expect(eventLabel(staff)).toMatch(/\(staff\)$/);
    expect(eventLabel('somethingNew')).toBe('somethingNew');
    // Not a property every object has.
    expect(eventLabel('toString')).toBe('toString');
  });
});

describe('Notification delivery list', () => {
  it('says so when every notification was delivered', () => {
    wrap(<DeliveryList items={[]} reload={vi.fn()} />);
    expect(screen.getByText('Every notification was delivered.')).toBeTruthy();
  });

  it('shows a row: event, channel, recipient, state, attempts and the last answer', () => {
    wrap(<DeliveryList items={[delivery({})]} reload={vi.fn()} />);
    const row = table().getByTestId('delivery');
    for (const text of ['Support reply', 'Push', 'client@demo.test', 'Failed', '6', 'gave up after 6 attempts: 503 Service Unavailable']) {
      expect(within(row).getByText(text)).toBeTruthy();
    }
  });

  it('names the last status once, and a skipped one says why', () => {
    expect(lastAnswer(delivery({}))).toBe('gave up after 6 attempts: 503 Service Unavailable');
    expect(lastAnswer(delivery({ lastStatus: 550, lastError: 'mailbox unavailable' }))).toBe('550 · mailbox unavailable');
    expect(lastAnswer(delivery({ state: 'skipped', lastStatus: null, lastError: null, skipReason: 'no device subscribed' }))).toBe('no device subscribed');
    expect(lastAnswer(delivery({ state: 'unknown', lastStatus: null, lastError: null }))).toBe('—');
  });

  it('sends a failed one again at once, with an Idempotency-Key, and shows it queued', async () => {
    const item = delivery({});
    apiRequest.mockResolvedValue(json(200, { data: { ...item, state: 'queued', attempts: 0, recipientEmail: null } }));
    wrap(<DeliveryList items={[item]} reload={vi.fn()} />);
    fireEvent.click(table().getByRole('button', { name: /^Send again/ }));
    await flush();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(apiRequest).toHaveBeenCalledTimes(1);
    const [path, opts] = apiRequest.mock.calls[0] as [string, { method: string; headers: Record<string, string> }];
    expect(path).toBe(`/admin/deliveries/${item.id}/retry`);
    expect(opts.method).toBe('POST');
    expect(opts.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    const row = table().getByTestId('delivery');
    expect(within(row).getByText('Queued')).toBeTruthy();
    expect(within(row).getByText('client@demo.test')).toBeTruthy();
    expect(within(row).queryByRole('button', { name: /^Send again/ })).toBeNull();
    expect(messages()).toContain('Queued to be sent again.');
  });

  it('asks before sending an unknown one again; Cancel sends nothing', async () => {
    wrap(<DeliveryList items={[delivery({ state: 'unknown', lastStatus: null, lastError: null })]} reload={vi.fn()} />);
    fireEvent.click(table().getByRole('button', { name: /^Send again/ }));
    await flush();
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText(UNKNOWN_RETRY_WARNING)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await flush();
    expect(apiRequest).not.toHaveBeenCalled();
  });

  it('sends an unknown one again once the admin confirms', async () => {
    const item = delivery({ state: 'unknown' });
    apiRequest.mockResolvedValue(json(200, { data: { ...item, state: 'queued', attempts: 0 } }));
    wrap(<DeliveryList items={[item]} reload={vi.fn()} />);
    fireEvent.click(table().getByRole('button', { name: /^Send again/ }));
    await flush();
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Send again' }));
    await flush();
    expect(apiRequest).toHaveBeenCalledTimes(1);
    expect(within(table().getByTestId('delivery')).getByText('Queued')).toBeTruthy();
  });

  it("shows the server's words for a 409 and reads the list again", async () => {
    const reload = vi.fn();
    const refusal = 'Only a failed or unknown delivery can be sent again; this one is queued.';
    apiRequest.mockResolvedValue(json(409, { error: { code: 'NOT_RETRYABLE', message: refusal } }));
    wrap(<DeliveryList items={[delivery({})]} reload={reload} />);
    fireEvent.click(table().getByRole('button', { name: /^Send again/ }));
    await flush();
    expect(messages()).toContain(refusal);
    expect(reload).toHaveBeenCalled();
  });
});
