import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { commandKinds } from '../commands.ts';
import { type OutboxCommand, PortalDb } from '../db.ts';
import { enqueue } from '../outbox.ts';
import { type OneAtATime, SENDER_ERROR_KEY, type SenderLoopDeps, readSenderError, startSender } from './sender.ts';

/**
 * The sender loop with its clock, timers, network and token injected. Time only passes when a test says
 * so: a command that goes out without `clock.advance` went out because the loop was woken, not because
 * a timer (the app's 15-second one included) happened to fire.
 */

const contactSchema = z.object({ id: z.string(), subject: z.string(), message: z.string(), createdAt: z.string(), status: z.enum(['open', 'closed']).default('open') });

function created(id: string): Response {
  const data = { id: `srv-${id}`, subject: 'Hello', message: 'm', createdAt: '2026-01-01T00:00:00Z' };
  return new Response(JSON.stringify({ data }), { status: 201, headers: { 'content-type': 'application/json' } });
}

/** A clock whose timers fire only on `advance`. */
function fakeClock(start = 1_000_000) {
  let now = start;
  const timers = new Set<{ at: number; fire: () => void }>();
  const clock = {
    fired: 0,
    now: () => now,
    setTimer(fire: () => void, ms: number) {
      const timer = { at: now + ms, fire };
      timers.add(timer);
      return () => void timers.delete(timer);
    },
    advance(ms: number) {
      now += ms;
      for (const timer of [...timers].filter((t) => t.at <= now)) {
        timers.delete(timer);
        clock.fired++;
        timer.fire();
      }
    },
  };
  return clock;
}

/** A network that answers each request when the test says so. */
function gatedNetwork() {
  const requests: Array<{ id: string; answer(response: Response | Error): void }> = [];
  return {
    requests,
    ids: () => requests.map((r) => r.id),
    send(command: OutboxCommand): Promise<Response> {
      return new Promise((resolve, reject) => {
        requests.push({ id: command.id, answer: (response) => (response instanceof Error ? reject(response) : resolve(response)) });
      });
    },
  };
}

type Apply = (db: PortalDb, command: OutboxCommand, data: unknown) => Promise<void>;

async function replaceOptimisticRow(db: PortalDb, command: OutboxCommand, data: unknown): Promise<void> {
  await db.contactRequests.delete(command.target.id);
  await db.contactRequests.put(contactSchema.parse(data));
}

function makeDeps(clock: ReturnType<typeof fakeClock>, network: ReturnType<typeof gatedNetwork>, apply: Apply = replaceOptimisticRow): SenderLoopDeps {
  return {
    // Only contact commands are queued here; the other kinds' answers are never read.
    kinds: { ...commandKinds, contact: { answer: contactSchema, confirm: apply } },
    getToken: async () => 'token',
    send: (command) => network.send(command),
    now: clock.now,
    random: () => 0.5,
    setTimer: clock.setTimer,
    locks: null,
  };
}

async function queueContact(db: PortalDb, id: string): Promise<void> {
  await enqueue(
    db,
    { id, kind: 'contact', label: id, method: 'POST', path: '/contact', json: { contactRequest: { subject: 'Hello', message: 'm' } }, target: { table: 'contactRequests', id } },
    () => db.contactRequests.add({ id, subject: 'Hello', message: 'm', createdAt: new Date().toISOString(), status: 'open', pending: true, commandId: id }),
  );
}

/** One mutual-exclusion lock per name, as Web Locks give tabs: the second asker waits for the first. */
function fakeLocks(): OneAtATime {
  const tails = new Map<string, Promise<unknown>>();
  return {
    request(name, { signal }, run) {
      const before = tails.get(name) ?? Promise.resolve();
      const mine = before.then(() => (signal.aborted ? Promise.reject(new DOMException('Aborted', 'AbortError')) : run()));
      tails.set(name, mine.catch(() => undefined));
      return mine;
    },
  };
}

