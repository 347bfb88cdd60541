import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptySyncPage as empty } from '../../../domain/sync.ts';
import type { StaffSyncPage } from '../../../domain/staff.ts';
import { ApiError, NetworkError } from '../api-errors.ts';
import { commandKinds } from './commands/kinds.ts';
import { PortalDb } from '../db.ts';
import { localRequest, withReplica } from '../test-kit.ts';
import { type SyncEngineDeps, type SyncTriggers, WAKE_EVERY_MS, createSyncEngine, spaced } from './engine.ts';
import { readSyncHealth } from './health.ts';
import type { FetchSyncPage } from './pull.ts';
import { MAX_IN_FLIGHT } from './send-plan.ts';
import { SENDER_ERROR_KEY } from './sender.ts';

/**
 * The engine with everything it touches injected: its timers, the browser's triggers, the pokes' stream, the
 * network of pulls and sends. Each fake counts what is open, so a test sees what a stop leaves behind.
 */
function fakeDeps(fetchSyncPage: FetchSyncPage = async () => empty('1')) {
  const open = { timers: 0, intervals: 0, triggers: 0, pokeStreams: 0 };
  let triggers: SyncTriggers | null = null;
  const sent: string[] = [];
  const deps: SyncEngineDeps = {
    sender: {
      kinds: commandKinds,
      getToken: async () => 'token',
      send: async (command) => {
        sent.push(command.commandId);
        return new Response('{}', { status: 503 });
      },
      now: () => 1_000_000,
      random: () => 0.5,
      setTimer: () => {
        open.timers++;
        return () => void open.timers--;
      },
      locks: null,
    },
    fetchSyncPage,
    fetchStaffPage: async () => staffPage('1'),
    listenForPokes: (_onPoke, signal) => {
      open.pokeStreams++;
      return new Promise((resolve) =>
        signal.addEventListener('abort', () => {
          open.pokeStreams--;
          resolve();
        }),
      );
    },
    watchTriggers(on) {
      open.triggers++;
      triggers = on;
      return () => {
        open.triggers--;
        triggers = null;
      };
    },
    every: () => {
      open.intervals++;
      return () => void open.intervals--;
    },
  };
  return { deps, open, sent, fire: () => triggers };
}

function staffPage(cursor: string): StaffSyncPage {
  const counts = { leads: 0, threads: 0, refunds: 0, pending: 0, awaiting: 0, inProgress: 0, done: 0 };
  return { cursor, hasMore: false, counts, clients: [], requests: [], keep: { clients: [], requests: [] } };
}

/** BroadcastChannel as the browser has it, counting the channels left open. */
function trackChannels() {
  const Real = globalThis.BroadcastChannel;
  const tracker = { open: 0 };
  class Tracked extends Real {
    constructor(name: string) {
      super(name);
      tracker.open++;
    }
    close(): void {
      tracker.open--;
      super.close();
    }
  }
  vi.stubGlobal('BroadcastChannel', Tracked);
  return tracker;
}

/** A request in progress as the feed sends it, with `paid` as given (a broken value included). */
const requestRow = (id: string, paid: unknown) => ({ ...localRequest(id, { status: 'In Progress' }), paid });

