import { type QueueTab, StaffSyncPage } from '../../domain/staff.ts';
import { NetworkError, apiGet } from './api.ts';
import type { PortalDb } from './db.ts';

const CURSOR_KEY = 'staffCursor';
/** The queue's counts as the staff feed last brought them: the tabs show them offline too. */
export const STAFF_COUNTS_KEY = 'staffCounts';

export type StaffCounts = Record<QueueTab, number>;

/**
 * Pulls the staff feed (GET /api/staff/sync) from the stored cursor, page by page, like the user's own
 * pull: each page is applied in one Dexie transaction together with its cursor, so a pull cut halfway
 * resumes where it stopped. Returns how many files were written.
 */
export async function pullStaffFeed(db: PortalDb, fetchPage: (cursor: string) => Promise<StaffSyncPage> = fetchStaffPage): Promise<number> {
  let applied = 0;
  for (;;) {
    const cursor = ((await db.meta.get(CURSOR_KEY))?.value as string | undefined) ?? '0';
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
  });
}

let inFlight: { db: PortalDb; done: Promise<string | null> } | null = null;
let again = false;

/**
 * One staff pull at a time; a request made during a pull runs one more right after (a poke is never
 * missed). Resolves with the server's error if the last pull reached it and failed; null otherwise
 * (offline is not a failure: the copies stay on screen).
 */
export function requestStaffPull(db: PortalDb, pull: (db: PortalDb) => Promise<number> = pullStaffFeed): Promise<string | null> {
  if (inFlight?.db === db) {
    again = true;
    return inFlight.done;
  }
  if (inFlight) return inFlight.done.then(() => requestStaffPull(db, pull));
  const done = (async () => {
    let error: string | null = null;
    do {
      again = false;
      try {
        await pull(db);
        error = null;
      } catch (err) {
        error = err instanceof NetworkError ? null : err instanceof Error ? err.message : 'Staff sync failed';
      }
    } while (again && !db.hasBeenClosed());
    return error;
  })().finally(() => {
    inFlight = null;
    again = false;
  });
  inFlight = { db, done };
  return done;
}
