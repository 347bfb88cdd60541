import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { changeHeads } from '../db/schema.ts';

/** The scope of the rows every user's feed carries (general notifications, the business settings). */
export const EVERYONE_SCOPE = '*';

/**
 * The newest seq of a user's feed (their scope's head or everyone's), as text; null when neither has one. Read with
 * the caller's roles in the auth plugin's one statement (server/plugins/auth.ts), so GET /api/sync answers "nothing
 * new", its common answer, without a statement of its own.
 *
 * Sound under the change_seq lock (docs/decisions/001): a feed row and its scope's head commit together, and a
 * head only grows, so a committed row above the cursor always shows as a head above it. A head can run ahead of
 * the feed (a file that left the synced kinds), which only sends that pull through the full query, never skips
 * a row. A row committed after the head was read has a seq above it, and comes with the next pull (its poke).
 */
export function feedHead(uid: SQL | AnyPgColumn): SQL<string | null> {
  return sql<string | null>`(select max(${changeHeads.seq})::text from ${changeHeads} where ${changeHeads.scope} = ${uid} or ${changeHeads.scope} = ${EVERYONE_SCOPE})`;
}

/** Whether a feed whose newest seq is `head` has rows above `cursor`; an unknown head (null) may have. */
export function hasNewer(head: string | null, cursor: string): boolean {
  return head === null || BigInt(head) > BigInt(cursor);
}
