import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { Storage } from '../files/storage.ts';

/**
 * What GET /api/health checks: the database answers and accepts a write, and the file storage accepts a file
 * (docs/decisions/023-database-faults.md). Each probe has a timeout, so the answer never hangs.
 */

/** A probe that has not answered by then counts as failed: a load balancer's check must not hang. */
const PROBE_TIMEOUT_MS = 2_000;
/**
 * The write probes (a committed transaction, a small file stored and removed) are shared by the calls
 * within this window, so a load balancer or a benchmark hammering /api/health costs one of each at most
 * this often; the `select 1` runs on every call.
 */
const WRITE_PROBE_EVERY_MS = 2_000;

export interface HealthChecks {
  database: { reachable: boolean; writable: boolean };
  storage: { writable: boolean };
}

/** The checks of one call: `select 1` every time, the write probes shared within WRITE_PROBE_EVERY_MS. */
export function healthChecks(db: Db, kind: 'pglite' | 'postgres', storage: Storage): () => Promise<HealthChecks> {
  const writeProbes = sharedWriteProbes(db, kind, storage);
  return async () => {
    // Side by side, so the answer comes within one probe timeout whatever fails.
    const [reachable, writes] = await Promise.all([withinTimeout(db.execute(sql`select 1`)), writeProbes()]);
    return { database: { reachable, writable: reachable && writes.database }, storage: { writable: writes.storage } };
  };
}

/** What is wrong, in words, or null when every check passed. */
export function problemOf(checks: HealthChecks): string | null {
  if (!checks.database.reachable) return 'Not ready: the database cannot be reached.';
  if (!checks.database.writable) return 'Not ready: the database does not accept writes.';
  if (!checks.storage.writable) return 'Not ready: the file storage does not accept writes (is the disk full?).';
  return null;
}

/** The write probes, run at most once per WRITE_PROBE_EVERY_MS and shared by the calls meanwhile. */
function sharedWriteProbes(db: Db, kind: 'pglite' | 'postgres', storage: Storage) {
  let last: { at: number; result: Promise<{ database: boolean; storage: boolean }> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= WRITE_PROBE_EVERY_MS) {
      const result = Promise.all([withinTimeout(probeDatabaseWrite(db, kind)), withinTimeout(probeStorageWrite(storage))]).then(([database, stored]) => ({ database, storage: stored }));
      last = { at: now, result };
    }
    return last.result;
  };
}

/**
 * A transaction that takes a transaction id and commits: refused by a read-only or recovering server, and
 * its commit goes through the write-ahead log. It leaves nothing behind in any table.
 */
async function probeDatabaseWrite(db: Db, kind: 'pglite' | 'postgres'): Promise<void> {
  await db.transaction(async (tx) => {
    if (kind === 'postgres') await tx.execute(sql.raw(`set local statement_timeout = ${PROBE_TIMEOUT_MS}`));
    const result = await tx.execute(sql`select pg_current_xact_id()::text as xid, current_setting('transaction_read_only') as read_only`);
    const [row] = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { read_only: string }[];
    if (row?.read_only !== 'off') throw new Error('the database is read-only');
  });
}

/** A few bytes stored and removed through the same store as uploads (disk, or the database's file chunks). */
async function probeStorageWrite(storage: Storage): Promise<void> {
  const stored = await storage.save(Buffer.from('health probe\n'), 'health-probe.txt');
  await storage.remove(stored.storedName);
}

/** Whether `work` succeeds within PROBE_TIMEOUT_MS; it goes on in the background when late, and its failure is then dropped. */
async function withinTimeout(work: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS)));
  try {
    return await Promise.race([work.then(() => true, () => false), late]);
  } finally {
    clearTimeout(timer);
  }
}