describe('sync engine', () => {
  let db: PortalDb;
  withReplica((opened) => (db = opened));
  afterEach(async () => {
    vi.unstubAllGlobals();
  });

  it('starts the sender, pokes, triggers and timer, and its stop leaves no timer, listener, stream or channel open', async () => {
    const channels = trackChannels();
    const { deps, open } = fakeDeps();
    const engine = createSyncEngine(db, deps);

    const stop = engine.start();
    // The sender goes idle: it listens on the wake channel and sleeps on a timer.
    await vi.waitFor(() => expect(open.timers).toBe(1));
    expect(open).toEqual({ timers: 1, intervals: 1, triggers: 1, pokeStreams: 1 });
    expect(channels.open).toBe(1);

    await stop();
    expect(open).toEqual({ timers: 0, intervals: 0, triggers: 0, pokeStreams: 0 });
    expect(channels.open).toBe(0);

    // A remount (React's strict mode does one) starts it again from nothing, and stops it the same way.
    const again = engine.start();
    await vi.waitFor(() => expect(open.timers).toBe(1));
    await again();
    expect(open).toEqual({ timers: 0, intervals: 0, triggers: 0, pokeStreams: 0 });
    expect(channels.open).toBe(0);
  });

  it('runs one pull at a time, and one more when asked during a pull', async () => {
    let runs = 0;
    let release: () => void = () => undefined;
    const { deps } = fakeDeps(() => {
      runs++;
      return new Promise((resolve) => (release = () => resolve(empty(String(runs)))));
    });
    const engine = createSyncEngine(db, deps);
    const first = engine.requestPull();
    const second = engine.requestPull();
    await vi.waitFor(() => expect(runs).toBe(1));
    // A fixed window: what it shows is that no second run starts while the first is on, which has no event.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(runs).toBe(1);
    release();
    await vi.waitFor(() => expect(runs).toBe(2));
    release();
    expect(await first).toBeNull();
    expect(second).toBe(first);
  });

  it("records a pull's failure that reached the server for the sync health; offline is none; the next page clears it", async () => {
    let answer: () => Promise<unknown> = async () => {
      throw new ApiError(500, 'HTTP_500', 'Request failed (500)');
    };
    const engine = createSyncEngine(db, fakeDeps(() => answer()).deps);
    expect(await engine.requestPull()).toBe('Request failed (500)');
    expect((await readSyncHealth(db)).error).toEqual({ message: 'Request failed (500)', at: expect.any(Number) });

    answer = async () => {
      throw new NetworkError('Failed to fetch');
    };
    expect(await engine.requestPull()).toBeNull();
    answer = async () => empty('5');
    expect(await engine.requestPull()).toBeNull();
    const health = await readSyncHealth(db);
    expect(health.error).toBeNull();
    expect(health.lastSyncedAt).toEqual(expect.any(Number));
  });

  it("records the staff feed's failure the same way, and its next page clears it", async () => {
    const { deps } = fakeDeps();
    let fail = true;
    deps.fetchStaffPage = async (cursor) => {
      if (fail) throw new ApiError(403, 'FORBIDDEN', 'Staff only');
      return staffPage(cursor);
    };
    const engine = createSyncEngine(db, deps);
    expect(await engine.requestStaffPull()).toBe('Staff only');
    expect((await readSyncHealth(db)).staffError).toEqual({ message: 'Staff only', at: expect.any(Number) });
    fail = false;
    expect(await engine.requestStaffPull()).toBeNull();
    expect((await readSyncHealth(db)).staffError).toBeNull();
  });

  it('puts rows it set aside in the sync health, and its Retry reads them again from the start', async () => {
    const cursors: string[] = [];
    let paid: unknown = 'a sum this app cannot read';
    const engine = createSyncEngine(
      db,
      fakeDeps(async (cursor) => {
        cursors.push(cursor);
        return { ...empty('7'), requests: [requestRow('r1', paid), requestRow('r2', 0)] };
      }).deps,
    );
    await engine.requestPull();
    expect((await readSyncHealth(db)).rejectedRows).toEqual([expect.objectContaining({ table: 'requests', id: 'r1' })]);
    expect(await db.requests.get('r2')).toBeDefined();

    // An updated app (here: the server sending a value this app reads) takes the row on Retry.
    paid = 120;
    await engine.retry();
    expect(cursors).toEqual(['0', '0']);
    expect((await readSyncHealth(db)).rejectedRows).toEqual([]);
    expect((await db.requests.get('r1'))?.paid).toBe(120);
  });

  it("clears a sender's report on Retry once nothing is left to send, and keeps it while something waits", async () => {
    const engine = createSyncEngine(db, fakeDeps().deps);
    await db.meta.put({ key: SENDER_ERROR_KEY, value: { message: 'QuotaExceededError', at: 1 } });
    expect((await readSyncHealth(db)).senderError).toEqual({ message: 'QuotaExceededError', at: 1 });
    await db.outbox.add({ commandId: 'c1', kind: 'contact', label: 'x', method: 'POST', path: '/contact', status: 'pending', attempts: 0, nextAttemptAt: 0, createdAt: 0, target: { table: 'contactRequests', id: 'c1' } });
    await engine.retry();
    expect((await readSyncHealth(db)).senderError).not.toBeNull();
    await db.outbox.clear();
    await engine.retry();
    expect((await readSyncHealth(db)).senderError).toBeNull();
  });

  it('pulls and wakes the sender when the device comes back online', async () => {
    let pulls = 0;
    const { deps, sent, fire, open } = fakeDeps(async () => {
      pulls++;
      return empty('1');
    });
    const engine = createSyncEngine(db, deps);
    const stop = engine.start();
    await vi.waitFor(() => expect(open.timers).toBe(1));
    expect(pulls).toBe(1);
    // Written straight to the store: nothing else wakes the sender.
    await db.outbox.add({ commandId: 'c1', kind: 'contact', label: 'x', method: 'POST', path: '/contact', json: { contactRequest: { subject: 's', message: 'm' } }, status: 'pending', attempts: 0, nextAttemptAt: 0, createdAt: 0, target: { table: 'contactRequests', id: 'c1' } });
    fire()?.reconnect();
    await vi.waitFor(() => expect(sent).toEqual(['c1']));
    expect(pulls).toBe(2);
    await stop();
    expect(WAKE_EVERY_MS).toBe(15_000);
  });

  it(`replays a queue on reconnect with up to ${MAX_IN_FLIGHT} commands on the wire at once`, async () => {
    const { deps, sent, fire, open } = fakeDeps();
    const answers: Array<() => void> = [];
    deps.sender.send = (command) =>
      new Promise((resolve) => {
        sent.push(command.commandId);
        answers.push(() => resolve(new Response('{}', { status: 503 })));
      });
    const engine = createSyncEngine(db, deps);
    const stop = engine.start();
    await vi.waitFor(() => expect(open.timers).toBe(1));
    const ids = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];
    await db.outbox.bulkAdd(ids.map((id) => ({ commandId: id, kind: 'contact' as const, label: id, method: 'POST' as const, path: '/contact', json: { contactRequest: { subject: 's', message: 'm' } }, status: 'pending' as const, attempts: 0, nextAttemptAt: 0, createdAt: 0, target: { table: 'contactRequests' as const, id } })));
    fire()?.reconnect();

    await vi.waitFor(() => expect(sent).toEqual(['c1', 'c2', 'c3', 'c4']));
    // A fixed window: what it shows is that no fifth command goes out, which has no event to wait for.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(sent).toHaveLength(MAX_IN_FLIGHT);
    // The server is busy: the sender backs off (nothing more goes), and a stop waits for the answers on the way.
    for (const answer of answers) answer();
    await stop();
    expect(sent).toHaveLength(MAX_IN_FLIGHT);
    expect((await db.outbox.toArray()).map((c) => [c.commandId, c.status, c.attempts])).toEqual(ids.map((id, i) => [id, 'pending', i < MAX_IN_FLIGHT ? 1 : 0]));
  });
});

