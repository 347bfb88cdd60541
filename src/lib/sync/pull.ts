import { z } from 'zod';
import type { Profile } from '../../../domain/schemas.ts';
import { LooseSyncPage, OPTIMISTIC_LISTS, type RejectedSyncRow, SYNC_LISTS, type SyncList, type SyncPage, readSyncPage } from '../../../domain/sync.ts';
import { apiGet } from '../api.ts';
import { type PortalDb, SYNC_CURSOR_KEY } from '../db.ts';
import { withWaitingSwitches } from '../notification-preferences.ts';
import { putReadMarker } from '../notification-reads.ts';
import { beginCatchUp } from './catch-up.ts';

/** The sync's health, kept in the replica so the offline indicator can show it (see health.ts). */
export const LAST_SYNC_KEY = 'lastSyncedAt';
export const SYNC_ERROR_KEY = 'syncError';
export const REJECTED_ROWS_KEY = 'rejectedRows';
/** Enough to tell what went wrong, never a growing log on the user's device. */
export const MAX_REJECTED_ROWS = 100;

/** A stored cursor; none yet (or an unreadable one) starts from the beginning. */
export const Cursor = z.string().catch('0');

/** One page of GET /api/sync as it came (at most `limit` rows): its rows are read by `pull`. */
export type FetchSyncPage = (cursor: string, limit: number) => Promise<unknown>;

/**
 * Pulls every change since the stored cursor, page by page, and applies each page in one Dexie
 * transaction together with its cursor, so a pull cut halfway resumes where it stopped.
 * Pages are asked for ahead of the writes (the server's work and the transfer overlap Dexie's, docs/decisions/017),
 * but they are applied one at a time and in order, each only on top of the cursor it was asked from: if the stored
 * cursor moved meanwhile (a Retry started over), the page is dropped, and so is every page asked after it, and the
 * pull goes on from the stored cursor.
 * Rows of commands still waiting to be sent are never overwritten here: the outbox owns them.
 * A row this app cannot read is set aside (rejectedRows) and the cursor moves on: one bad row must not
 * stop every later change from reaching the device.
 * A pull of several pages is a catch-up: the screens are not re-rendered after every page (catch-up.ts).
 */
export async function pull(db: PortalDb, fetchPage: FetchSyncPage = fetchSyncPage): Promise<number> {
  let applied = 0;
  let pages = pagesFrom(await storedCursor(db), fetchPage);
  let endCatchUp: (() => void) | null = null;
  try {
    for (;;) {
      const waited = performance.now();
      const { from, page, rejected } = await pages.next();
      const applying = measure('portal:pull:wait', waited);
      // More pages follow: until the pull ends, screens refresh at most once a second (catch-up.ts).
      if (page.hasMore) endCatchUp ??= beginCatchUp();
      const done = await applyPage(db, page, rejected, from);
      measure('portal:pull:apply', applying);
      if (done) applied += pageSize(page);
      if (!done) {
        // Started over from the stored cursor: a new first page, small again.
        pages.stop();
        pages = pagesFrom(await storedCursor(db), fetchPage);
      } else if (!page.hasMore) return applied;
    }
  } finally {
    pages.stop();
    endCatchUp?.();
  }
}

/**
 * Rows asked per page, by the page's place in a pull; the last size repeats: the server's largest (SyncQuery).
 * Nothing overlaps the first fetch, so a catch-up costs that fetch plus the writes: a small first page comes back in
 * a fraction of a full one's time. The server now reads a row in about half the time the replica writes one, so the
 * second page, three times the first, comes about when the first is written, and the third (full) about when the
 * second is: the writes wait less for pages than with a full second page. A ramp cost a screen refresh per page
 * while every page re-rendered the screens (docs/decisions/017); a catch-up no longer does (catch-up.ts).
 * A pull of a few changes, the usual one, fits in the first page anyway.
 */
export const PULL_PAGE_SIZES = [1000, 3000, 5000] as const;
/**
 * Pages asked for and not yet taken by the writer: while one page is written the next two may be on their way, so
 * the server is not left waiting for the writer to ask, and no more than two pages wait in memory.
 */
