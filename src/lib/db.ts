import Dexie, { type Table } from 'dexie';
import { FINAL_FILES_CACHE } from '../../domain/downloads.ts';
import type {
  ContactRequest,
  Deal,
  LiveDetails,
  NotificationItem,
  ProductRequest,
  Profile,
  RefundRequest,
  UserFile,
} from '../../domain/schemas.ts';

/** Marks a row written locally by a command that the server has not confirmed yet. */
export interface PendingMark {
  pending?: boolean;
  commandId?: string;
}

export type LocalRequest = ProductRequest & PendingMark & { toolId?: string };
export type LocalRefund = RefundRequest & PendingMark;
export type LocalContactRequest = ContactRequest & PendingMark;

export interface FormPayload {
  fields: Record<string, string>;
  files: { field: string; name: string; type: string; blob: Blob }[];
}

export type CommandKind = 'purchase' | 'refund' | 'contact' | 'initialForm';
export type CommandStatus = 'pending' | 'sending' | 'failed' | 'held';

export interface OutboxCommand {
  /** Auto-increment: the send order (FIFO). */
  seq?: number;
  /** Sent as Idempotency-Key, so a resend after a lost answer is recognised by the server. */
  id: string;
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
  /** The optimistic row this command wrote, replaced by the server's row once sent. */
  target: { table: 'requests' | 'refunds' | 'contactRequests' | 'profile'; id: string };
}

export interface MetaRow {
  key: string;
  value: unknown;
}

/**
 * The signed-in user's replica (one database per user, wiped on sign-out). Versions are append-only:
 * a change of stores is a new `version(n)` entry, never an edit of an old one.
 */
export class PortalDb extends Dexie {
  profile!: Table<Profile, string>;
  requests!: Table<LocalRequest, string>;
  deals!: Table<Deal, string>;
  refunds!: Table<LocalRefund, string>;
  notifications!: Table<NotificationItem, string>;
  contactRequests!: Table<LocalContactRequest, string>;
  files!: Table<UserFile, string>;
  liveDetails!: Table<LiveDetails & { fetchedAt: number }, string>;
  outbox!: Table<OutboxCommand, number>;
  meta!: Table<MetaRow, string>;

  readonly uid: string;

  constructor(uid: string) {
    super(dbName(uid));
    this.uid = uid;
    this.version(1).stores({
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
    });
    // Tables page through one tool's requests newest first without reading the rest.
    this.version(2).stores({ requests: 'id, productRequestType, status, Created_Time, [productRequestType+Created_Time]' });
  }
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
