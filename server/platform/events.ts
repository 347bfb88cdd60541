import type { Database } from '../db/client.ts';

const CHANNEL = 'portal_changes';
const EVERYONE = '*';
/** A payload no uid can be mistaken for in practice: Firebase uids are letters and digits. */
const STAFF_ONLY = '*staff';

/**
 * Data-free pokes: "something of yours changed, pull". They travel through PostgreSQL NOTIFY so every
 * server instance hears them and tells its own SSE subscribers
 * (docs/decisions/001-delta-sync-and-idempotency.md, "Fan-out through PostgreSQL LISTEN/NOTIFY").
 *
 * Staff streams also hear every poke of a user's (any client's change may touch a page a staff member
 * keeps offline, and the queue counts) and the staff-only pokes (an internal note), then pull the staff
 * feed (docs/decisions/008-staff-feed.md). A poke carries no data, so hearing one too many costs a pull.
 */
export interface Events {
  poke(userId: string | null): Promise<void>;
  /** A change that concerns only staff (an internal note): the client's own streams are not poked. */
  pokeStaff(): Promise<void>;
  subscribe(userId: string, onPoke: () => void): () => void;
  /** For a staff member's stream: every user's poke and every staff-only poke. */
  subscribeStaff(onPoke: () => void): () => void;
  close(): Promise<void>;
}

export async function createEvents(database: Database): Promise<Events> {
  const subscribers = new Map<string, Set<() => void>>();
  const staff = new Set<() => void>();
  const unlisten = await database.listen(
    CHANNEL,
    (payload) => {
      for (const set of targets(subscribers, staff, payload)) for (const fn of set) fn();
    },
    // The listening connection was lost and is back: pokes sent meanwhile never arrived, so every open
    // stream is poked and its client pulls what it may have missed.
    () => {
      for (const set of [...subscribers.values(), staff]) for (const fn of set) fn();
    },
  );
  // Never fails the request that changed the data: the change is committed, and a missed poke only
  // delays a pull (clients also pull on start, reconnect and refresh). Failing here would turn a
  // committed write into a 5xx, which frees its idempotency key and invites a duplicate.
  const send = (payload: string) => database.notify(CHANNEL, payload).catch((err: unknown) => console.error('poke failed', err));
  return {
    async poke(userId) {
      await send(userId ?? EVERYONE);
    },
    async pokeStaff() {
      await send(STAFF_ONLY);
    },
    subscribe(userId, onPoke) {
      let set = subscribers.get(userId);
      if (!set) subscribers.set(userId, (set = new Set()));
      set.add(onPoke);
      return () => {
        set.delete(onPoke);
        if (set.size === 0) subscribers.delete(userId);
      };
    },
    subscribeStaff(onPoke) {
      staff.add(onPoke);
      return () => void staff.delete(onPoke);
    },
    close: unlisten,
  };
}

/** Who hears a payload: everyone for '*', staff alone for a staff-only poke, else that user and staff. */
function targets(subscribers: Map<string, Set<() => void>>, staff: Set<() => void>, payload: string): Iterable<Set<() => void>> {
  if (payload === EVERYONE) return subscribers.values();
  if (payload === STAFF_ONLY) return [staff];
  return [subscribers.get(payload) ?? new Set(), staff];
}
