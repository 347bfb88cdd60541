import { describe, expect, it } from 'vitest';
import { emptySyncPage } from '../../../../domain/sync.ts';
import { findTool } from '../../../../domain/tools.ts';
import { type OutboxCommand, PortalDb, commandTables } from '../../db.ts';
import { localRequest, withReplica } from '../../test-kit.ts';
import { commandKinds, queueContact, queueContactReply, queuePurchase, queueRefund } from './kinds.ts';
import { pull } from '../pull.ts';

describe('queued commands', () => {
  let db: PortalDb;
  withReplica((opened) => (db = opened));

  it('queues a reply with its optimistic row, both under the command id', async () => {
    const id = await queueContactReply(db, 'thread-1', 'Lost funds', 'Any news?');
    const [command] = await db.outbox.toArray();
    expect(command).toMatchObject({
      commandId: id,
      kind: 'contactReply',
      method: 'POST',
      path: '/contact/thread-1/replies',
      json: { reply: { message: 'Any news?' } },
      status: 'pending',
      target: { table: 'contactReplies', id },
    });
    expect(await db.contactReplies.get(id)).toMatchObject({ id, threadId: 'thread-1', author: 'client', message: 'Any news?', pending: true, commandId: id });
  });

  it('writes neither the reply nor its command when the optimistic write fails', async () => {
    db.contactReplies.hook('creating', () => {
      throw new Error('disk full');
    });
    await expect(queueContactReply(db, 'thread-1', 'Lost funds', 'Any news?')).rejects.toThrow();
    expect(await db.outbox.count()).toBe(0);
    expect(await db.contactReplies.count()).toBe(0);
  });

  it('opens a new thread as open', async () => {
    const id = await queueContact(db, 'Subject', 'Message');
    expect((await db.contactRequests.get(id))?.status).toBe('open');
  });

  it('sends only the spec payload for a refund while its optimistic row waits for a decision', async () => {
    const body = { tool: 'TRACK_MASTER' as const, processId: 'req-1', refundRequestType: 'FULL' as const, reason: 'Not delivered' };
    const id = await queueRefund(db, body, 'Track Master');
    expect((await db.outbox.get({ commandId: id }))?.json).toEqual({ refundRequest: body });
    expect(await db.refunds.get(id)).toMatchObject({ ...body, status: 'requested', amount: null, note: null, decidedAt: null, pending: true });
  });
});

describe('a late purchase answer', () => {
  let db: PortalDb;
  withReplica((opened) => (db = opened));

  const serverRow = (commandId: string, status: string, updatedAt: string) => ({ ...localRequest('srv-1', { Created_Time: '2026-03-01T09:59:59.000Z', updatedAt, commandId }), status });

  /**
   * The order is sent; before its answer is handled, a pull brings the same request as staff changed it.
   * Then the sender applies the (older) answer, as it does, in the transaction that removes the command.
   */
  async function answerAfterPull(pulled: { status: string; updatedAt: string }, answer: { status: string; updatedAt: string }) {
    const id = await queuePurchase(db, findTool('track-master')!, { values: { fraudType: 'crypto', fraudUrl: 'https://x.example' }, files: [] });
    const command = (await db.outbox.get({ commandId: id })) as OutboxCommand;
    await pull(db, async () => ({ ...emptySyncPage('8'), requests: [serverRow(id, pulled.status, pulled.updatedAt)] }));
    const data = serverRow(id, answer.status, answer.updatedAt);
    await db.transaction('rw', commandTables(db), () => commandKinds.purchase.confirm(db, command, data));
    return db.requests.toArray();
  }

  it('does not put back Pending over a newer In Progress from a pull', async () => {
    const rows = await answerAfterPull({ status: 'In Progress', updatedAt: '2026-03-01T10:05:00.000Z' }, { status: 'Pending', updatedAt: '2026-03-01T10:00:00.000Z' });
    expect(rows.map((r) => [r.id, r.status])).toEqual([['srv-1', 'In Progress']]);
  });

  it('compares the times as instants, not as text', async () => {
    // ".500Z" sorts before "Z" as text although it is half a second later.
    const rows = await answerAfterPull({ status: 'In Progress', updatedAt: '2026-03-01T10:00:00.500Z' }, { status: 'Pending', updatedAt: '2026-03-01T10:00:00Z' });
    expect(rows.map((r) => r.status)).toEqual(['In Progress']);
  });

  it('takes the answer on a tie', async () => {
    const rows = await answerAfterPull({ status: 'In Progress', updatedAt: '2026-03-01T10:00:00.000Z' }, { status: 'Pending', updatedAt: '2026-03-01T10:00:00Z' });
    expect(rows.map((r) => r.status)).toEqual(['Pending']);
  });

  it('keeps what only the pull carried (status history, attachment hashes) when the answer wins the tie', async () => {
    const id = await queuePurchase(db, findTool('track-master')!, { values: { fraudType: 'crypto', fraudUrl: 'https://x.example' }, files: [] });
    const command = (await db.outbox.get({ commandId: id })) as OutboxCommand;
    const at = '2026-03-01T10:00:00.000Z';
    const hashed = { id: 'f1', field: 'proof', name: 'p.pdf', size: 5, sha256: 'd'.repeat(64), uploadedAt: at };
    const statusHistory = [{ status: 'Pending', at }];
    await pull(db, async () => ({ ...emptySyncPage('8'), requests: [{ ...serverRow(id, 'Pending', at), attachments: [hashed], statusHistory }] }));
    const answer = { ...serverRow(id, 'Pending', at), attachments: [{ id: 'f1', field: 'proof', name: 'p.pdf' }] };
    await db.transaction('rw', commandTables(db), () => commandKinds.purchase.confirm(db, command, answer));
    const [row] = await db.requests.toArray();
    expect(row.attachments).toEqual([hashed]);
    expect(row.statusHistory).toEqual(statusHistory);
  });
});
