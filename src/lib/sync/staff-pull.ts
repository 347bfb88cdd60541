import { type QueueTab, StaffSyncPage } from '../../../domain/staff.ts';
import { apiGet } from '../api.ts';
import type { PortalDb } from '../db.ts';
import { Cursor } from './pull.ts';

const CURSOR_KEY = 'staffCursor';
/** The queue's counts as the staff feed last brought them: the tabs show them offline too. */
export const STAFF_COUNTS_KEY = 'staffCounts';

/** The staff feed's last failure (see health.ts); the next applied page clears it. */
export const STAFF_SYNC_ERROR_KEY = 'staffSyncError';

export type StaffCounts = Record<QueueTab, number>;

export type FetchStaffPage = (cursor: string) => Promise<StaffSyncPage>;

/**
 * Pulls the staff feed (GET /api/staff/sync) from the stored cursor, page by page, like the user's own
 * pull: each page is applied in one Dexie transaction together with its cursor, so a pull cut halfway
 * resumes where it stopped. Returns how many files were written.
 */
export async function pullStaffFeed(db: PortalDb, fetchPage: FetchStaffPage = fetchStaffPage): Promise<number> {
  let applied = 0;
  for (;;) {
    const cursor = Cursor.parse((await db.meta.get(CURSOR_KEY))?.value);
    const askedAt = Date.now();
    const page = await fetchPage(cursor);
    await applyStaffPage(db, page, askedAt);
    applied += page.clients.length + page.requests.length;
    if (!page.hasMore) return applied;
  }
}

export function fetchStaffPage(cursor: string): Promise<StaffSyncPage> {
  return apiGet(`/staff/sync?cursor=${encodeURIComponent(cursor)}`, StaffSyncPage);
}

/**
 * Writes one page: whole files replace their copies, pages no longer watched (not opened for 30 days)
 * leave the device. A copy written after the page was asked for (a page opened meanwhile, which the
 * server's `keep` could not know yet) is not dropped.
 */
export async function applyStaffPage(db: PortalDb, page: StaffSyncPage, askedAt: number): Promise<void> {
  const fetchedAt = Date.now();
  await db.transaction('rw', [db.staffClients, db.staffRequests, db.meta], async () => {
    await db.staffClients.bulkPut(page.clients.map((data) => ({ key: data.client.uid, data, fetchedAt })));
    await db.staffRequests.bulkPut(page.requests.map((data) => ({ key: data.request.id, data, fetchedAt })));
    const keepClients = new Set(page.keep.clients);
    const keepRequests = new Set(page.keep.requests);
    await db.staffClients.filter((c) => !keepClients.has(c.key) && c.fetchedAt < askedAt).delete();
    await db.staffRequests.filter((r) => !keepRequests.has(r.key) && r.fetchedAt < askedAt).delete();
    await db.meta.put({ key: STAFF_COUNTS_KEY, value: page.counts });
    await db.meta.put({ key: CURSOR_KEY, value: page.cursor });
    await db.meta.delete(STAFF_SYNC_ERROR_KEY);
  });
}
