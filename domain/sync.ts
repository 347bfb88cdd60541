import { z } from 'zod';
import type { RequestStatus } from './enums.ts';
import { BusinessSettings } from './business-settings.ts';
import { NotificationPreferences } from './notification-preferences.ts';
import { NotificationRead } from './notification-reads.ts';
import { ContactReply, ContactRequest, Deal, NotificationItem, ProductRequest, Profile, RefundRequest, StatusChange, UserFile } from './schemas.ts';
import type { ToolNameBackend } from './tools.ts';
import { TrackingLink } from './tracking.ts';

/** Cursor of the delta feed: the highest change sequence number the client has applied. */
export const SyncCursor = z.string().regex(/^\d{1,18}$/, 'cursor must be a non-negative integer');
export const SyncQuery = z.object({ cursor: SyncCursor.default('0'), limit: z.coerce.number().int().min(1).max(5000).default(2000) });

// ---- the declaration of a synced table: everything else of the feed on this side is derived from it ----

/**
 * One table of the user's feed, declared once. Its feed name (its key in the declarations) is the list's key on
 * the wire and the name of its Dexie store. The server declares its side under the same name
 * (server/sync/feed-sources.ts); docs/architecture.md has the recipe for a new one.
 */
export interface SyncedTable<Row extends z.ZodType = z.ZodType, ClientRow extends z.ZodType = z.ZodType> {
  /** A row as the server sends it: the documented response (SyncPage). */
  row: Row;
  /** A row as the client reads it: tolerant of values a newer server may send (openValue below). */
  clientRow: ClientRow;
  /** The Dexie store: its primary key, then only the indexes a screen reads (a pull writes every index of every row). */
  indexes: string;
  /** Absent from servers older than the table: the page reads it as an empty list. */
  addedLater?: boolean;
  /** Holds the optimistic rows of outbox commands (keyed by the command id) until the server's row comes. */
  optimistic?: boolean;
}

/** Declares a synced table; the client's reading is the row schema unless it says otherwise. */
export function syncedTable<Row extends z.ZodType, ClientRow extends z.ZodType = Row, const Later extends boolean = false>(table: {
  row: Row;
  clientRow?: ClientRow;
  indexes: string;
  addedLater?: Later;
  optimistic?: boolean;
}): SyncedTable<Row, ClientRow> & { addedLater?: Later } {
  return { ...table, clientRow: (table.clientRow ?? table.row) as ClientRow };
}

/**
 * A status or tool name as the client's sync reads it. A newer server may send a value this app does not
 * know yet; failing the row for it would hide data the user can still read, so the raw text is kept and the
 * screens show it neutrally (statusLabelOf, `toolByBackendName(…)?.header ?? raw`). It is typed as the known
 * list so the replica keeps one row type: client code only compares these fields with known values or labels
 * them with such a fallback. The server keeps the closed enums (SyncPage, CHECK constraints).
 */
function openValue<T extends string>() {
  return z.custom<T>((v) => typeof v === 'string' && v.trim() !== '' && v.length <= 100, { error: 'must be a non-empty text of at most 100 characters' });
}

const clientTool = openValue<ToolNameBackend>();

/**
 * The user's profile: the one record of the feed, a single object or null on the wire (`profile`) rather than a
 * list, as clients have always read it; its store is keyed by uid.
 */
export const syncedProfile = syncedTable({ row: Profile, indexes: 'uid' });

/** Every list of the user's feed, in the page's order. */
export const syncedTables = {
  requests: syncedTable({
    row: ProductRequest,
    clientRow: ProductRequest.extend({
      status: openValue<RequestStatus>(),
      productRequestType: clientTool,
      statusHistory: z.array(StatusChange.extend({ status: openValue<RequestStatus>() })).optional(),
    }),
    // A tool's table pages through its requests newest first with the compound index.
    indexes: 'id, status, Created_Time, [productRequestType+Created_Time]',
    optimistic: true,
  }),
  deals: syncedTable({ row: Deal, clientRow: Deal.extend({ productRequestType: clientTool }), indexes: 'id' }),
  refunds: syncedTable({ row: RefundRequest, clientRow: RefundRequest.extend({ tool: clientTool }), indexes: 'id, processId', optimistic: true }),
  notifications: syncedTable({ row: NotificationItem, indexes: 'id, createdAt' }),
  contactRequests: syncedTable({ row: ContactRequest, indexes: 'id, createdAt', optimistic: true }),
  /** Replies in the user's support threads, from either side. */
  contactReplies: syncedTable({ row: ContactReply, indexes: 'id, threadId, createdAt', addedLater: true, optimistic: true }),
  files: syncedTable({ row: UserFile, indexes: 'id, createdAt' }),
  /** Track Master tracking links with their visit counts (a capture moves the link's seq). */
  trackingLinks: syncedTable({ row: TrackingLink, indexes: 'id, productRequestId', addedLater: true }),
  /** The user's notification read marker (one row), when it moved. */
  notificationReads: syncedTable({ row: NotificationRead, indexes: 'userId', addedLater: true }),
  /** The business's settings (one row, the same for every user), when they changed. */
  businessSettings: syncedTable({
    row: BusinessSettings,
    // A server from before the four-eyes payment details sends no approval time: read as "never changed".
    clientRow: BusinessSettings.extend({ paymentDetailsChangedAt: z.string().nullable().default(null) }),
    indexes: 'id',
    addedLater: true,
  }),
  /** The user's notification choices (one row), when they changed. */
  notificationPreferences: syncedTable({ row: NotificationPreferences, indexes: 'userId', addedLater: true }),
};

// ---- what the declarations give: the page's schemas, the empty page, the tolerant reader, the stores ----