const PAGES_AHEAD = 2;

interface PageChain {
  /** The next page in order (the caller awaits each before asking the next). */
  next(): Promise<FetchedPage>;
  /** Asks for nothing more: pages still on their way are left to settle unread. */
  stop(): void;
}

/**
 * The pages after `from`, each asked for as soon as the one before is read (it carries the cursor to ask from),
 * at most PAGES_AHEAD of them not yet taken.
 */
function pagesFrom(from: string, fetchPage: FetchSyncPage): PageChain {
  const asked: Promise<FetchedPage>[] = [];
  let taken = 0;
  let stopped = false;
  let unfollowed: FetchedPage | null = null;
  const ask = (cursor: string) => {
    const limit = PULL_PAGE_SIZES[Math.min(asked.length, PULL_PAGE_SIZES.length - 1)];
    const page = askFrom(cursor, limit, fetchPage);
    asked.push(page);
    page.then(
      (read) => {
        unfollowed = read;
        askFollower();
      },
      () => undefined,
    );
  };
  const askFollower = () => {
    if (stopped || !unfollowed?.page.hasMore || asked.length - taken >= PAGES_AHEAD) return;
    const cursor = unfollowed.page.cursor;
    unfollowed = null;
    ask(cursor);
  };
  ask(from);
  return {
    next() {
      const page = asked[taken++];
      askFollower();
      return page;
    },
    stop() {
      stopped = true;
    },
  };
}

interface FetchedPage extends ReturnType<typeof readSyncPage> {
  /** The cursor the page was asked from: it applies only on top of that one. */
  from: string;
}

async function storedCursor(db: PortalDb): Promise<string> {
  return Cursor.parse((await db.meta.get(SYNC_CURSOR_KEY))?.value);
}

/**
 * Fetches and reads the page after `from`, started before the previous page is written. A pull that stops
 * first (a page failed, the replica closed, a Retry started over) never reads it: its failure is then nobody's
 * to report.
 */
function askFrom(from: string, limit: number, fetchPage: FetchSyncPage): Promise<FetchedPage> {
  const asked = (async () => {
    const fetched = performance.now();
    const raw = await fetchPage(from, limit);
    const read = measure('portal:pull:fetch', fetched);
    const result = readPage(raw);
    measure('portal:pull:read', read);
    return { from, ...result };
  })();
  asked.catch(() => undefined);
  return asked;
}

/**
 * Where a pull's time goes, page by page (network and JSON, row checks, the Dexie transaction): read by
 * bench/offline.ts next to the whole pull's `portal:pull`. Returns the end, the next phase's start.
 */
function measure(name: string, start: number): number {
  const end = performance.now();
  performance.measure(name, { start, end });
  return end;
}

export function fetchSyncPage(cursor: string, limit: number): Promise<unknown> {
  return apiGet(`/sync?cursor=${encodeURIComponent(cursor)}&limit=${limit}`, z.unknown());
}

/** The envelope must be right (without a cursor nothing can move); its rows are read one by one. */
function readPage(raw: unknown): ReturnType<typeof readSyncPage> {
  const envelope = LooseSyncPage.safeParse(raw);
  if (!envelope.success) throw new Error('The server sent an update this app cannot read.');
  return readSyncPage(envelope.data);
}

/**
 * Applies a page and moves the cursor to its end, in one transaction. Given `from` (the cursor the page was
 * asked from), the page applies only if the stored cursor is still that one; false when it was dropped.
 */
export async function applyPage(db: PortalDb, page: SyncPage, rejected: RejectedSyncRow[] = [], from?: string): Promise<boolean> {
  const tables = [db.profile, ...SYNC_LISTS.map((list) => db.table(list)), db.meta, db.outbox];
  return db.transaction('rw', tables, async () => {
    if (from !== undefined && (await storedCursor(db)) !== from) return false;
    if (page.profile) await db.profile.put(await keepUnsentInitialForm(db, page.profile));
    for (const list of SYNC_LISTS) await putRows(db, page, list);
    // Tables of optimistic rows are keyed by id, which is the command id for a command's own row.
    await retireConfirmedCommands(db, OPTIMISTIC_LISTS.flatMap((list) => page[list] as { id: string; commandId?: string }[]));
    if (rejected.length) await setAside(db, rejected);
    await db.meta.put({ key: SYNC_CURSOR_KEY, value: page.cursor });
    await db.meta.put({ key: LAST_SYNC_KEY, value: Date.now() });
    await db.meta.delete(SYNC_ERROR_KEY);
    return true;
  });
}

