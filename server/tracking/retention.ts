import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { type PeriodicJob, startPeriodicJob } from '../platform/periodic-job.ts';

/**
 * Visits are personal data of whoever opened the link (often, but not always, the scammer). They are
 * kept while the case is worked and `days` days after it ends, then deleted: a request's visits go
 * once the request is Done or Rejected and its updated_at is older than `days` days. updated_at is
 * the closest thing to "closed at" the row has: the database moves it on every change
 * (migrations/0007), and the last change of a closed request is usually its closing; a later change
 * (a refund decided after completion) starts the wait again, which errs on the side of keeping the
 * visits for the case's whole life. The links stay (they hold no personal data); their counts are
 * taken again from the visits left, which moves their seq, so the client and staff replicas read the
 * deletion.
 *
 * `now` is injected so a test can run the job "days later" without waiting.
 */
export async function deleteExpiredVisits(db: Db, days: number, now: Date = new Date()): Promise<{ deleted: number; owners: string[] }> {
  const cutoff = new Date(now.getTime() - days * 24 * 60 * 60 * 1000).toISOString();
  return db.transaction(async (tx) => {
    const deleted = await tx.execute(sql`
      DELETE FROM visits
      WHERE request_id IN (
        SELECT id FROM product_requests WHERE status IN ('Done', 'Rejected') AND updated_at < ${cutoff}::timestamptz
      )
      RETURNING request_id::text AS "requestId", user_id AS "userId"
    `);
    const rows = (deleted as unknown as { rows: { requestId: string; userId: string }[] }).rows;
    if (rows.length === 0) return { deleted: 0, owners: [] };
    const requestIds = [...new Set(rows.map((r) => r.requestId))];
    // Counted again from what is left (nothing, unless visits came in since): the counts the client sees
    // then match the visits it can fetch, and the change moves the links' seq.
    await tx.execute(sql`
      UPDATE tracking_links SET
        visits = (SELECT count(*) FROM visits v WHERE v.link_id = tracking_links.id AND v.preview IS NULL),
        previews = (SELECT count(*) FROM visits v WHERE v.link_id = tracking_links.id AND v.preview IS NOT NULL)
      WHERE request_id IN (${sql.join(
        requestIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
    `);
    return { deleted: rows.length, owners: [...new Set(rows.map((r) => r.userId))] };
  });
}

export type RetentionJob = PeriodicJob;

const HOUR = 60 * 60 * 1000;

/**
 * Runs deleteExpiredVisits at start and then every hour; the app calls stop() on close. Several instances may
 * run it at once: the DELETE is idempotent, the second finds nothing.
 */
export function startRetentionJob(opts: {
  db: Db;
  days: number;
  onDeleted: (result: { deleted: number; owners: string[] }) => Promise<void> | void;
  onError: (err: unknown) => void;
  everyMs?: number;
}): RetentionJob {
  return startPeriodicJob(
    async () => {
      const result = await deleteExpiredVisits(opts.db, opts.days);
      if (result.deleted > 0) await opts.onDeleted(result);
    },
    { everyMs: opts.everyMs ?? HOUR, onError: opts.onError },
  );
}
