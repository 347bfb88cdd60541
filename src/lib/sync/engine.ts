import { z } from 'zod';
import { ApiError, NetworkError } from '../api-errors.ts';
import { commandKinds } from './commands/kinds.ts';
import type { PortalDb } from '../db.ts';
import { releaseHeld } from './commands/outbox.ts';
import { hasRole } from '../../../domain/roles.ts';
import { SESSION_ENDED } from '../../../domain/security.ts';
import { isSecondFactorRequired } from '../session-signals.ts';
import { recordSyncError, type SyncErrorKey } from './health.ts';
import { listenForPokes } from './pokes.ts';
import { type FetchSyncPage, SYNC_ERROR_KEY, fetchSyncPage, pull, readRejectedRows, rereadFromStart } from './pull.ts';
import { type Sender, type SenderLoopDeps, browserSenderDeps, clearSenderErrorIfIdle, startSender } from './sender.ts';
import { type FetchStaffPage, STAFF_SYNC_ERROR_KEY, fetchStaffPage, pullStaffFeed } from './staff-pull.ts';

/** How often the sender looks at the queue without being woken (docs/decisions/004). */
export const WAKE_EVERY_MS = 15_000;

/**
 * The least time between two pulls the pokes start. Every synced write pokes its user, so a replay of a thousand
 * commands brings a thousand pokes (most about rows the answers already stored): one pull per gap at most, the
 * first at once, the last never dropped (docs/decisions/019-outbox-replay.md).
 */
export const POKE_PULL_GAP_MS = 500;

export interface SyncTriggers {
  /** Back online, or the tab shown again: pull, and send what waits. */
  reconnect(): void;
  /** The service worker's Background Sync asks the page to send. */
  workerSync(): void;
}

/** The network, clock and browser events the engine uses; injected, so tests decide what happens and when. */
export interface SyncEngineDeps {
  sender: SenderLoopDeps;
  fetchSyncPage: FetchSyncPage;
  fetchStaffPage: FetchStaffPage;
  listenForPokes(onPoke: () => void, signal: AbortSignal): Promise<void>;
  /** Subscribes to the browser's triggers; returns the unsubscribe. */
  watchTriggers(on: SyncTriggers): () => void;
  /** Calls `fire` every `ms` until the returned cancel. */
  every(fire: () => void, ms: number): () => void;
}

/**
 * Everything that keeps one signed-in user's replica fresh and their outbox moving: the sender, the pulls
 * (the user's and, for staff, the staff feed), the live pokes and the triggers. One per signed-in layout:
 * its state lives in the instance, none in the module, so a new user or a remount gets a fresh one.
 */
export interface SyncEngine {
  /** Starts the sender, the pokes and the triggers and pulls once; returns the stop, which settles when all have stopped. */
  start(): () => Promise<void>;
  /**
   * One pull at a time; a request made during a pull runs one more right after (nothing is missed). Resolves
   * with the server's error if the last pull reached it and failed (also kept in the replica for the sync
   * health); null otherwise: offline is not a failure, the device copy stays on screen.
   */
  requestPull(): Promise<string | null>;
  /** The same for the staff feed (the cases a staff member opened, for offline reading). */
  requestStaffPull(): Promise<string | null>;
  /** The user's pull, then for staff the staff feed; what the triggers and the toolbar's refresh run. */
  pullEverything(): Promise<void>;
  /** The sync health's Retry: rows set aside are read again, the sender is woken, everything is pulled. */
  retry(): Promise<void>;
  /** Makes the sender look at the queue now. */
  wake(): void;
}

export function createSyncEngine(db: PortalDb, deps: SyncEngineDeps = browserEngineDeps()): SyncEngine {
  let sender: Sender | null = null;
  let lastSenderDone: Promise<void> = Promise.resolve();

  const requestPull = singleFlight(db, SYNC_ERROR_KEY, async () => {
    const started = performance.now();
    const rows = await pull(db, deps.fetchSyncPage);
    // Read by bench/offline.ts: the real pull's duration, as the user's device experiences it.
    performance.measure('portal:pull', { start: started, detail: { rows } });
  });
  const requestStaffPull = singleFlight(db, STAFF_SYNC_ERROR_KEY, () => pullStaffFeed(db, deps.fetchStaffPage));

  async function pullEverything(): Promise<void> {
    await requestPull();
    // After the user's pull, so a role just granted or taken away is known before the feed is asked for.
    if (hasRole(await db.profile.get(db.uid), 'staff')) await requestStaffPull();
  }

  const pullNow = () =>
    void pullEverything().catch((err) => {
      // A sign-out closes the replica under a running pull: nothing went wrong then.
      if (!db.hasBeenClosed()) console.error('pull failed', err);
    });
  const wake = () => sender?.wake();

  function start(): () => Promise<void> {
    const controller = new AbortController();
    const running = startSender(db, deps.sender, controller.signal, lastSenderDone);
    sender = running;
    const senderDone = running.done.catch((err) => console.error('outbox sender stopped', err));
    lastSenderDone = senderDone;
    const stopTriggers = deps.watchTriggers({
      reconnect: () => {
        pullNow();
        running.wake();
      },
      workerSync: running.wake,
    });
    const stopTimer = deps.every(running.wake, WAKE_EVERY_MS);
    void releaseHeld(db);
    pullNow();
    const pokePull = spaced(pullNow, POKE_PULL_GAP_MS, deps.sender.now, deps.sender.setTimer);
    const pokes = deps.listenForPokes(pokePull.call, controller.signal).catch(() => undefined);
    return async () => {
      controller.abort();
      pokePull.cancel();
      stopTimer();
      stopTriggers();
      if (sender === running) sender = null;
      await Promise.all([senderDone, pokes]);
    };
  }

  async function retry(): Promise<void> {
    if ((await readRejectedRows(db)).length > 0) await rereadFromStart(db);
    await clearSenderErrorIfIdle(db);
    wake();
    await pullEverything();
  }

  return { start, requestPull, requestStaffPull, pullEverything, retry, wake };
}

