import { Profile } from '../../domain/schemas.ts';
import { NetworkError, apiGet } from './api.ts';
import { commandHandlers } from './commands.ts';
import { type PortalDb, openUserDb } from './db.ts';
import { listenForPokes } from './live.ts';
import { releaseHeld, runSender, wake } from './outbox.ts';
import { hasRole } from './replica.ts';
import { getAuthState } from './session.ts';
import { requestStaffPull } from './staff-replica.ts';
import { type FetchSyncPage, keepUnsentInitialForm, pull, recordSyncError } from './sync.ts';

let inFlight: { db: PortalDb; done: Promise<string | null> } | null = null;
let again = false;

/**
 * One pull at a time; a request made during a pull runs one more right after (nothing is missed).
 * A request for another user's replica (a new sign-in) waits for the old pull and then runs its own.
 * Resolves with the server's error if the last pull reached it and failed; null otherwise (offline
 * is not a failure: the device copy stays on screen). That error is also kept in the replica (syncError,
 * cleared by the next applied page), so a background pull's failure shows in the offline indicator
 * instead of the data quietly going stale. `fetchPage` is for tests.
 */
export function requestPull(db: PortalDb, fetchPage?: FetchSyncPage): Promise<string | null> {
  if (inFlight?.db === db) {
    again = true;
    return inFlight.done;
  }
  if (inFlight) return inFlight.done.then(() => requestPull(db, fetchPage));
  const done = (async () => {
    let error: string | null = null;
    do {
      again = false;
      const started = performance.now();
      try {
        const rows = await pull(db, fetchPage);
        // Read by bench/offline.ts: the real pull's duration, as the user's device experiences it.
        performance.measure('portal:pull', { start: started, detail: { rows } });
        error = null;
      } catch (err) {
        error = err instanceof NetworkError ? null : err instanceof Error ? err.message : 'Sync failed';
      }
    } while (again && !db.hasBeenClosed());
    // A sign-out closes the replica under a running pull: there is nothing to report then.
    if (error !== null && !db.hasBeenClosed()) await recordSyncError(db, error).catch(() => undefined);
    return error;
  })().finally(() => {
    inFlight = null;
    again = false;
  });
  inFlight = { db, done };
  return done;
}

const profileLoads = new WeakMap<PortalDb, Promise<'loaded' | 'offline'>>();

/**
 * GET /api/user into Dexie. Network errors are not failures: the device copy stays on screen. Calls made
 * while one runs share it (the route guards and the shell both ask on the first screen after sign-in).
 */
export function loadProfile(db: PortalDb): Promise<'loaded' | 'offline'> {
  const running = profileLoads.get(db);
  if (running) return running;
  const load = fetchProfile(db).finally(() => profileLoads.delete(db));
  profileLoads.set(db, load);
  return load;
}

async function fetchProfile(db: PortalDb): Promise<'loaded' | 'offline'> {
  try {
    const profile = await apiGet('/user', Profile);
    await db.transaction('rw', db.profile, db.outbox, async () => db.profile.put(await keepUnsentInitialForm(db, profile)));
    return 'loaded';
  } catch (err) {
    if (err instanceof NetworkError && (await db.profile.count()) > 0) return 'offline';
    throw err;
  }
}

/**
 * The signed-in user's profile for the route guards (roles, initial form): the device's copy, or on a
 * device that has none yet the first load's answer. Null when signed out or when that load failed (the
 * shell then reports it and signs out).
 */
export async function signedInProfile(): Promise<Profile | null> {
  const uid = getAuthState().userId;
  if (!uid) return null;
  const db = openUserDb(uid);
  const known = await db.profile.get(uid);
  if (known) return known;
  await loadProfile(db).catch(() => undefined);
  return (await db.profile.get(uid)) ?? null;
}

/**
 * The user's own pull, then for staff the staff feed (the cases they opened, for offline reading). After
 * the user's pull, so a role just granted or taken away is known before the feed is asked for. Every
 * trigger and the toolbar's refresh button pull this way.
 */
export async function pullEverything(db: PortalDb): Promise<void> {
  await requestPull(db);
  if (hasRole(await db.profile.get(db.uid), 'staff')) await requestStaffPull(db);
}

/**
 * Everything that keeps the replica fresh and the outbox moving while a user is signed in:
 * pull on start, on reconnect, on a poke, when the tab shows, and the sender's triggers.
 * Returns the stop function.
 */
export function startDataServices(db: PortalDb): () => void {
  const controller = new AbortController();
  const { signal } = controller;
  const pullNow = () =>
    void pullEverything(db).catch((err) => {
      // A sign-out closes the replica under a running pull: nothing went wrong then.
      if (!db.hasBeenClosed()) console.error('pull failed', err);
    });
  const onOnline = () => {
    pullNow();
    wake();
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') onOnline();
  };
  const onWorkerMessage = (event: MessageEvent) => {
    if ((event.data as { type?: string } | null)?.type === 'outbox-sync') wake();
  };
  window.addEventListener('online', onOnline);
  document.addEventListener('visibilitychange', onVisible);
  navigator.serviceWorker?.addEventListener('message', onWorkerMessage);
  const timer = setInterval(wake, 15_000);

  void releaseHeld(db);
  pullNow();
  void runSender(db, commandHandlers, signal).catch((err) => console.error('outbox sender stopped', err));
  void listenForPokes(pullNow, signal);

  return () => {
    controller.abort();
    clearInterval(timer);
    window.removeEventListener('online', onOnline);
    document.removeEventListener('visibilitychange', onVisible);
    navigator.serviceWorker?.removeEventListener('message', onWorkerMessage);
  };
}
