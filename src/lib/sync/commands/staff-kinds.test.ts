import { describe, expect, it } from 'vitest';
import type { ClientFile, StaffThread } from '../../../../domain/staff.ts';
import { commandKinds } from './kinds.ts';
import { PortalDb } from '../../db.ts';
import { clientFile, withReplica } from '../../test-kit.ts';
import { type SenderDeps, sendNext } from '../sender.ts';
import { queueStaffNote, queueStaffReply, readStaffCommand } from './staff-kinds.ts';

const thread: StaffThread = {
  id: 't 1',
  subject: 'Where is my report?',
  message: 'Any news?',
  createdAt: '2026-01-05T09:00:00.000Z',
  status: 'open',
  version: 1,
  awaitingSince: '2026-01-05T09:00:00.000Z',
  replies: [],
};

function fileWith(threads: StaffThread[]): ClientFile {
  return { ...clientFile('c1'), threads };
}

function answering(status: number, data: unknown): SenderDeps {
  return {
    kinds: commandKinds,
    getToken: async () => 'token',
    send: async () => new Response(JSON.stringify({ data }), { status }),
    now: () => 0,
    random: () => 0,
  };
}

describe('staff commands', () => {
  let db: PortalDb;
  withReplica((opened) => (db = opened), () => 'staff-cmd');

  it('reads back what was queued, for the page that shows it until sent', async () => {
    const requestId = 'r1';
    await queueStaffReply(db, 'c1', 't 1', thread.subject, 'We are on it.');
    await queueStaffNote(db, 'c1', 'Called the bank', requestId);
    const [reply, note] = (await db.outbox.orderBy('seq').toArray()).map(readStaffCommand);
    expect(reply).toMatchObject({ kind: 'staffReply', threadId: 't 1', message: 'We are on it.' });
    expect(note).toMatchObject({ kind: 'staffNote', requestId, body: 'Called the bank' });
    expect(reply?.command.target).toEqual({ table: 'staffClients', id: 'c1' });
  });

  it("puts the server's thread into the kept client file and retires the command in one go", async () => {
    await db.staffClients.put({ key: 'c1', data: fileWith([thread]), fetchedAt: 5 });
    await queueStaffReply(db, 'c1', thread.id, thread.subject, 'We are on it.');
    const answered: StaffThread = {
      ...thread,
      awaitingSince: null,
      replies: [{ id: 'x1', threadId: thread.id, author: 'staff', message: 'We are on it.', createdAt: '2026-01-05T10:00:00.000Z' }],
    };
    expect(await sendNext(db, answering(201, answered))).toBe('sent');
    const copy = await db.staffClients.get('c1');
    expect(copy?.data.threads[0]).toMatchObject({ awaitingSince: null, replies: [{ id: 'x1', message: 'We are on it.' }] });
    expect(copy?.fetchedAt).toBe(5);
    expect(await db.outbox.count()).toBe(0);
  });
});
