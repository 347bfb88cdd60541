import { Profile } from '../../domain/schemas.ts';
import { apiGet } from './api.ts';
import { NetworkError } from './api-errors.ts';
import { type PortalDb, openUserDb } from './db.ts';
import { getAuthState } from './session.ts';
import { keepUnsentInitialForm } from './sync/pull.ts';

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
