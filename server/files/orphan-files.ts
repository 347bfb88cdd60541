import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { files } from '../db/schema.ts';
import { type PeriodicJob, startPeriodicJob } from '../platform/periodic-job.ts';
import type { Storage } from './storage.ts';

/**
 * How long a stored file with no row is left alone by the periodic sweep: an upload's bytes are in the
 * store before the handler's transaction commits the row naming them (seconds later, or as long as the
 * database makes it wait), and a file still being written is written to all along. An hour is far
 * beyond both, and short enough that a killed upload's bytes do not linger.
 */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

/**
 * Removes stored files that no files row names and that were last written before `cutoff`: what an
 * upload killed mid-way (kill -9, power cut) or refused after its bytes were stored leaves behind. A file
 * a row names is never removed, whatever its age. Returns how many were removed.
 */
export async function removeOrphanFiles(db: Db, storage: Storage, cutoff: number): Promise<number> {
  return storage.removeOrphans(cutoff, async (names) => {
    if (names.length === 0) return new Set();
    const rows = await db.select({ name: files.storedName }).from(files).where(inArray(files.storedName, names));
    return new Set(rows.map((row) => row.name));
  });
}

export type OrphanSweep = PeriodicJob;

/**
 * Runs removeOrphanFiles at once and then every hour, leaving files written in the last
 * ORPHAN_GRACE_MS alone (they may be uploads in flight, on this instance or another one sharing the
 * store). Several instances may sweep at once: removing a removed file is a no-op.
 */
export function startOrphanSweep(opts: {
  db: Db;
  storage: Storage;
  onRemoved: (removed: number) => void;
  onError: (err: unknown) => void;
  graceMs?: number;
  everyMs?: number;
}): OrphanSweep {
  return startPeriodicJob(
    async () => {
      const removed = await removeOrphanFiles(opts.db, opts.storage, Date.now() - (opts.graceMs ?? ORPHAN_GRACE_MS));
      if (removed > 0) opts.onRemoved(removed);
    },
    { everyMs: opts.everyMs ?? HOUR, onError: opts.onError },
  );
}
