import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type OutboxCommand, PortalDb } from '../../db.ts';
import { withReplica } from '../../test-kit.ts';
import { commandKinds } from './kinds.ts';
import { enqueue } from './outbox.ts';
import { outboxWords } from './outbox-words.ts';
import { backoff } from '../send-plan.ts';
import { type SenderDeps, sendNext } from '../sender.ts';

const okSchema = z.object({ id: z.string(), subject: z.string(), message: z.string(), createdAt: z.string(), status: z.enum(['open', 'closed']).default('open') });

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function makeDeps(responses: Array<Response | Error>, tokens: Array<string | null> = ['t1', 't2', 't3', 't4']): SenderDeps & { sent: Array<{ id: string; token: string }>; forced: number } {
  const sent: Array<{ id: string; token: string }> = [];
  const deps = {
    sent,
    forced: 0,
    kinds: {
      ...commandKinds,
      contact: {
        answer: okSchema,
        async confirm(db: PortalDb, command: OutboxCommand, data: unknown) {
          await db.contactRequests.delete(command.target.id);
          await db.contactRequests.put(okSchema.parse(data));
        },
      },
    },
    async getToken(force: boolean) {
      if (force) deps.forced++;
      return tokens.shift() ?? null;
    },
    async send(command: OutboxCommand, token: string) {
      sent.push({ id: command.commandId, token });
      const next = responses.shift();
      if (!next) throw new Error('no response scripted');
      if (next instanceof Error) throw next;
      return next;
    },
    now: () => 1_000_000,
    random: () => 0.5,
  };
  return deps;
}

async function queueContact(db: PortalDb, id: string, subject = 'Hello') {
  await enqueue(
    db,
    { commandId: id, kind: 'contact', label: subject, method: 'POST', path: '/contact', json: { contactRequest: { subject, message: 'm' } }, target: { table: 'contactRequests', id } },
    () => db.contactRequests.add({ id, subject, message: 'm', createdAt: new Date().toISOString(), status: 'open', pending: true, commandId: id }),
  );
}