/**
 * Calls `fire` at most once per `gapMs`: at once when the last call was longer ago, otherwise once at the end of the
 * gap for every call made during it.
 */
export function spaced(fire: () => void, gapMs: number, now: () => number, setTimer: SenderLoopDeps['setTimer']): { call(): void; cancel(): void } {
  let last = -Infinity;
  let cancelTimer: (() => void) | null = null;
  const fireNow = () => {
    cancelTimer = null;
    last = now();
    fire();
  };
  return {
    call() {
      if (cancelTimer) return;
      const wait = last + gapMs - now();
      if (wait <= 0) fireNow();
      else cancelTimer = setTimer(fireNow, wait);
    },
    cancel() {
      cancelTimer?.();
      cancelTimer = null;
    },
  };
}

/**
 * Runs `pull` one at a time for `db`: a call during a run asks for one more run after it and shares its answer.
 * A failure that reached the server is recorded under `errorKey` (the page applied next clears it).
 */
function singleFlight(db: PortalDb, errorKey: SyncErrorKey, pull: () => Promise<unknown>): () => Promise<string | null> {
  let inFlight: Promise<string | null> | null = null;
  let again = false;
  const run = async (): Promise<string | null> => {
    let error: string | null = null;
    do {
      again = false;
      try {
        await pull();
        error = null;
      } catch (err) {
        error = err instanceof NetworkError || isAboutTheSession(err) ? null : err instanceof Error ? err.message : 'Sync failed';
      }
    } while (again && !db.hasBeenClosed());
    // A sign-out closes the replica under a running pull: there is nothing to report then.
    if (error !== null && !db.hasBeenClosed()) await recordSyncError(db, error, errorKey).catch(() => undefined);
    return error;
  };
  return () => {
    if (inFlight) {
      again = true;
      return inFlight;
    }
    inFlight = run().finally(() => {
      inFlight = null;
      again = false;
    });
    return inFlight;
  };
}

/**
 * A session ended elsewhere or a second factor not verified yet: the app answers those (sign-out, the staff gate),
 * so they are no sync failure to show.
 */
function isAboutTheSession(err: unknown): boolean {
  return (err instanceof ApiError && err.status === 401 && err.code === SESSION_ENDED) || isSecondFactorRequired(err);
}

const OutboxSyncMessage = z.object({ type: z.literal('outbox-sync') });

/** `online`, the tab becoming visible, and the service worker's Background Sync wake-up. */
export function watchBrowserTriggers(on: SyncTriggers): () => void {
  const onOnline = () => on.reconnect();
  const onVisible = () => {
    if (document.visibilityState === 'visible') on.reconnect();
  };
  const onWorkerMessage = (event: MessageEvent) => {
    if (OutboxSyncMessage.safeParse(event.data).success) on.workerSync();
  };
  window.addEventListener('online', onOnline);
  document.addEventListener('visibilitychange', onVisible);
  navigator.serviceWorker?.addEventListener('message', onWorkerMessage);
  return () => {
    window.removeEventListener('online', onOnline);
    document.removeEventListener('visibilitychange', onVisible);
    navigator.serviceWorker?.removeEventListener('message', onWorkerMessage);
  };
}

export function browserEngineDeps(): SyncEngineDeps {
  return {
    sender: browserSenderDeps(commandKinds),
    fetchSyncPage,
    fetchStaffPage,
    listenForPokes,
    watchTriggers: watchBrowserTriggers,
    every: (fire, ms) => {
      const timer = setInterval(fire, ms);
      return () => clearInterval(timer);
    },
  };
}
