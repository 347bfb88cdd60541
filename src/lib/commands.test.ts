import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PortalDb } from './db.ts';
import { queueContact, queueContactReply, queueRefund } from './commands.ts';

describe('queued commands', () => {
  let db: PortalDb;
  beforeEach(async () => {
    db = new PortalDb(`test-${Math.random()}`);
    await db.open();
  });
  afterEach(async () => {
    db.close();
    await db.delete();
  });

  it('queues a reply with its optimistic row, both under the command id', async () => {
    const id = await queueContactReply(db, 'thread-1', 'Lost funds', 'Any news?');
    const [command] = await db.outbox.toArray();
    expect(command).toMatchObject({
      id,
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
    expect((await db.outbox.get({ id }))?.json).toEqual({ refundRequest: body });
    expect(await db.refunds.get(id)).toMatchObject({ ...body, status: 'requested', amount: null, note: null, decidedAt: null, pending: true });
  });
});