describe('outbox sender', () => {
  let db: PortalDb;
  withReplica((opened) => (db = opened));

  it('writes the command and its optimistic row in one transaction', async () => {
    await queueContact(db, 'cmd-00001');
    expect(await db.outbox.count()).toBe(1);
    expect((await db.contactRequests.get('cmd-00001'))?.pending).toBe(true);
    await expect(
      enqueue(db, { commandId: 'cmd-00002', kind: 'contact', label: 'x', method: 'POST', path: '/contact', target: { table: 'contactRequests', id: 'cmd-00002' } }, async () => {
        throw new Error('optimistic write failed');
      }),
    ).rejects.toThrow();
    expect(await db.outbox.count()).toBe(1);
  });

  it('sends FIFO, swaps the optimistic row for the server row and removes the command', async () => {
    await queueContact(db, 'cmd-a', 'A');
    await queueContact(db, 'cmd-b', 'B');
    const deps = makeDeps([
      json(201, { data: { id: 'srv-a', subject: 'A', message: 'm', createdAt: '2026-01-01T00:00:00Z' } }),
      json(201, { data: { id: 'srv-b', subject: 'B', message: 'm', createdAt: '2026-01-01T00:00:00Z' } }),
    ]);
    expect(await sendNext(db, deps)).toBe('sent');
    expect(await sendNext(db, deps)).toBe('sent');
    expect(deps.sent.map((s) => s.id)).toEqual(['cmd-a', 'cmd-b']);
    expect(await db.outbox.count()).toBe(0);
    expect((await db.contactRequests.toArray()).map((r) => r.id).sort()).toEqual(['srv-a', 'srv-b']);
    expect(await sendNext(db, deps)).toBe('idle');
  });

  it('keeps the command and backs off on network errors, 5xx and 429', async () => {
    await queueContact(db, 'cmd-a');
    const failures: [Response | Error, string][] = [
      [new TypeError('Failed to fetch'), outboxWords.unreachable],
      [json(503, {}), outboxWords.serverBusy],
      [json(429, {}), outboxWords.serverBusy],
    ];
    for (const [failure, words] of failures) {
      const deps = makeDeps([failure]);
      await db.outbox.toCollection().modify({ nextAttemptAt: 0 });
      expect(await sendNext(db, deps)).toBe('retry');
      const [cmd] = await db.outbox.toArray();
      expect(cmd.status).toBe('pending');
      expect(cmd.nextAttemptAt).toBeGreaterThan(1_000_000);
      // In words, never the browser's "Failed to fetch".
      expect(cmd.error).toBe(words);
    }
    expect((await db.outbox.toArray())[0].attempts).toBe(3);
  });

  it('on 401 refreshes the token once and resends; a second 401 holds the queue', async () => {
    await queueContact(db, 'cmd-a');
    const deps = makeDeps([json(401, {}), json(201, { data: { id: 'srv', subject: 'Hello', message: 'm', createdAt: '2026-01-01T00:00:00Z' } })], ['expired', 'fresh']);
    expect(await sendNext(db, deps)).toBe('sent');
    expect(deps.forced).toBe(1);
    expect(deps.sent.map((s) => s.token)).toEqual(['expired', 'fresh']);

    await queueContact(db, 'cmd-b');
    await queueContact(db, 'cmd-c');
    const held = makeDeps([json(401, {}), json(401, {})], ['x', 'y']);
    expect(await sendNext(db, held)).toBe('held');
    expect(await sendNext(db, held)).toBe('held');
    expect(held.sent).toHaveLength(2);
    expect((await db.outbox.toArray()).map((c) => c.status)).toEqual(['held', 'pending']);
  });

  it('marks other 4xx failed with the server message and moves on to the next command', async () => {
    await queueContact(db, 'cmd-a');
    await queueContact(db, 'cmd-b');
    const deps = makeDeps([
      json(400, { error: { code: 'VALIDATION_FAILED', message: 'contactRequest.subject: subject is required' } }),
      json(201, { data: { id: 'srv-b', subject: 'Hello', message: 'm', createdAt: '2026-01-01T00:00:00Z' } }),
    ]);
    expect(await sendNext(db, deps)).toBe('failed');
    expect(await sendNext(db, deps)).toBe('sent');
    const [failed] = await db.outbox.toArray();
    expect(failed).toMatchObject({ commandId: 'cmd-a', status: 'failed', error: 'contactRequest.subject: subject is required' });
  });

  it('keeps a command the server did but this device could not save, with its key, and passes the error on', async () => {
    await queueContact(db, 'cmd-a');
    const deps = makeDeps([json(201, { data: { id: 'srv', subject: 'Hello', message: 'm', createdAt: '2026-01-01T00:00:00Z' } })]);
    deps.kinds.contact.confirm = async () => {
      throw new TypeError('a bug in the handler');
    };
    await expect(sendNext(db, deps)).rejects.toThrow('a bug in the handler');
    // Not "failed": its Retry would send a new key and the server would do it a second time.
    const [kept] = await db.outbox.toArray();
    expect(kept).toMatchObject({ commandId: 'cmd-a', status: 'pending', attempts: 1 });
    expect(kept.nextAttemptAt).toBeGreaterThan(1_000_000);
    expect((await db.contactRequests.get('cmd-a'))?.pending).toBe(true);
  });

  it('sends the command id as the idempotency key on every attempt', async () => {
    await queueContact(db, 'cmd-same');
    const deps = makeDeps([new TypeError('offline'), json(201, { data: { id: 'srv', subject: 'Hello', message: 'm', createdAt: '2026-01-01T00:00:00Z' } })]);
    await sendNext(db, deps);
    await db.outbox.toCollection().modify({ nextAttemptAt: 0 });
    await sendNext(db, deps);
    expect(deps.sent.map((s) => s.id)).toEqual(['cmd-same', 'cmd-same']);
  });
});

describe('backoff', () => {
  it('grows exponentially with jitter and is capped at a minute', () => {
    expect(backoff(0, () => 0)).toBe(500);
    expect(backoff(0, () => 1)).toBe(1000);
    expect(backoff(3, () => 1)).toBe(8000);
    expect(backoff(20, () => 1)).toBe(60_000);
  });
});
