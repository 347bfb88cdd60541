import { z } from 'zod';
import type { PortalDb } from '../db.ts';
import { LAST_SYNC_KEY, type RejectedRow, SYNC_ERROR_KEY, readRejectedRows } from './pull.ts';
import { type SenderError, readSenderError } from './sender.ts';
import { STAFF_SYNC_ERROR_KEY } from './staff-pull.ts';

/**
 * What the offline indicator says about the sync (features/offline/sync-health.tsx): everything the engine could
 * not do is kept in the replica, so a background failure shows there instead of the data quietly going stale.
 */
export interface SyncHealth {
  /** When a page was last applied (ms since the epoch); null before the first pull on this device. */
  lastSyncedAt: number | null;
  /** The user's own pull reached the server and failed. */
  error: SyncError | null;
  /** The staff feed's pull reached the server and failed (staff only). */
  staffError: SyncError | null;
  /** The sender hit an error that is not the network's (storage, a bug); cleared once a command is sent. */
  senderError: SenderError | null;
  /** Rows the server sent that this app could not read, set aside so the rest could be applied. */
  rejectedRows: RejectedRow[];
}

const SyncError = z.object({ message: z.string(), at: z.number() });
export type SyncError = z.infer<typeof SyncError>;

export type SyncErrorKey = typeof SYNC_ERROR_KEY | typeof STAFF_SYNC_ERROR_KEY;

/** A pull that reached the server and failed; the next page it applies clears it. */
export async function recordSyncError(db: PortalDb, message: string, key: SyncErrorKey = SYNC_ERROR_KEY): Promise<void> {
  await db.meta.put({ key, value: { message, at: Date.now() } satisfies SyncError });
}

async function readSyncError(db: PortalDb, key: SyncErrorKey): Promise<SyncError | null> {
  const parsed = SyncError.safeParse((await db.meta.get(key))?.value);
  return parsed.success ? parsed.data : null;
}

export async function readSyncHealth(db: PortalDb): Promise<SyncHealth> {
  const last = z.number().nullable().catch(null).parse((await db.meta.get(LAST_SYNC_KEY))?.value ?? null);
  const [error, staffError, senderError, rejectedRows] = await Promise.all([
    readSyncError(db, SYNC_ERROR_KEY),
    readSyncError(db, STAFF_SYNC_ERROR_KEY),
    readSenderError(db),
    readRejectedRows(db),
  ]);
  return { lastSyncedAt: last, error, staffError, senderError, rejectedRows };
}
