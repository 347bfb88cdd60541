import { describe, expect, it } from 'vitest';
import { PortalDb } from './db.ts';
import { markRequestSeen, markThreadSeen } from './seen-marks.ts';
import { discardCommand } from './sync/commands/outbox-actions.ts';
import { withReplica } from './test-kit.ts';

const thread = { id: '0b9f4d3e-5c1a-4e8f-9a2b-3c4d5e6f7a81', createdAt: '2026-01-01T10:00:00.000Z' };
const reply = (n: number, extra = {}) => ({ id: `0b9f4d3e-5c1a-4e8f-9a2b-3c4d5e6f7b0${n}`, createdAt: `2026-01-0${n}T10:00:00.000Z`, ...extra });
const request = { id: '0b9f4d3e-5c1a-4e8f-9a2b-3c4d5e6f7c01', updatedAt: '2026-01-02T10:00:00.000Z' };

describe('seen marks', () => {
  let db: PortalDb;
  withReplica((opened) => (db = opened));
  const sent = async () => (await db.outbox.orderBy('seq').toArray()).map((c) => [c.method, c.path, c.json]);

  it('marks a thread up to its newest reply once: reopening with nothing new queues nothing', async () => {
    expect(await markThreadSeen(db, thread, [reply(3), reply(2)])).not.toBeNull();
    expect(await markThreadSeen(db, thread, [reply(2), reply(3)])).toBeNull();
    expect(await sent()).toEqual([['PUT', '/seen', { kind: 'thread', id: thread.id, replyId: reply(3).id }]]);
    // A newer reply arrived: opening marks it.
    expect(await markThreadSeen(db, thread, [reply(2), reply(3), reply(4)])).not.toBeNull();
    expect((await sent()).at(-1)).toEqual(['PUT', '/seen', { kind: 'thread', id: thread.id, replyId: reply(4).id }]);
  });

  it('marks a thread without replies as itself, and skips replies still in the outbox', async () => {
    await markThreadSeen(db, thread, [reply(5, { pending: true })]);
    expect(await sent()).toEqual([['PUT', '/seen', { kind: 'thread', id: thread.id, replyId: null }]]);
    expect(await markThreadSeen(db, { ...thread, pending: true }, [])).toBeNull();
  });

  it('marks a request as of its updatedAt, again only when it changed since', async () => {
    await markRequestSeen(db, request);
    expect(await markRequestSeen(db, request)).toBeNull();
    await markRequestSeen(db, { ...request, updatedAt: '2026-01-03T10:00:00.000Z' });
    expect(await sent()).toEqual([
      ['PUT', '/seen', { kind: 'request', id: request.id, updatedAt: request.updatedAt }],
      ['PUT', '/seen', { kind: 'request', id: request.id, updatedAt: '2026-01-03T10:00:00.000Z' }],
    ]);
    expect(await markRequestSeen(db, { ...request, pending: true, updatedAt: '2026-02-01T00:00:00.000Z' })).toBeNull();
  });

  it('Discard forgets the mark, so the next opening marks again', async () => {
    await markRequestSeen(db, request);
    const [command] = await db.outbox.toArray();
    await discardCommand(db, command.seq!);
    expect(await markRequestSeen(db, request)).not.toBeNull();
  });
});
