import { z } from 'zod';
import type { RequestStatus } from './enums.ts';
import { BusinessSettings } from './business-settings.ts';
import { NotificationRead } from './notification-reads.ts';
import { ContactReply, ContactRequest, Deal, NotificationItem, ProductRequest, Profile, RefundRequest, StatusChange, UserFile } from './schemas.ts';
import type { ToolNameBackend } from './tools.ts';
import { TrackingLink } from './tracking.ts';

/** Cursor of the delta feed: the highest change sequence number the client has applied. */
export const SyncCursor = z.string().regex(/^\d{1,18}$/, 'cursor must be a non-negative integer');
export const SyncQuery = z.object({ cursor: SyncCursor.default('0'), limit: z.coerce.number().int().min(1).max(5000).default(2000) });

/**
 * One page of GET /api/sync: every row of the user's that changed after `cursor`, oldest first.
 * `hasMore` means the client should pull again at once with the returned cursor.
 */
export const SyncPage = z.object({
  cursor: SyncCursor,
  hasMore: z.boolean(),
  profile: Profile.nullable(),
  requests: z.array(ProductRequest),
  deals: z.array(Deal),
  refunds: z.array(RefundRequest),
  notifications: z.array(NotificationItem),
  contactRequests: z.array(ContactRequest),
  /** Replies in the user's support threads, from either side. Absent from servers before threads. */
  contactReplies: z.array(ContactReply).default([]),
  files: z.array(UserFile),
  /** Track Master tracking links with their visit counts (a capture moves the link's seq). Absent before links. */
  trackingLinks: z.array(TrackingLink).default([]),
  /** The user's notification read marker (one row), when it moved. Absent before read state. */
  notificationReads: z.array(NotificationRead).default([]),
  /** The business's settings (one row, the same for every user), when they changed. Absent before settings. */
  businessSettings: z.array(BusinessSettings).default([]),
});
export type SyncPage = z.infer<typeof SyncPage>;

/** A page with no changes: where a pull starts filling, and the whole answer when nothing changed. */
export function emptySyncPage(cursor: string, hasMore = false): SyncPage {
  return { cursor, hasMore, profile: null, requests: [], deals: [], refunds: [], notifications: [], contactRequests: [], contactReplies: [], files: [], trackingLinks: [], notificationReads: [], businessSettings: [] };
}

// ---- the client's reading of a page: row by row, tolerant of values from a newer server ----

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

/** How the client reads each list of a sync page, one row at a time. */
export const syncRowSchemas = {
  requests: ProductRequest.extend({
    status: openValue<RequestStatus>(),
    productRequestType: clientTool,
    statusHistory: z.array(StatusChange.extend({ status: openValue<RequestStatus>() })).optional(),
  }),
  deals: Deal.extend({ productRequestType: clientTool }),
  refunds: RefundRequest.extend({ tool: clientTool }),
  notifications: NotificationItem,
  contactRequests: ContactRequest,
  contactReplies: ContactReply,
  files: UserFile,
  trackingLinks: TrackingLink,
  notificationReads: NotificationRead,
  businessSettings: BusinessSettings,
};
export type SyncRowList = keyof typeof syncRowSchemas;

/**
 * A page's envelope as the client fetches it. The cursor and the lists themselves must be right (without them
 * the page cannot be applied, and the failure is shown); the rows inside are read one by one (readSyncPage).
 */
export const LooseSyncPage = z.object({
  cursor: SyncCursor,
  hasMore: z.boolean(),
  profile: z.unknown(),
  requests: z.array(z.unknown()),
  deals: z.array(z.unknown()),
  refunds: z.array(z.unknown()),
  notifications: z.array(z.unknown()),
  contactRequests: z.array(z.unknown()),
  contactReplies: z.array(z.unknown()).default([]),
  files: z.array(z.unknown()),
  trackingLinks: z.array(z.unknown()).default([]),
  notificationReads: z.array(z.unknown()).default([]),
  businessSettings: z.array(z.unknown()).default([]),
});
export type LooseSyncPage = z.infer<typeof LooseSyncPage>;

/** A row the client could not read: set aside so the rest of its page still applies and the cursor moves on. */
export interface RejectedSyncRow {
  table: SyncRowList | 'profile';
  id?: string;
  reason: string;
}

/** Splits a page into the rows this app can read (as a SyncPage) and those it sets aside, with the reason. */
export function readSyncPage(loose: LooseSyncPage): { page: SyncPage; rejected: RejectedSyncRow[] } {
  const rejected: RejectedSyncRow[] = [];
  const read = <T extends z.ZodType>(list: SyncRowList, schema: T) => readRows(list, schema, loose[list], rejected);
  const profile = loose.profile === null || loose.profile === undefined ? [] : readRows('profile', Profile, [loose.profile], rejected);
  const page: SyncPage = {
    cursor: loose.cursor,
    hasMore: loose.hasMore,
    profile: profile[0] ?? null,
    requests: read('requests', syncRowSchemas.requests),
    deals: read('deals', syncRowSchemas.deals),
    refunds: read('refunds', syncRowSchemas.refunds),
    notifications: read('notifications', syncRowSchemas.notifications),
    contactRequests: read('contactRequests', syncRowSchemas.contactRequests),
    contactReplies: read('contactReplies', syncRowSchemas.contactReplies),
    files: read('files', syncRowSchemas.files),
    trackingLinks: read('trackingLinks', syncRowSchemas.trackingLinks),
    notificationReads: read('notificationReads', syncRowSchemas.notificationReads),
    businessSettings: read('businessSettings', syncRowSchemas.businessSettings),
  };
  return { page, rejected };
}

function readRows<T extends z.ZodType>(table: RejectedSyncRow['table'], schema: T, rows: unknown[], rejected: RejectedSyncRow[]): z.output<T>[] {
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
