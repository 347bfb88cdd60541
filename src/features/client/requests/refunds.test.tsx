import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { refundStatusLabel } from '../../../../domain/schemas.ts';
import { texts } from '../../../../domain/texts.ts';
import { queueRefund } from '../../../lib/sync/commands/kinds.ts';
import { type LocalRequest, PortalDb } from '../../../lib/db.ts';
import { localRequest, refundRow, withReplica } from '../../../lib/test-kit.ts';
import { ReplicaContext } from '../../../lib/replica.ts';
import { getUiState, removeMessage } from '../../../lib/ui-state.ts';
import { RefundDialog } from './refund-dialog.tsx';
import { RequestDetailsDialog } from './request-details-dialog.tsx';
import { RequestsTable } from './requests-table.tsx';
import { refundPendingText } from './use-refunds.ts';

/** A bank dispute in progress, priced and paid in full. */
const request = (id: string, extra: Partial<LocalRequest> = {}): LocalRequest =>
  localRequest(id, { productRequestType: 'BANK_DISPUTE', Created_Time: '2026-01-05T10:00:00.000Z', status: 'In Progress', contractSigned: true, totalAmount: 500, paid: 500, leftToPay: 0, updatedAt: '2026-01-05T10:00:00.000Z', ...extra });


let db: PortalDb;
withReplica((opened) => (db = opened));


afterEach(async () => {
  cleanup();
  for (const m of getUiState().messages) removeMessage(m.key);
});

function renderWithDb(ui: ReactNode) {
  render(
    <ChakraProvider value={defaultSystem}>
      <ReplicaContext.Provider value={db}>{ui}</ReplicaContext.Provider>
    </ChakraProvider>,
  );
}

async function row(id: string): Promise<HTMLElement> {
  await screen.findByRole('table');
  const found = document.querySelector<HTMLElement>(`tr[data-request-id="${id}"]`);
  if (!found) throw new Error(`no row ${id}`);
  return found;
}

describe('refund mark on a request row', () => {
  it("shows the latest refund's decision next to the status, and a queued refund at once", async () => {
    await db.requests.bulkAdd([request('a'), request('b', { Created_Time: '2026-01-04T10:00:00.000Z' })]);
    await db.refunds.bulkAdd([
      refundRow('f1', 'a', 'declined', '2026-01-06T10:00:00.000Z'),
      refundRow('f2', 'a', 'approved', '2026-01-08T10:00:00.000Z', { amount: 120 }),
    ]);
    renderWithDb(<RequestsTable title="Tools requests" />);
    const a = await row('a');
    await waitFor(() => expect(within(a).getByTestId('refund-badge').textContent).toBe(refundStatusLabel.approved));
    const b = await row('b');
    expect(within(b).queryByTestId('refund-badge')).toBeNull();

    // Still in the outbox: the optimistic row is enough for the mark, which says it is waiting.
    await queueRefund(db, { tool: 'BANK_DISPUTE', processId: 'b', refundRequestType: 'FULL', reason: 'Nothing happened' }, 'Bank Dispute');
    await waitFor(() => expect(within(b).getByTestId('refund-badge').textContent).toBe(`${refundStatusLabel.requested} · ${texts.waitingToSend}`));
  });
});

describe('refund dialog', () => {
  it('refuses a second refund while one waits for a decision, even one still in the outbox', async () => {
    await db.refunds.add(refundRow('cmd-1', 'a', 'requested', '2026-01-06T10:00:00.000Z', { pending: true, commandId: 'cmd-1' }));
    const onClose = vi.fn();
    renderWithDb(<RefundDialog request={request('a')} onClose={onClose} />);
    expect(await screen.findByText(refundPendingText)).toBeTruthy();
    expect(screen.queryByLabelText('Reason', { exact: false })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('offers the form again once the earlier refund is decided, and queues only the spec payload', async () => {
    await db.refunds.add(refundRow('f1', 'a', 'declined', '2026-01-06T10:00:00.000Z', { decidedAt: '2026-01-07T10:00:00.000Z' }));
    const onClose = vi.fn();
    renderWithDb(<RefundDialog request={request('a')} onClose={onClose} />);
    fireEvent.change(await screen.findByLabelText('Reason', { exact: false }), { target: { value: 'Still nothing' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Full refund' }));
    // The radio group takes the value a tick after the click.
    await waitFor(() => expect(screen.getByText('Full refund').closest('label')?.dataset.state).toBe('checked'));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const command = await waitFor(async () => (await db.outbox.toArray())[0] ?? Promise.reject(new Error('not queued yet')));
    expect(command.json).toEqual({ refundRequest: { tool: 'BANK_DISPUTE', processId: 'a', refundRequestType: 'FULL', reason: 'Still nothing' } });
    // Honest feedback waits for the server: the sender taking the command is what closes the dialog.
    expect(onClose).not.toHaveBeenCalled();
    await db.outbox.delete(command.seq!);
    await waitFor(() => expect(onClose).toHaveBeenCalledOnce());
    expect(getUiState().messages.map((m) => m.message)).toContain(texts.refundSent);
    expect(screen.queryByText(refundPendingText)).toBeNull();
  });
});

describe('request details', () => {
  it('shows every refund with its decision, amount and note', async () => {
    await db.refunds.bulkAdd([
      refundRow('f1', 'a', 'declined', '2026-01-06T10:00:00.000Z', { note: 'Work was delivered', decidedAt: '2026-01-07T10:00:00.000Z' }),
      refundRow('f2', 'a', 'approved', '2026-01-08T10:00:00.000Z', {
        refundRequestType: 'FULL',
        amount: 1234.5,
        note: 'Sorry for the delay',
        decidedAt: '2026-01-09T10:00:00.000Z',
      }),
      refundRow('cmd-3', 'a', 'requested', '2026-01-10T10:00:00.000Z', { pending: true, commandId: 'cmd-3' }),
    ]);
    renderWithDb(<RequestDetailsDialog request={request('a')} onClose={() => undefined} />);
    await waitFor(() => expect(screen.getAllByTestId('refund-section')).toHaveLength(3));
    const [declined, approved, waiting] = screen.getAllByTestId('refund-section');
    expect(within(declined).getByText('Declined')).toBeTruthy();
    expect(within(declined).getByText('Partial refund')).toBeTruthy();
    expect(within(declined).getByText('Reason f1')).toBeTruthy();
    expect(within(declined).getByText('06/01/2026')).toBeTruthy();
    expect(within(declined).getByText('Work was delivered')).toBeTruthy();
    expect(within(declined).queryByText('Amount')).toBeNull();
    expect(within(approved).getByText('Approved')).toBeTruthy();
    expect(within(approved).getByText('Full refund')).toBeTruthy();
    expect(within(approved).getByText('$1,234.50')).toBeTruthy();
    expect(within(approved).getByText('Sorry for the delay')).toBeTruthy();
    expect(within(waiting).getByText('Waiting for a decision')).toBeTruthy();
    expect(within(waiting).getByText(texts.waitingToSend)).toBeTruthy();
    expect(within(approved).queryByText(texts.waitingToSend)).toBeNull();
  });
});
