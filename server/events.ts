import type { Database } from './db/client.ts';

const CHANNEL = 'portal_changes';
const EVERYONE = '*';

/**
 * Data-free pokes: "something of yours changed, pull". They travel through PostgreSQL NOTIFY so every
 * server instance hears them and tells its own SSE subscribers
 * (docs/decisions/001-delta-sync-and-idempotency.md, "Fan-out through PostgreSQL LISTEN/NOTIFY").
 */
export interface Events {
  poke(userId: string | null): Promise<void>;
  subscribe(userId: string, onPoke: () => void): () => void;
  close(): Promise<void>;
}

export async function createEvents(database: Database): Promise<Events> {
  const subscribers = new Map<string, Set<() => void>>();
  const unlisten = await database.listen(CHANNEL, (payload) => {
    const targets = payload === EVERYONE ? [...subscribers.values()] : [subscribers.get(payload) ?? new Set()];
    for (const set of targets) for (const fn of set) fn();
  });
  return {
    // Never fails the request that changed the data: the change is committed, and a missed poke only
    // delays a pull (clients also pull on start, reconnect and refresh). Failing here would turn a
    // committed write into a 5xx, which frees its idempotency key and invites a duplicate.
    async poke(userId) {
      await database.notify(CHANNEL, userId ?? EVERYONE).catch((err: unknown) => console.error('poke failed', err));
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
    close: unlisten,
  };
}