describe('spaced: the pulls pokes start', () => {
  function clock() {
    let now = 0;
    const timers: Array<{ at: number; fire: () => void; live: boolean }> = [];
    return {
      now: () => now,
      setTimer(fire: () => void, ms: number) {
        const timer = { at: now + ms, fire, live: true };
        timers.push(timer);
        return () => void (timer.live = false);
      },
      advance(ms: number) {
        now += ms;
        for (const t of timers.filter((t) => t.live && t.at <= now)) {
          t.live = false;
          t.fire();
        }
      },
      pending: () => timers.filter((t) => t.live).length,
    };
  }

  it('pulls at once for a lone poke, then once per gap for a burst, and never drops the last', () => {
    const c = clock();
    const fired: number[] = [];
    const pokes = spaced(() => fired.push(c.now()), 500, c.now, c.setTimer);
    pokes.call();
    expect(fired).toEqual([0]);
    for (let t = 0; t < 10; t++) {
      c.advance(100);
      pokes.call();
    }
    // Ten pokes over a second: one pull at the end of each gap, the last one's included.
    expect(fired).toEqual([0, 500, 1000]);
    expect(c.pending()).toBe(1);
    c.advance(500);
    expect(fired).toEqual([0, 500, 1000, 1500]);
    c.advance(2000);
    pokes.call();
    expect(fired).toEqual([0, 500, 1000, 1500, 3500]);
  });

  it('leaves no timer once cancelled', () => {
    const c = clock();
    const fired: number[] = [];
    const pokes = spaced(() => fired.push(c.now()), 500, c.now, c.setTimer);
    pokes.call();
    pokes.call();
    expect(c.pending()).toBe(1);
    pokes.cancel();
    expect(c.pending()).toBe(0);
    c.advance(1000);
    expect(fired).toEqual([0]);
  });
});
