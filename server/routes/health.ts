import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { HttpError } from '../platform/errors.ts';
import { RETRY_AFTER_SECONDS } from '../platform/service-faults.ts';
import type { Storage } from '../files/storage.ts';

/** A probe that has not answered by then counts as failed: a load balancer's check must not hang. */
const PROBE_TIMEOUT_MS = 2_000;
/**
 * The write probes (a committed transaction, a small file stored and removed) are shared by the calls
 * within this window, so a load balancer or a benchmark hammering /api/health costs one of each at most
 * this often; the `select 1` runs on every call.
 */
const WRITE_PROBE_EVERY_MS = 2_000;

const Checks = z.object({
  database: z.object({ reachable: z.boolean(), writable: z.boolean() }),
  storage: z.object({ writable: z.boolean() }),
});
type Checks = z.infer<typeof Checks>;

/**
 * GET /api/health: 200 when the database answers and accepts a write and the file storage accepts a
 * file; 503 with the same checks (in error.details) and a message saying which one failed otherwise.
 * `status` and `database` (the database's kind) keep their meaning for the callers that wait for a
 * started server (docs/decisions/023-database-faults.md).
 */
export async function healthRoutes(app: FastifyInstance) {
  const writeProbes = sharedWriteProbes(app.db, app.database.kind, app.storage);
  app.get(
    '/health',
    { schema: { response: { 200: z.object({ data: z.object({ status: z.literal('ok'), database: z.string(), checks: Checks }) }) } } },
    async (_request, reply) => {
      // Side by side, so the answer comes within one probe timeout whatever fails.
      const [reachable, writes] = await Promise.all([withinTimeout(app.db.execute(sql`select 1`)), writeProbes()]);
      const checks: Checks = { database: { reachable, writable: reachable && writes.database }, storage: { writable: writes.storage } };
      const problem = problemOf(checks);
      if (problem) {
        reply.header('retry-after', String(RETRY_AFTER_SECONDS.unavailable));
        throw new HttpError(503, 'UNAVAILABLE', problem, { status: 'unavailable', database: app.database.kind, checks });
      }
      return { data: { status: 'ok' as const, database: app.database.kind, checks } };
    },
  );
}

function problemOf(checks: Checks): string | null {
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