describe('sender loop', () => {
  let db: PortalDb;
  let controller: AbortController;
  beforeEach(async () => {
    db = new PortalDb(`sender-${Math.random()}`);
    await db.open();
    controller = new AbortController();
  });
  afterEach(async () => {
    controller.abort();
    db.close();
    await db.delete();
    vi.restoreAllMocks();
  });

  it('sends a command queued during a send right after it, without waiting for a timer', async () => {
    const clock = fakeClock();
    const network = gatedNetwork();
    await queueContact(db, 'cmd-a');
    const sender = startSender(db, makeDeps(clock, network), controller.signal);
    await vi.waitFor(() => expect(network.ids()).toEqual(['cmd-a']));

    await queueContact(db, 'cmd-b');
    network.requests[0].answer(created('cmd-a'));
    await vi.waitFor(() => expect(network.ids()).toEqual(['cmd-a', 'cmd-b']));
    network.requests[1].answer(created('cmd-b'));
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));

    expect(clock.fired).toBe(0);
    controller.abort();
    await sender.done;
  });

  it('does not lose a wake that lands while the loop works out how long to wait', async () => {
    const clock = fakeClock();
    const network = gatedNetwork();
    await queueContact(db, 'cmd-a');
    const [{ seq }] = await db.outbox.toArray();
    const deps = makeDeps(clock, network);
    // Retry is pressed just as the sender writes down the back-off of a 503 (the back-off is drawn right
    // before that write). The press is written after it and wakes the sender while the loop still reads the
    // queue to know how long to wait: before it sleeps.
    let sender: ReturnType<typeof startSender> | null = null;
    deps.random = () => {
      void Promise.resolve().then(() => db.outbox.update(seq!, { nextAttemptAt: 0 }).then(() => sender?.wake()));
      return 0.5;
    };
    sender = startSender(db, deps, controller.signal);
    await vi.waitFor(() => expect(network.ids()).toEqual(['cmd-a']));
    network.requests[0].answer(new Response('{}', { status: 503 }));

    await vi.waitFor(() => expect(network.ids()).toEqual(['cmd-a', 'cmd-a']));
    expect(clock.fired).toBe(0);
    network.requests[1].answer(created('cmd-a'));
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    controller.abort();
    await sender?.done;
  });

  it('is woken by a command queued in another tab, whose own sender waits for the lock', async () => {
    const clock = fakeClock();
    const locks = fakeLocks();
    const leaderNetwork = gatedNetwork();
    const otherNetwork = gatedNetwork();
    const leader = startSender(db, { ...makeDeps(clock, leaderNetwork), locks }, controller.signal);
    // Another tab: its own copy of the modules (no shared memory), the same IndexedDB and the same locks.
    vi.resetModules();
    const otherDbModule = await import('../db.ts');
    const otherOutbox = await import('../outbox.ts');
    const otherSender = await import('./sender.ts');
    const otherDb = new otherDbModule.PortalDb(db.uid);
    await otherDb.open();
    const waiting = otherSender.startSender(otherDb, { ...makeDeps(clock, otherNetwork), locks }, controller.signal);
    // Let the leader take the lock and go idle.
    await new Promise((resolve) => setTimeout(resolve, 20));

    await otherOutbox.enqueue(
      otherDb,
      { id: 'cmd-a', kind: 'contact', label: 'a', method: 'POST', path: '/contact', json: {}, target: { table: 'contactRequests', id: 'cmd-a' } },
      () => otherDb.contactRequests.add({ id: 'cmd-a', subject: 'Hello', message: 'm', createdAt: new Date().toISOString(), status: 'open', pending: true, commandId: 'cmd-a' }),
    );
    await vi.waitFor(() => expect(leaderNetwork.ids()).toEqual(['cmd-a']));
    expect(otherNetwork.ids()).toEqual([]);
    expect(clock.fired).toBe(0);

    leaderNetwork.requests[0].answer(created('cmd-a'));
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    controller.abort();
    await Promise.all([leader.done, waiting.done]);
    otherDb.close();
  });

  it('reports a storage error in meta and keeps going: a later command is still sent', async () => {
    const clock = fakeClock();
    const network = gatedNetwork();
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(db.outbox, 'where').mockImplementationOnce(() => {
      throw new Error('QuotaExceededError: the disk is full');
    });
    const sender = startSender(db, makeDeps(clock, network), controller.signal);

    await vi.waitFor(async () => expect(await readSenderError(db)).toEqual({ message: 'QuotaExceededError: the disk is full', at: clock.now() }));
    expect(consoleError).toHaveBeenCalledWith('outbox sender error', expect.any(Error));

    await queueContact(db, 'cmd-a');
    await vi.waitFor(() => expect(network.ids()).toEqual(['cmd-a']));
    network.requests[0].answer(created('cmd-a'));
    await vi.waitFor(async () => expect(await db.meta.get(SENDER_ERROR_KEY)).toBeUndefined());
    expect(await db.outbox.count()).toBe(0);
    controller.abort();
    await sender.done;
  });

  it('reports a handler that throws, keeps the command and its key, and sends it and the next after a back-off', async () => {
    const clock = fakeClock();
    const network = gatedNetwork();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let failures = 1;
    const apply: Apply = async (db, command, data) => {
      if (failures-- > 0) throw new TypeError("Cannot read properties of undefined (reading 'id')");
      await replaceOptimisticRow(db, command, data);
    };
    await queueContact(db, 'cmd-a');
    await queueContact(db, 'cmd-b');
    const sender = startSender(db, makeDeps(clock, network, apply), controller.signal);
    await vi.waitFor(() => expect(network.ids()).toEqual(['cmd-a']));
    network.requests[0].answer(created('cmd-a'));

    await vi.waitFor(async () => expect((await readSenderError(db))?.message).toBe("Cannot read properties of undefined (reading 'id')"));
    const [kept] = await db.outbox.toArray();
    // Not "failed": Retry would send a new key and the server, which did it already, would do it twice.
    expect(kept).toMatchObject({ id: 'cmd-a', status: 'pending', attempts: 1 });

    clock.advance(60_000);
    await vi.waitFor(() => expect(network.ids()).toEqual(['cmd-a', 'cmd-a']));
    network.requests[1].answer(created('cmd-a'));
    await vi.waitFor(() => expect(network.ids()).toEqual(['cmd-a', 'cmd-a', 'cmd-b']));
    network.requests[2].answer(created('cmd-b'));
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    expect(await readSenderError(db)).toBeNull();
    controller.abort();
    await sender.done;
  });

  it('stops when the signal aborts, while idle or in the middle of a send', async () => {
    const clock = fakeClock();
    const network = gatedNetwork();
    const idle = startSender(db, makeDeps(clock, network), controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    await idle.done;

    const second = new AbortController();
    await queueContact(db, 'cmd-a');
    await queueContact(db, 'cmd-b');
    const busy = startSender(db, makeDeps(clock, network), second.signal);
    await vi.waitFor(() => expect(network.ids()).toEqual(['cmd-a']));
    second.abort();
    network.requests[0].answer(created('cmd-a'));
    await busy.done;
    expect(network.ids()).toEqual(['cmd-a']);
    expect((await db.outbox.toArray()).map((c) => c.id)).toEqual(['cmd-b']);
  });
});
