import { and, like, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rateCounters } from '../db/schema.ts';

/** The windows counters are kept in; a stored key starts with its window's name (`1m:writes:<uid>`). */
export const WINDOWS = { '1m': 60_000, '10m': 10 * 60_000, '1h': 60 * 60_000, '1d': 24 * 60 * 60_000 } as const;
export type WindowName = keyof typeof WINDOWS;

/** One limit a request counts against: what it counts (`writes:<uid>`), in which window, by how much, up to what. */
export interface Limit {
  key: string;
  window: WindowName;
  max: number;
  amount?: number;
}

/** A limit the request would go over, and when its window ends (milliseconds from `now`). */
export interface Over<L extends Limit = Limit> {
  limit: L;
  resetInMs: number;
}

/**
 * Fixed windows aligned on the epoch (a day window starts at 00:00 UTC), so every instance that
 * counts at the same moment bumps the same row without asking anyone which window is current.
 */
export function windowStart(now: number, window: WindowName): number {
  return Math.floor(now / WINDOWS[window]) * WINDOWS[window];
}

const storedKey = (limit: Limit) => `${limit.window}:${limit.key}`;

/**
 * Counts one request against all its limits, or against none: null when it fits, else the limits it
 * would go over. One upsert (INSERT … ON CONFLICT DO UPDATE SET count = count + n WHERE it stays
 * within the maximum, RETURNING) bumps every counter; the row lock it takes gives concurrent requests,
 * on this instance or another, each a distinct total, so N parallel requests against a maximum of L
 * let exactly L through. A refused request counts nowhere (the transaction is rolled back), so a
 * client retrying after 429 does not use up a daily quota with its refusals.
 */
export async function takeHits<L extends Limit>(db: Db, limits: L[], now: number): Promise<Array<Over<L>> | null> {
  const over = (some: L[]) => some.map((limit) => ({ limit, resetInMs: windowStart(now, limit.window) + WINDOWS[limit.window] - now }));
  const tooBig = limits.filter((limit) => (limit.amount ?? 1) > limit.max);
  if (tooBig.length > 0) return over(tooBig);
  if (limits.length === 0) return null;
  if (limits.length === 1) return (await upsert(db, limits, now)).length === 1 ? null : over(limits);
  const refused = new Refused();
  try {
    await db.transaction(async (tx) => {
      const taken = new Set((await upsert(tx, limits, now)).map((row) => row.key));
      const missing = limits.filter((limit) => !taken.has(storedKey(limit)));
      if (missing.length > 0) throw refused.with(missing);
    });
    return null;
  } catch (err) {
    if (err === refused) return over(refused.limits as L[]);
    throw err;
  }
}

class Refused extends Error {
  limits: Limit[] = [];
  with(limits: Limit[]) {
    this.limits = limits;
    return this;
  }
}

function upsert(tx: Db, limits: Limit[], now: number) {
  const rows = limits.map((limit) => ({ key: storedKey(limit), windowStart: new Date(windowStart(now, limit.window)), count: limit.amount ?? 1 }));
  const maxOfKey = sql.join(
    limits.map((limit) => sql`WHEN ${storedKey(limit)} THEN ${limit.max}::bigint`),
    sql` `,
  );
  return tx
    .insert(rateCounters)
    .values(rows)
    .onConflictDoUpdate({
      target: [rateCounters.key, rateCounters.windowStart],
      set: { count: sql`${rateCounters.count} + excluded.count` },
      setWhere: sql`${rateCounters.count} + excluded.count <= CASE excluded.key ${maxOfKey} END`,
    })
    .returning({ key: rateCounters.key });
}

/** Deletes the windows that are over (nothing reads a counter after its window); returns how many. */
export async function pruneRateCounters(db: Db, now: number): Promise<number> {
  let deleted = 0;
  for (const [window, ms] of Object.entries(WINDOWS)) {
    const gone = await db
      .delete(rateCounters)
      .where(and(like(rateCounters.key, `${window}:%`), lt(rateCounters.windowStart, new Date(now - ms))))
      .returning({ key: rateCounters.key });
    deleted += gone.length;
  }
  return deleted;
}