type Declared = Record<string, SyncedTable & { addedLater?: boolean }>;

/** A list of the page: a table added later defaults to empty, so a page from an older server still reads. */
type ListOf<T extends SyncedTable & { addedLater?: boolean }, Item extends z.ZodType> = T extends { addedLater?: infer L }
  ? true extends L
    ? z.ZodDefault<z.ZodArray<Item>>
    : z.ZodArray<Item>
  : z.ZodArray<Item>;

function listOf<Item extends z.ZodType>(table: { addedLater?: boolean }, item: Item) {
  return table.addedLater ? z.array(item).default([]) : z.array(item);
}

/** A row the client could not read: set aside so the rest of its page still applies and the cursor moves on. */
export interface RejectedSyncRow<List extends string = string> {
  table: List | 'profile';
  id?: string;
  reason: string;
}

/**
 * The feed's contract derived from its declarations: the page as the server documents and sends it (`page`), the
 * envelope the client checks before reading rows one by one (`loosePage`), the empty page, the reader, and the
 * replica's stores. Exported as a function so a test can derive it for a table of its own.
 */
export function syncContract<P extends SyncedTable, T extends Declared>(profile: P, tables: T) {
  const lists = Object.keys(tables) as (keyof T & string)[];
  const each = <S>(make: (table: T[keyof T], name: keyof T & string) => S) => Object.fromEntries(lists.map((name) => [name, make(tables[name], name)])) as { [K in keyof T]: S };

  const page = z.object({
    cursor: SyncCursor,
    hasMore: z.boolean(),
    profile: profile.row.nullable() as z.ZodNullable<P['row']>,
    ...(each((table) => listOf(table, table.row)) as unknown as { [K in keyof T]: ListOf<T[K], T[K]['row']> }),
  });
  type Page = z.infer<typeof page>;

  /**
   * A page's envelope as the client fetches it. The cursor and the lists themselves must be right (without them
   * the page cannot be applied, and the failure is shown); the rows inside are read one by one (read).
   */
  const loosePage = z.object({
    cursor: SyncCursor,
    hasMore: z.boolean(),
    profile: z.unknown(),
    ...(each((table) => listOf(table, z.unknown())) as unknown as { [K in keyof T]: ListOf<T[K], z.ZodUnknown> }),
  });
  type LoosePage = z.infer<typeof loosePage>;

  /** A page with no changes: where a pull starts filling, and the whole answer when nothing changed. */
  const empty = (cursor: string, hasMore = false): Page => ({ cursor, hasMore, profile: null, ...each(() => []) }) as Page;

  /** Splits a page into the rows this app can read (as a page) and those it sets aside, with the reason. */
  const read = (loose: LoosePage): { page: Page; rejected: RejectedSyncRow<keyof T & string>[] } => {
    const rejected: RejectedSyncRow<keyof T & string>[] = [];
    // The envelope's fields as plain values: its type is generic here, known only where the contract is used.
    const envelope = loose as { cursor: string; hasMore: boolean; profile: unknown } & Record<string, unknown[]>;
    const profileRows = envelope.profile === null || envelope.profile === undefined ? [] : readRows('profile', profile.clientRow, [envelope.profile], rejected);
    const rows = each((table, name) => readRows(name, table.clientRow, envelope[name], rejected));
    return { page: { cursor: envelope.cursor, hasMore: envelope.hasMore, profile: profileRows[0] ?? null, ...rows } as Page, rejected };
  };

  /** The Dexie stores of the synced tables, named by their feed names. */
  const stores: Record<string, string> = { profile: profile.indexes, ...each((table) => table.indexes) };

  /** The lists whose store holds commands' optimistic rows. */
  const optimistic = lists.filter((name) => tables[name].optimistic);

  return { lists, page, loosePage, empty, read, stores, optimistic };
}

const contract = syncContract(syncedProfile, syncedTables);

/** The feed's lists by their names, in the page's order. */
export type SyncList = keyof typeof syncedTables;
export const SYNC_LISTS: readonly SyncList[] = contract.lists;

/**
 * One page of GET /api/sync: every row of the user's that changed after `cursor`, oldest first.
 * `hasMore` means the client should pull again at once with the returned cursor.
 */
export const SyncPage = contract.page;
export type SyncPage = z.infer<typeof SyncPage>;
export const LooseSyncPage = contract.loosePage;
export type LooseSyncPage = z.infer<typeof LooseSyncPage>;
export const emptySyncPage = contract.empty;
export const readSyncPage = contract.read;
/** The replica's stores of the synced tables (src/lib/db.ts adds the device's own). */
export const SYNCED_STORES = contract.stores;
/** The lists whose rows may be optimistic rows of outbox commands. */
export const OPTIMISTIC_LISTS: readonly SyncList[] = contract.optimistic;

function readRows<T extends z.ZodType>(table: string, schema: T, rows: unknown[], rejected: RejectedSyncRow<string>[]): z.output<T>[] {
  const kept: z.output<T>[] = [];
  for (const row of rows) {
    const parsed = schema.safeParse(row);
    if (parsed.success) kept.push(parsed.data);
    else rejected.push({ table, id: rowId(row), reason: issuesText(parsed.error) });
  }
  return kept;
}

function rowId(row: unknown): string | undefined {
  if (typeof row !== 'object' || row === null) return undefined;
  const id = 'id' in row ? row.id : 'uid' in row ? row.uid : 'userId' in row ? row.userId : undefined;
  return typeof id === 'string' ? id : undefined;
}

/** "status: Invalid option…; paid: Expected number…": enough to find the column without storing the row's data. */
function issuesText(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || 'row'}: ${issue.message}`)
    .join('; ');
}
