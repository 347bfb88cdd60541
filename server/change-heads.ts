import { sql } from 'drizzle-orm';
import type { Db } from './db/client.ts';
import { changeHeads } from './db/schema.ts';

/** The scope of the rows every user's feed carries (general notifications, the business settings). */
export const EVERYONE_SCOPE = '*';

/**
 * Whether anything of this user's feed has a seq above `cursor`: the "anything new?" of GET /api/sync, answered
 * from change_heads (the latest seq per scope, kept by triggers in the writing transaction:
 * migrations/0015_change_heads.sql) with one primary-key lookup of two rows.
 *
 * Sound under the change_seq lock (docs/decisions/001): a feed row and its scope's head commit together, and a
 * head only grows, so a committed row above the cursor always shows as a head above it. A head can run ahead of
 * the feed (a file that left the synced kinds), which only sends that pull through the full query, never skips
 * a row. The statement is prepared once per app: drizzle builds its text once, and node-postgres prepares it
 * once per connection (a generic plan) instead of planning it on every pull.
 */
export function changedSince(db: Db): (uid: string, cursor: string) => Promise<boolean> {
  const query = db
    .select({ seq: changeHeads.seq })
    .from(changeHeads)
    .where(sql`(${changeHeads.scope} = ${sql.placeholder('uid')} OR ${changeHeads.scope} = ${EVERYONE_SCOPE}) AND ${changeHeads.seq} > ${sql.placeholder('cursor')}::bigint`)
    .limit(1)
    .prepare('sync_changed_since');
  return async (uid, cursor) => (await query.execute({ uid, cursor })).length > 0;
}
