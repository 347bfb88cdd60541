import Dexie, { type Table } from 'dexie';
import { FINAL_FILES_CACHE } from '../../domain/downloads.ts';
import type { ClientFile, QueuePage, RequestFile } from '../../domain/staff.ts';
import { OPTIMISTIC_LISTS, SYNCED_STORES, type SyncList, type SyncPage } from '../../domain/sync.ts';
import type { ContactReply, ContactRequest, LiveDetails, ProductRequest, Profile, RefundRequest } from '../../domain/schemas.ts';

/** Marks a row written locally by a command that the server has not confirmed yet. */
export interface PendingMark {
  pending?: boolean;
  commandId?: string;
}

export type LocalRequest = ProductRequest & PendingMark & { toolId?: string };
export type LocalRefund = RefundRequest & PendingMark;
export type LocalContactRequest = ContactRequest & PendingMark;
export type LocalContactReply = ContactReply & PendingMark;

export interface FormPayload {
  fields: Record<string, string>;
  files: { field: string; name: string; type: string; blob: Blob }[];
}

/** Client commands, then the staff workspace's (a reply to a client, an internal note), which queue offline too. */
export type ClientCommandKind = 'purchase' | 'refund' | 'contact' | 'contactReply' | 'initialForm' | 'notificationsRead' | 'notificationPreferences' | 'seen';
export type StaffCommandKind = 'staffReply' | 'staffNote';
export type CommandKind = ClientCommandKind | StaffCommandKind;
export type CommandStatus = 'pending' | 'sending' | 'failed' | 'held';

export interface OutboxCommand {
  /** Auto-increment: the send order (FIFO). */
  seq?: number;
  /**
   * The command id: sent as Idempotency-Key, so a resend after a lost answer is recognised by the server, and
   * stored by the server with the row it creates (the row's `commandId`). A row written optimistically is keyed by it.
   */
  commandId: string;
  kind: CommandKind;
  label: string;
  method: 'POST' | 'PUT';
  path: string;
  json?: unknown;
  form?: FormPayload;
  status: CommandStatus;
  attempts: number;
  nextAttemptAt: number;
  error?: string;
  createdAt: number;
  /**
   * The optimistic row this command wrote, replaced by the server's row once sent. Staff commands write
   * none: the page shows them from the outbox, and `id` is the client file they belong to.
   */
  target: {
    table: 'requests' | 'refunds' | 'contactRequests' | 'contactReplies' | 'profile' | 'staffClients' | 'notificationReads' | 'notificationPreferences' | 'meta';
    id: string;
  };
  /**
   * What the optimistic write changed on a row that existed before it (the profile, for the initial
   * form): Discard puts these fields back, so it is a true undo. New rows need none: Discard deletes them.
   */
  revert?: Record<string, unknown>;
}

/** A page of the staff workspace kept for offline reading: the server's answer as it was last fetched or fed. */
export interface StaffCopy<T> {
  key: string;
  data: T;
  /** When the server produced it (ms since the epoch): shown as "as of" when offline. */
  fetchedAt: number;
}

/** The meta row holding the delta feed's cursor (src/lib/sync/pull.ts). */
export const SYNC_CURSOR_KEY = 'syncCursor';

export interface MetaRow {
  key: string;
  value: unknown;
}

/** The replica's row of a synced list: the feed's row, with the pending mark where commands write optimistic rows. */
interface OptimisticRows {
  requests: LocalRequest;
  refunds: LocalRefund;
  contactRequests: LocalContactRequest;
  contactReplies: LocalContactReply;
}
export type ReplicaRow<List extends SyncList> = List extends keyof OptimisticRows ? OptimisticRows[List] : SyncPage[List][number];

/** The synced tables of the replica, one per list of the feed (domain/sync.ts), plus the profile. */
export type SyncedTables = { profile: Table<Profile, string> } & { [List in SyncList]: Table<ReplicaRow<List>, string> };

/** The device's own stores, beside the synced ones. */
const DEVICE_STORES = {
  liveDetails: 'id',
  outbox: '++seq, &commandId, status',
  meta: 'key',
  // The staff workspace's offline copies (keyed by uid, request id, "tab|search").
  staffClients: 'key',
  staffRequests: 'key',
  staffQueue: 'key',
};

/** The replica's stores as they are now: the synced tables' declarations (domain/sync.ts) and the device's own. */
export const REPLICA_STORES: Record<string, string> = { ...SYNCED_STORES, ...DEVICE_STORES };

/**
 * What each version changed, in order: Dexie's history, append-only (a released version is never edited). A new
 * synced table is its declaration in domain/sync.ts plus a new entry here; db.test.ts checks that the entries add
 * up to REPLICA_STORES, so a declaration without its version fails there.
 */