/**
 * A list's rows into the replica's table of the same name (looked up by name: `db.table` is untyped, the rows are
 * typed by SyncPage). The read marker only moves forward, so a marker of a command not sent yet is not taken back
 * (putReadMarker), and switches whose command still waits stay as the user turned them (withWaitingSwitches). Other rows of commands still waiting are optimistic rows keyed by their command id, which no
 * server row has, so a put never overwrites them.
 */
async function putRows(db: PortalDb, page: SyncPage, list: SyncList): Promise<void> {
  if (list === 'notificationReads') {
    for (const marker of page.notificationReads) await putReadMarker(db, marker);
    return;
  }
  if (list === 'notificationPreferences') {
    for (const row of page.notificationPreferences) await db.notificationPreferences.put(await withWaitingSwitches(db, row));
    return;
  }
  const rows = page[list];
  if (rows.length > 0) await db.table(list).bulkPut(rows);
}

const RejectedRow = z.object({ table: z.string(), id: z.string().optional(), reason: z.string(), at: z.number() });
export type RejectedRow = z.infer<typeof RejectedRow>;
const RejectedRows = z.array(RejectedRow).catch([]);

/** Keeps the rows a page could not apply, newest last, so a support person can see what the device skipped. */
async function setAside(db: PortalDb, rows: RejectedSyncRow[]): Promise<void> {
  const at = Date.now();
  const kept = [...(await readRejectedRows(db)), ...rows.map((row) => ({ ...row, at }))].slice(-MAX_REJECTED_ROWS);
  await db.meta.put({ key: REJECTED_ROWS_KEY, value: kept });
}

/**
 * The sync-health Retry for rows set aside: the next pull starts from the beginning, so rows this app can read
 * now (after an update) come in; those it still cannot are set aside again. Every row is put again, which is safe.
 */
export async function rereadFromStart(db: PortalDb): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    await db.meta.delete(SYNC_CURSOR_KEY);
    await db.meta.delete(REJECTED_ROWS_KEY);
  });
}

export async function readRejectedRows(db: PortalDb): Promise<RejectedRow[]> {
  return RejectedRows.parse((await db.meta.get(REJECTED_ROWS_KEY))?.value ?? []);
}

/**
 * A row the server created from one of our commands (its answer may have been lost on the way) replaces
 * the optimistic copy at once, and the command is done: no duplicate on screen, no needless resend.
 * Optimistic rows have the command id as their id. An optimistic row lives exactly as long as its command: both are
 * written, edited, confirmed and discarded in one transaction (decision 004), so only commands still in the outbox
 * have one to remove. Every request made through the app carries the id of the command that made it, so a catch-up
 * brings thousands of them, long done: deleting each of those ids in four tables cost several times the page's own
 * write (docs/decisions/017).
 */
async function retireConfirmedCommands(db: PortalDb, rows: { id: string; commandId?: string }[]): Promise<void> {
  const ids = new Set(rows.map((r) => r.id));
  const confirmed = rows.map((r) => r.commandId).filter((id): id is string => !!id && !ids.has(id));
  if (confirmed.length === 0) return;
  const commands = await db.outbox.where('commandId').anyOf(confirmed).toArray();
  if (commands.length === 0) return;
  // An edited command has a new id but still owns its original optimistic row (target.id).
  const optimistic = [...commands.map((c) => c.commandId), ...commands.map((c) => c.target.id)];
  await Promise.all(OPTIMISTIC_LISTS.map((list) => db.table(list).bulkDelete(optimistic)));
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
  return SYNC_LISTS.reduce((size, list) => size + page[list].length, page.profile ? 1 : 0);
}
