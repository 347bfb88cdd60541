import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { commandKinds } from './commands/kinds.ts';
import type { OutboxCommand, PortalDb } from '../db.ts';
import { enqueue } from './commands/outbox.ts';
import { outboxWords } from './commands/outbox-words.ts';
import { getSessionSignals, resetSessionSignals } from '../session-signals.ts';
import { MAX_IN_FLIGHT } from './send-plan.ts';
import { type OneAtATime, SENDER_ERROR_KEY, type SenderLoopDeps, readSenderError, startSender } from './sender.ts';
import { type FakeClock, type GatedNetwork, fakeClock, gatedNetwork, withReplica } from '../test-kit.ts';

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

type Apply = (db: PortalDb, command: OutboxCommand, data: unknown) => Promise<void>;

async function replaceOptimisticRow(db: PortalDb, command: OutboxCommand, data: unknown): Promise<void> {
  await db.contactRequests.delete(command.target.id);
  await db.contactRequests.put(contactSchema.parse(data));
}

/** Answers every request as it opens (time passing when none is open) until the outbox is empty. */
async function answerAll(network: GatedNetwork, clock: FakeClock, db: PortalDb): Promise<void> {
  while ((await db.outbox.count()) > 0) {
    const open = network.open();
    for (const request of open) request.answer(created(request.id));
    if (open.length === 0) clock.advance(1000);
    // A polling step, not a wait for one event: what comes next is a request, an empty outbox or neither
    // (a retry timer still ahead, so the clock moves on), and the loop re-reads all three.
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Every contact command in one lane, as a thread's replies are: the order of one lane. */
const oneLane = () => 'one-lane';

function makeDeps(clock: FakeClock, network: GatedNetwork, apply: Apply = replaceOptimisticRow, lane?: (command: OutboxCommand) => string): SenderLoopDeps {
  return {
    // Only contact commands are queued here; the other kinds' answers are never read.
    kinds: { ...commandKinds, contact: { answer: contactSchema, confirm: apply, ...(lane ? { lane } : {}) } },
    getToken: async () => 'token',
    send: (command, token) => network.send(command, token),
    now: clock.now,
    random: () => 0.5,
    setTimer: clock.setTimer,
    locks: null,
  };
}

async function queueContact(db: PortalDb, id: string): Promise<void> {
  await enqueue(
    db,
    { commandId: id, kind: 'contact', label: id, method: 'POST', path: '/contact', json: { contactRequest: { subject: 'Hello', message: 'm' } }, target: { table: 'contactRequests', id } },
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
  withReplica((opened) => (db = opened));
  beforeEach(() => {
    controller = new AbortController();
  });
  afterEach(() => {
    controller.abort();
    vi.restoreAllMocks();
  });

  it('sends a command queued during a send of its lane right after it, without waiting for a timer', async () => {
    const clock = fakeClock();
    const network = gatedNetwork();
    await queueContact(db, 'cmd-a');
    const sender = startSender(db, makeDeps(clock, network, replaceOptimisticRow, oneLane), controller.signal);
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
    const otherOutbox = await import('./commands/outbox.ts');
    const otherSender = await import('./sender.ts');
    const otherDb = new otherDbModule.PortalDb(db.uid);
    await otherDb.open();
    const waiting = otherSender.startSender(otherDb, { ...makeDeps(clock, otherNetwork), locks }, controller.signal);
    // The leader has the lock and sleeps on its idle timer (the other tab, waiting for the lock, sets none).
    await vi.waitFor(() => expect(clock.timers()).toBe(1));

    await otherOutbox.enqueue(
      otherDb,
      { commandId: 'cmd-a', kind: 'contact', label: 'a', method: 'POST', path: '/contact', json: {}, target: { table: 'contactRequests', id: 'cmd-a' } },
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

  it('reports a handler that throws, keeps the command and its key, and sends it and the next of its lane after a back-off', async () => {
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
    const sender = startSender(db, makeDeps(clock, network, apply, oneLane), controller.signal);
    await vi.waitFor(() => expect(network.ids()).toEqual(['cmd-a']));
    network.requests[0].answer(created('cmd-a'));

    await vi.waitFor(async () => expect((await readSenderError(db))?.message).toBe("Cannot read properties of undefined (reading 'id')"));
    const [kept] = await db.outbox.toArray();
    // Not "failed": Retry would send a new key and the server, which did it already, would do it twice.
    expect(kept).toMatchObject({ commandId: 'cmd-a', status: 'pending', attempts: 1 });

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
    // Idle: asleep on its timer.
    await vi.waitFor(() => expect(clock.timers()).toBe(1));
    controller.abort();
    await idle.done;

    const second = new AbortController();
    await queueContact(db, 'cmd-a');
    await queueContact(db, 'cmd-b');
    const busy = startSender(db, makeDeps(clock, network, replaceOptimisticRow, oneLane), second.signal);
    await vi.waitFor(() => expect(network.ids()).toEqual(['cmd-a']));
    second.abort();
    network.requests[0].answer(created('cmd-a'));
    await busy.done;
    expect(network.ids()).toEqual(['cmd-a']);
    expect((await db.outbox.toArray()).map((c) => c.commandId)).toEqual(['cmd-b']);
  });
});

/** A 409 of the idempotency layer: this command's first attempt still runs on the server. */
function stillRunning(): Response {
  return new Response(JSON.stringify({ error: { code: 'IDEMPOTENCY_IN_PROGRESS', message: 'running' } }), { status: 409, headers: { 'content-type': 'application/json' } });
}

const status = (code: number) => new Response('{}', { status: code });

describe('sender loop, several lanes at once', () => {
  let db: PortalDb;
  let controller: AbortController;
  withReplica((opened) => (db = opened));
  beforeEach(() => {
    controller = new AbortController();
  });
  afterEach(() => {
    controller.abort();
    vi.restoreAllMocks();
  });

  /**
   * Lets the loop run without time passing: what has not started by then is not about to. A fixed window,
   * because what it shows is that nothing more happens (no further request, no other mark), which has no
   * event to wait for.
   */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

  const statuses = async () => Object.fromEntries((await db.outbox.toArray()).map((c) => [c.commandId, c.status]));

  it(`has at most ${MAX_IN_FLIGHT} commands of different lanes in flight, marked sending, and keeps each lane's order`, async () => {
    const clock = fakeClock();
    const network = gatedNetwork();
    // t1, t2, t3 are one lane (replies in one thread); every c is its own.
    const lane = (command: OutboxCommand) => (command.commandId.startsWith('t') ? 'thread' : command.commandId);
    for (const id of ['t1', 'c1', 't2', 'c2', 'c3', 'c4', 't3']) await queueContact(db, id);
    const sender = startSender(db, makeDeps(clock, network, replaceOptimisticRow, lane), controller.signal);

    await vi.waitFor(() => expect(network.ids()).toEqual(['t1', 'c1', 'c2', 'c3']));
    await settle();
    expect(network.ids()).toHaveLength(MAX_IN_FLIGHT);
    // c4 is marked too, next to go on the wire; t2 and t3 wait for their lane.
    expect(await statuses()).toEqual({ t1: 'sending', c1: 'sending', t2: 'pending', c2: 'sending', c3: 'sending', c4: 'sending', t3: 'pending' });

    // A slot frees: the next lane's head goes, not t2, whose lane is still on the wire.
    network.of('c1').answer(created('c1'));
    await vi.waitFor(() => expect(network.ids()).toEqual(['t1', 'c1', 'c2', 'c3', 'c4']));
    network.of('c2').answer(created('c2'));
    await settle();
    expect(network.open().map((r) => r.id)).toEqual(['t1', 'c3', 'c4']);

    network.of('t1').answer(created('t1'));
    await vi.waitFor(() => expect(network.open().map((r) => r.id)).toEqual(['c3', 'c4', 't2']));
    network.of('t2').answer(created('t2'));
    await vi.waitFor(() => expect(network.open().map((r) => r.id)).toEqual(['c3', 'c4', 't3']));
    for (const id of ['c3', 'c4', 't3']) network.of(id).answer(created(id));
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));

    expect(network.ids().filter((id) => id.startsWith('t'))).toEqual(['t1', 't2', 't3']);
    expect(clock.fired).toBe(0);
    controller.abort();
    await sender.done;
  });

  it('puts the next marked command on the wire as soon as an answer comes, before the answer is stored', async () => {
    const clock = fakeClock();
    const network = gatedNetwork();
    for (const id of ['c1', 'c2', 'c3', 'c4', 'c5']) await queueContact(db, id);
    const onWireWhileStoring: string[][] = [];
    const storing: Apply = async (db, command, data) => {
      onWireWhileStoring.push(network.open().map((r) => r.id));
      await replaceOptimisticRow(db, command, data);
    };
    const sender = startSender(db, makeDeps(clock, network, storing), controller.signal);
    await vi.waitFor(() => expect(network.ids()).toEqual(['c1', 'c2', 'c3', 'c4']));
    await settle();
    expect((await statuses()).c5).toBe('sending');

    network.of('c1').answer(created('c1'));
    await vi.waitFor(async () => expect((await statuses()).c1).toBeUndefined());
    expect(onWireWhileStoring).toEqual([['c2', 'c3', 'c4', 'c5']]);
    for (const id of ['c2', 'c3', 'c4', 'c5']) network.of(id).answer(created(id));
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    controller.abort();
    await sender.done;
  });

  it('marks the next commands in the transaction that stores an answer: one transaction per command while the queue is deep', async () => {
    const clock = fakeClock();
    const network = gatedNetwork();
    const ids = Array.from({ length: 12 }, (_, i) => `c${i + 1}`);
    for (const id of ids) await queueContact(db, id);
    const transactions = vi.spyOn(db, 'transaction');
    const sender = startSender(db, makeDeps(clock, network), controller.signal);
    await vi.waitFor(() => expect(network.ids()).toEqual(['c1', 'c2', 'c3', 'c4']));
    await settle();
    transactions.mockClear();

    for (const [landing, next] of [['c1', 'c5'], ['c2', 'c6'], ['c3', 'c7'], ['c4', 'c8']]) {
      network.of(landing).answer(created(landing));
      await vi.waitFor(() => expect(network.ids()).toContain(next));
    }
    // The fourth answer's transaction has marked c12 (waited for: a slow run may take longer than a settle).
    await vi.waitFor(async () => expect(await statuses()).toEqual(Object.fromEntries(ids.slice(4).map((id) => [id, 'sending']))));
    await settle();
    // Four answers stored, each with the look that marked one more: no transaction of its own for a look.
    expect(transactions).toHaveBeenCalledTimes(4);
    expect(network.open().map((r) => r.id)).toEqual(['c5', 'c6', 'c7', 'c8']);
    await answerAll(network, clock, db);
    controller.abort();
    await sender.done;
  });

  it('sends what a landing command marked later when the transaction storing its answer fails', async () => {
    const clock = fakeClock();
    const network = gatedNetwork();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const ids = Array.from({ length: 10 }, (_, i) => `c${i + 1}`);
    for (const id of ids) await queueContact(db, id);
    const sender = startSender(db, makeDeps(clock, network), controller.signal);
    await vi.waitFor(() => expect(network.ids()).toEqual(['c1', 'c2', 'c3', 'c4']));
    await settle();
    // The look in c1's transaction marks c9, then its write fails: the whole transaction is undone.
    vi.spyOn(db.outbox, 'bulkUpdate').mockRejectedValueOnce(new Error('disk full'));

    network.of('c1').answer(created('c1'));
    await vi.waitFor(async () => expect((await statuses()).c1).toBe('pending'));
    expect((await statuses()).c9).toBe('pending');
    await answerAll(network, clock, db);
    // c1 again after its back-off, with its key: the server replays its first answer.
    expect([...network.ids()].sort()).toEqual([...ids, 'c1'].sort());
    controller.abort();
    await sender.done;
  });

  it("lets other lanes go on while one command waits for its own first attempt on the server (409), then sends it after its back-off", async () => {
    const clock = fakeClock();
    const network = gatedNetwork();
    for (const id of ['c1', 'c2', 'c3', 'c4', 'c5', 'c6']) await queueContact(db, id);
    const sender = startSender(db, makeDeps(clock, network), controller.signal);
    await vi.waitFor(() => expect(network.ids()).toEqual(['c1', 'c2', 'c3', 'c4']));

    network.of('c1').answer(stillRunning());
    await vi.waitFor(() => expect(network.ids()).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']));
    for (const id of ['c2', 'c3', 'c4', 'c5']) network.of(id).answer(created(id));
    await vi.waitFor(() => expect(network.ids()).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6']));
    network.of('c6').answer(created('c6'));
    await vi.waitFor(async () => expect((await db.outbox.toArray()).map((c) => c.commandId)).toEqual(['c1']));
    expect(clock.fired).toBe(0);

    // Its own back-off: 750 ms at the first attempt with this random.
    clock.advance(750);
    await vi.waitFor(() => expect(network.ids()).toHaveLength(7));
    network.of('c1').answer(created('c1'));
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    controller.abort();
    await sender.done;
  });

  it('keeps a command the server has no room for (507) and says so in the server\'s words, then sends it when there is room', async () => {
    const clock = fakeClock();
    const network = gatedNetwork();
    await queueContact(db, 'c1');
    const sender = startSender(db, makeDeps(clock, network), controller.signal);
    await vi.waitFor(() => expect(network.ids()).toEqual(['c1']));
    network.of('c1').answer(status(507));
    await vi.waitFor(async () => expect(await db.outbox.get({ commandId: 'c1' })).toMatchObject({ status: 'pending', error: outboxWords.storageFull }));
    clock.advance(750);
    await vi.waitFor(() => expect(network.ids()).toEqual(['c1', 'c1']));
    network.of('c1').answer(created('c1'));
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    controller.abort();
    await sender.done;
  });

  it('holds back when the server is busy or unreachable, then probes with one command (the one that failed least) until one gets through', async () => {
    const clock = fakeClock();
    const network = gatedNetwork();
    for (const id of ['c1', 'c2', 'c3', 'c4', 'c5', 'c6']) await queueContact(db, id);
    const sender = startSender(db, makeDeps(clock, network), controller.signal);
    await vi.waitFor(() => expect(network.ids()).toEqual(['c1', 'c2', 'c3', 'c4']));

    network.of('c1').answer(status(503));
    network.of('c2').answer(status(429));
    network.of('c3').answer(new TypeError('Failed to fetch'));
    network.of('c4').answer(status(502));
    await vi.waitFor(async () => expect(Object.values(await statuses())).toEqual(['pending', 'pending', 'pending', 'pending', 'pending', 'pending']));
    await settle();
    // Nothing else is tried while the brake is on, though c5 and c6 never failed and c1–c4 are due in 750 ms.
    expect(network.ids()).toHaveLength(4);
    clock.advance(750);
    await settle();
    expect(network.ids()).toHaveLength(4);

    // Four failures in a row: 750 + 1,500 + 3,000 + 6,000 ms at most, the longest wins. Then one probe: c5, which never failed.
    clock.advance(6000 - 750);
    await vi.waitFor(() => expect(network.ids()).toHaveLength(5));
    expect(network.ids()[4]).toBe('c5');
    await settle();
    expect(network.open()).toHaveLength(1);

    network.of('c5').answer(status(503));
    // The probe's failure is stored (and the brake told) before time moves on.
    await vi.waitFor(async () => expect((await statuses()).c5).toBe('pending'));
    await settle();
    clock.advance(11_999);
    await settle();
    expect(network.ids()).toHaveLength(5);
    clock.advance(1);
    await vi.waitFor(() => expect(network.ids()).toHaveLength(6));
    expect(network.ids()[5]).toBe('c6');

    // It gets through: full speed again, the oldest first.
    network.of('c6').answer(created('c6'));
    await vi.waitFor(() => expect(network.open().map((r) => r.id)).toEqual(['c1', 'c2', 'c3', 'c4']));
    for (const id of ['c1', 'c2', 'c3', 'c4']) network.of(id).answer(created(id));
    await vi.waitFor(() => expect(network.open().map((r) => r.id)).toEqual(['c5']));
    network.of('c5').answer(created('c5'));
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    controller.abort();
    await sender.done;
  });

  it('does not stop on a command of a kind this app does not know (stored by another version): it fails, the others go', async () => {
    const clock = fakeClock();
    const network = gatedNetwork();
    const stranger = { commandId: 'odd', kind: 'fromANewerApp', label: 'odd', method: 'POST', path: '/odd', json: {}, status: 'pending', attempts: 0, nextAttemptAt: 0, createdAt: 0, target: { table: 'contactRequests', id: 'odd' } };
    await db.outbox.add(stranger as unknown as OutboxCommand);
    await queueContact(db, 'c1');
    const sender = startSender(db, makeDeps(clock, network), controller.signal);
    await vi.waitFor(() => expect(network.ids()).toEqual(['odd', 'c1']));
    network.of('odd').answer(created('odd'));
    network.of('c1').answer(created('c1'));
    await vi.waitFor(async () => expect(await statuses()).toEqual({ odd: 'failed' }));
    controller.abort();
    await sender.done;
  });

  it('refreshes the token once for every command refused with it; a second 401 holds the queue and nothing more starts', async () => {
    const clock = fakeClock();
    const network = gatedNetwork();
    let token = 'old';
    let forced = 0;
    let finishRefresh: () => void = () => undefined;
    const deps = makeDeps(clock, network);
    deps.getToken = async (force) => {
      if (!force) return token;
      forced++;
      // The refresh takes a while: every 401 lands before it is done.
      await new Promise<void>((resolve) => (finishRefresh = resolve));
      token = 'fresh';
      return token;
    };
    for (const id of ['c1', 'c2', 'c3']) await queueContact(db, id);
    const sender = startSender(db, deps, controller.signal);
    await vi.waitFor(() => expect(network.ids()).toEqual(['c1', 'c2', 'c3']));

    for (const id of ['c1', 'c2', 'c3']) network.of(id).answer(status(401));
    await settle();
    finishRefresh();
    await vi.waitFor(() => expect(network.open().map((r) => [r.id, r.token])).toEqual([['c1', 'fresh'], ['c2', 'fresh'], ['c3', 'fresh']]));
    expect(forced).toBe(1);

    network.of('c1').answer(status(401));
    await vi.waitFor(async () => expect((await statuses()).c1).toBe('held'));
    network.of('c2').answer(created('c2'));
    network.of('c3').answer(created('c3'));
    await vi.waitFor(async () => expect(await statuses()).toEqual({ c1: 'held' }));
    // Queuing wakes the sender: it still sends nothing until the user signs in again.
    await queueContact(db, 'c4');
    await settle();
    expect(await statuses()).toEqual({ c1: 'held', c4: 'pending' });
    expect(network.ids()).toHaveLength(6);
    controller.abort();
    await sender.done;
  });

  it('a 401 SESSION_ENDED holds the command without a token refresh, reports the end once, and never reports it sent', async () => {
    resetSessionSignals();
    const clock = fakeClock();
    const network = gatedNetwork();
    let forced = 0;
    const deps = makeDeps(clock, network);
    deps.getToken = async (force) => {
      if (force) forced++;
      return 'token';
    };
    await queueContact(db, 'c1');
    const sender = startSender(db, deps, controller.signal);
    await vi.waitFor(() => expect(network.ids()).toEqual(['c1']));
    const ended = { error: { code: 'SESSION_ENDED', message: 'Signed out', details: { reason: 'signed-out-everywhere' } } };
    network.of('c1').answer(new Response(JSON.stringify(ended), { status: 401, headers: { 'content-type': 'application/json' } }));
    await vi.waitFor(async () => expect(await statuses()).toEqual({ c1: 'held' }));
    expect(forced).toBe(0);
    expect(network.ids()).toEqual(['c1']);
    expect(getSessionSignals().ended).toBe('signed-out-everywhere');
    // Its optimistic row is still the unsent one, not a row the server confirmed.
    expect(await db.contactRequests.get('c1')).toMatchObject({ pending: true });
    controller.abort();
    await sender.done;
    resetSessionSignals();
  });

  it('a 403 SECOND_FACTOR_REQUIRED keeps the command waiting in words (not failed), tells the gate, and sends it once the session is verified', async () => {
    resetSessionSignals();
    const clock = fakeClock();
    const network = gatedNetwork();
    await queueContact(db, 'c1');
    const sender = startSender(db, makeDeps(clock, network), controller.signal);
    await vi.waitFor(() => expect(network.ids()).toEqual(['c1']));
    const required = { error: { code: 'SECOND_FACTOR_REQUIRED', message: 'Confirm this sign-in' } };
    network.of('c1').answer(new Response(JSON.stringify(required), { status: 403, headers: { 'content-type': 'application/json' } }));
    await vi.waitFor(async () => expect(await db.outbox.get({ commandId: 'c1' })).toMatchObject({ status: 'pending', error: outboxWords.secondFactor }));
    expect(getSessionSignals().secondFactorAsked).toBe(1);
    expect(await db.contactRequests.get('c1')).toMatchObject({ pending: true });
    clock.advance(750);
    await vi.waitFor(() => expect(network.ids()).toEqual(['c1', 'c1']));
    network.of('c1').answer(created('c1'));
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    controller.abort();
    await sender.done;
    resetSessionSignals();
  });
});