export const STORE_VERSIONS: Record<string, string | null>[] = [
  {
    profile: 'uid',
    requests: 'id, productRequestType, status, Created_Time',
    deals: 'id, requestId, productRequestType',
    refunds: 'id, processId',
    notifications: 'id, createdAt',
    contactRequests: 'id, createdAt',
    files: 'id, createdAt',
    liveDetails: 'id',
    outbox: '++seq, &id, status',
    meta: 'key',
  },
  // 2: tables page through one tool's requests newest first without reading the rest.
  { requests: 'id, productRequestType, status, Created_Time, [productRequestType+Created_Time]' },
  // 3: support threads' replies; the staff workspace's offline copies.
  { contactReplies: 'id, threadId, createdAt', staffClients: 'key', staffRequests: 'key', staffQueue: 'key' },
  { trackingLinks: 'id, productRequestId' },
  { notificationReads: 'userId' },
  { businessSettings: 'id' },
  // 7: no change of stores, an upgrade (below).
  {},
  // 8: a pull writes every index of every row it brings (docs/decisions/017): only the indexes a screen reads stay.
  // A tool's count uses the compound index; no screen queries deals by request or tool (billing reads them all).
  { requests: 'id, status, Created_Time, [productRequestType+Created_Time]', deals: 'id' },
  // 9: the outbox's command id is named so (it was `id`): its unique index follows (upgrade below).
  { outbox: '++seq, &commandId, status' },
  { notificationPreferences: 'userId' },
];

// The synced tables' properties come from their declarations (SyncedTables); Dexie defines them on the instance.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface PortalDb extends SyncedTables {}

/**
 * The signed-in user's replica (one database per user, wiped on sign-out). Versions are append-only:
 * a change of stores is a new entry of STORE_VERSIONS, never an edit of an old one.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class PortalDb extends Dexie {
  liveDetails!: Table<LiveDetails & { fetchedAt: number }, string>;
  /** The staff member's replica (staff only): client and request files, queue pages, fed by GET /api/staff/sync. */
  staffClients!: Table<StaffCopy<ClientFile>, string>;
  staffRequests!: Table<StaffCopy<RequestFile>, string>;
  staffQueue!: Table<StaffCopy<QueuePage>, string>;
  outbox!: Table<OutboxCommand, number>;
  meta!: Table<MetaRow, string>;

  readonly uid: string;

  constructor(uid: string) {
    super(dbName(uid));
    this.uid = uid;
    STORE_VERSIONS.forEach((changed, i) => this.version(i + 1).stores(changed));
    // The feed's request rows gained their status history and attachment hashes (for the case file). A
    // replica written before reads the feed again from the start, once, so rows unchanged since get them too;
    // every row is put again, which is safe (as the sync-health Retry does).
    this.version(7).upgrade((tx) => tx.table<MetaRow, string>('meta').delete(SYNC_CURSOR_KEY));
    // Commands queued before version 9 keep their id under its new name, so a resend still carries the same key.
    this.version(9).upgrade((tx) =>
      tx
        .table('outbox')
        .toCollection()
        .modify((command: Record<string, unknown>) => {
          if (command.commandId === undefined) command.commandId = command.id;
          delete command.id;
        }),
    );
    // The latest version declares the stores as the declarations give them (the same, as db.test.ts checks).
    this.version(STORE_VERSIONS.length).stores(REPLICA_STORES);
  }
}


/**
 * One tool's requests, oldest first: a range of the compound index (version 8 keeps no index on the tool alone).
 * A Dexie collection is changed by reverse/offset/limit, so each use calls this again.
 */
export function requestsOfTool(db: PortalDb, tool: string) {
  return db.requests.where('[productRequestType+Created_Time]').between([tool, Dexie.minKey], [tool, Dexie.maxKey]);
}

/**
 * Every table a command's optimistic write or confirmation touches: one list, so no transaction misses one.
 * Notifications are only read (the marker takes the shown notification's time); a `seen` command keeps its mark in meta.
 */
export function commandTables(db: PortalDb) {
  return [
    db.outbox,
    ...OPTIMISTIC_LISTS.map((list) => db.table(list)),
    db.profile,
    db.staffClients,
    db.staffRequests,
    db.notificationReads,
    db.notifications,
    db.notificationPreferences,
    db.meta,
  ];
}

export function dbName(uid: string): string {
  return `portal-${uid}`;
}

let current: PortalDb | null = null;

/** Opens (or returns) the replica of this user; a different user closes the previous one. */
export function openUserDb(uid: string): PortalDb {
  if (current?.uid === uid) return current;
  current?.close();
  current = new PortalDb(uid);
  return current;
}

/** Sign-out: the device keeps nothing of the user's, neither the replica nor the reports the service worker saved. */
export async function deleteUserDb(uid: string): Promise<void> {
  if (current?.uid === uid) {
    current.close();
    current = null;
  }
  await Dexie.delete(dbName(uid));
  if (typeof caches !== 'undefined') await caches.delete(FINAL_FILES_CACHE);
}
