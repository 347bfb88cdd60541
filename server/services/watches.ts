import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { staffWatches } from '../db/schema.ts';

/**
 * Records that a staff member opened a client or request page: the staff feed (routes/staff-sync.ts)
 * then keeps that page's file in their offline replica for STAFF_WATCH_DAYS. Opening it again renews
 * it and draws a new seq, so the feed sends the whole file once more.
 */
export async function recordWatch(db: Db, watch: { staffUid: string; kind: 'client' | 'request'; entityId: string; subjectUid: string }): Promise<void> {
  await db
    .insert(staffWatches)
    .values(watch)
    .onConflictDoUpdate({ target: [staffWatches.staffUid, staffWatches.kind, staffWatches.entityId], set: { openedAt: sql`now()`, subjectUid: watch.subjectUid } });
}
