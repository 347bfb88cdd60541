import type { Profile } from '../../domain/schemas.ts';
import { SyncPage } from '../../domain/sync.ts';
import { apiGet } from './api.ts';
import type { PortalDb } from './db.ts';

const CURSOR_KEY = 'syncCursor';
const LAST_SYNC_KEY = 'lastSyncedAt';

/**
 * Pulls every change since the stored cursor, page by page, and applies each page in one Dexie
 * transaction together with its cursor, so a pull cut halfway resumes where it stopped.
 * Rows of commands still waiting to be sent are never overwritten here: the outbox owns them.
 */
export async function pull(db: PortalDb, fetchPage: (cursor: string) => Promise<SyncPage> = fetchSyncPage): Promise<number> {
  let applied = 0;
  for (;;) {
    const cursor = ((await db.meta.get(CURSOR_KEY))?.value as string | undefined) ?? '0';
    const page = await fetchPage(cursor);
    await applyPage(db, page);
    applied += pageSize(page);
    if (!page.hasMore) return applied;
  }
}

export function fetchSyncPage(cursor: string): Promise<SyncPage> {
  return apiGet(`/sync?cursor=${encodeURIComponent(cursor)}`, SyncPage);
}

export async function applyPage(db: PortalDb, page: SyncPage): Promise<void> {
  const tables = [db.profile, db.requests, db.deals, db.refunds, db.notifications, db.contactRequests, db.contactReplies, db.files, db.meta, db.outbox];
  await db.transaction('rw', tables, async () => {
    if (page.profile) await db.profile.put(await keepUnsentInitialForm(db, page.profile));
    if (page.requests.length) await db.requests.bulkPut(page.requests);
    if (page.deals.length) await db.deals.bulkPut(page.deals);
    if (page.refunds.length) await db.refunds.bulkPut(page.refunds);
    if (page.notifications.length) await db.notifications.bulkPut(page.notifications);
    if (page.contactRequests.length) await db.contactRequests.bulkPut(page.contactRequests);
    if (page.contactReplies.length) await db.contactReplies.bulkPut(page.contactReplies);
    if (page.files.length) await db.files.bulkPut(page.files);
    await retireConfirmedCommands(db, [...page.requests, ...page.refunds, ...page.contactRequests, ...page.contactReplies]);
    await db.meta.put({ key: CURSOR_KEY, value: page.cursor });
    await db.meta.put({ key: LAST_SYNC_KEY, value: Date.now() });
  });
}

/**
 * A row the server created from one of our commands (its answer may have been lost on the way) replaces
 * the optimistic copy at once, and the command is done: no duplicate on screen, no needless resend.
 * Optimistic rows have the command id as their id.
 */
async function retireConfirmedCommands(db: PortalDb, rows: { id: string; commandId?: string }[]): Promise<void> {
  const confirmed = rows.map((r) => r.commandId).filter((id): id is string => !!id && !rows.some((r) => r.id === id));
  if (confirmed.length === 0) return;
  // An edited command has a new id but still owns its original optimistic row (target.id).
  const commands = await db.outbox.where('id').anyOf(confirmed).toArray();
  const optimistic = [...confirmed, ...commands.map((c) => c.target.id)];
  await Promise.all([
    db.requests.bulkDelete(optimistic),
    db.refunds.bulkDelete(optimistic),
    db.contactRequests.bulkDelete(optimistic),
    db.contactReplies.bulkDelete(optimistic),
  ]);
  await db.outbox.bulkDelete(commands.map((c) => c.seq!));
}

/** An initial form filled offline stays filled on screen until its command reaches the server. */
export async function keepUnsentInitialForm(db: PortalDb, incoming: Profile): Promise<Profile> {
  if (incoming.filledInitialForm) return incoming;
  const unsent = await db.outbox.filter((c) => c.kind === 'initialForm').count();
  if (unsent === 0) return incoming;
  const local = await db.profile.get(incoming.uid);
  return local ? { ...incoming, filledInitialForm: local.filledInitialForm, initialForm: local.initialForm } : incoming;
}

function pageSize(page: SyncPage): number {
  return (
    (page.profile ? 1 : 0) +
    page.requests.length +
    page.deals.length +
    page.refunds.length +
    page.notifications.length +
    page.contactRequests.length +
    page.contactReplies.length +
    page.files.length
  );
}
