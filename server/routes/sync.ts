import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SyncPage, SyncQuery, emptySyncPage } from '../../domain/sync.ts';
import { hasNewer } from '../change-heads.ts';
import type { Db } from '../db/client.ts';
import { businessSettings, contactReplies, contactRequests, deals, files, notificationReads, notifications, refunds, trackingLinks, users } from '../db/schema.ts';
import { toDeal, toProfile, toRefund } from '../serialize.ts';
import { toContactReply, toContactRequest, toNotification, toNotificationRead, toUserFile } from '../serialize-messages.ts';
import { createSignedLinks } from '../signed-links.ts';
import { syncRequests } from '../sync-requests.ts';
import { toTrackingLink } from '../tracking/links.ts';
import { toBusinessSettings } from '../services/business-settings.ts';

/**
 * File kinds a user's replica holds: the general uploads the Files page lists, as GET /api/user/files does.
 * Purchase attachments travel inside their request; final reports (payment-gated) and invoices are served elsewhere.
 */
export const SYNCED_FILE_KINDS = ['general'] as const;

type Tag = 'u' | 'r' | 'd' | 'f' | 'n' | 'c' | 'm' | 'x' | 't' | 'k' | 'b';

// drizzle types and()/or() as possibly undefined (the result for no conditions at all); with two
// conditions they are always SQL, written here as drizzle writes them.
const both = (a: SQL, b: SQL): SQL => sql`(${a} and ${b})`;
const either = (a: SQL, b: SQL): SQL => sql`(${a} or ${b})`;

/**
 * GET /api/sync?cursor=&limit=: the user's rows whose `seq` is above the cursor, oldest first, at
 * most `limit` of them. Every synced row gets its `seq` from one sequence under an advisory lock
 * (migrations/0001_change_seq.sql), so rows commit in seq order and "seq > cursor" never skips one
 * (docs/decisions/001-delta-sync-and-idempotency.md).
 *
 * A pull with nothing new runs no statement of its own (the feed's head comes with the caller's roles). Otherwise
 * two steps: first the (table, seq) pairs of the next `limit + 1` changes across all tables, then, only for the
 * tables that have any, the rows in (cursor, last seq taken]. A row updated between the two steps moves above that
 * bound and comes in the next pull, so nothing is lost.
 */
export async function syncRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const links = createSignedLinks(app.config.downloadSecret);

  api.get(
    '/sync',
    {
      onRequest: app.authenticate,
      schema: { tags: ['sync'], querystring: SyncQuery, response: { 200: z.object({ data: SyncPage }) } },
      serializerCompiler: () => serializeSyncPage,
    },
    async (request, reply) => {
      const uid = request.user.uid;
      const { cursor, limit } = request.query;
      reply.header('cache-control', 'no-store');

      // The common answer, nothing new, comes from the feed's head read with the caller's roles (server/change-heads.ts);
      // the rest runs only when rows come.
      if (!hasNewer(request.feedHead, cursor)) return { data: emptySyncPage(cursor) };
      const next = await nextChanges(app.db, uid, cursor, limit);
      const page = emptySyncPage(cursor, next.hasMore);
      if (next.upper === null) return { data: page };

      const owned = {
        u: eq(users.uid, uid),
        d: eq(deals.userId, uid),
        f: eq(refunds.userId, uid),
        n: either(eq(notifications.userId, uid), isNull(notifications.userId)),
        c: eq(contactRequests.userId, uid),
        // A thread's replies from either side: user_id is the thread's owner, whoever wrote the reply.
        m: eq(contactReplies.userId, uid),
        x: both(eq(files.userId, uid), inArray(files.kind, [...SYNCED_FILE_KINDS])),
        // Track Master links of the client's requests; a capture moves the link's seq (its counts).
        t: eq(trackingLinks.userId, uid),
        // The user's notification read marker: one row, renumbered each time it moves.
        k: eq(notificationReads.userId, uid),
        // The business settings: one row, everyone's (like a general notification).
        b: sql`true`,
        // r: requests, read by syncRequests with the same condition.
      } satisfies Record<Exclude<Tag, 'r'>, SQL>;

      const { upper, tables: has } = next;
      page.cursor = upper;
      const range = (t: { seq: AnyPgColumn }) => sql`${t.seq} > ${cursor}::bigint AND ${t.seq} <= ${upper}::bigint`;

      await Promise.all([
        has.has('u') &&
          app.db
            .select()
            .from(users)
            .where(and(owned.u, range(users)))
            .then(([row]) => {
              page.profile = row ? toProfile(row) : null;
            }),
        // The bulk of a catch-up: a leaner query of its own (server/sync-requests.ts).
        has.has('r') && syncRequests(app.db, uid, cursor, upper).then((rows) => void (page.requests = rows)),
        has.has('d') &&
          app.db
            .select()
            .from(deals)
            .where(and(owned.d, range(deals)))
            .orderBy(asc(deals.seq))
            .then((rows) => void (page.deals = rows.map((row) => toDeal(row, links)))),
        has.has('f') &&
          app.db
            .select()
            .from(refunds)
            .where(and(owned.f, range(refunds)))
            .orderBy(asc(refunds.seq))
            .then((rows) => void (page.refunds = rows.map(toRefund))),
        has.has('n') &&
          app.db
            .select()
            .from(notifications)
            .where(and(owned.n, range(notifications)))
            .orderBy(asc(notifications.seq))
            .then((rows) => void (page.notifications = rows.map(toNotification))),
        has.has('c') &&
          app.db
            .select()
            .from(contactRequests)
            .where(and(owned.c, range(contactRequests)))
            .orderBy(asc(contactRequests.seq))
            .then((rows) => void (page.contactRequests = rows.map(toContactRequest))),
        has.has('m') &&
          app.db
            .select()
            .from(contactReplies)
            .where(and(owned.m, range(contactReplies)))
            .orderBy(asc(contactReplies.seq))
            .then((rows) => void (page.contactReplies = rows.map(toContactReply))),
        has.has('x') &&
          app.db
            .select()
            .from(files)
            .where(and(owned.x, range(files)))
            .orderBy(asc(files.seq))
            .then((rows) => void (page.files = rows.map(toUserFile))),
        has.has('t') &&
          app.db
            .select()
            .from(trackingLinks)
            .where(and(owned.t, range(trackingLinks)))
            .orderBy(asc(trackingLinks.seq))
            .then((rows) => void (page.trackingLinks = rows.map(toTrackingLink))),
        has.has('k') &&
          app.db
            .select()
            .from(notificationReads)
            .where(and(owned.k, range(notificationReads)))
            .then((rows) => void (page.notificationReads = rows.map(toNotificationRead))),
        has.has('b') &&
          app.db
            .select()
            .from(businessSettings)
            .where(and(owned.b, range(businessSettings)))
            .then((rows) => void (page.businessSettings = rows.map(toBusinessSettings))),
      ]);
      return { data: page };
    },
  );
}

/**
 * The page as sent: checked against SyncPage (the documented response) except for the requests' rows, the bulk of a
 * catch-up, which go out as syncRequests built them. Checking 5,000 of them per page was the largest item of the
 * server's profile during a pull (docs/decisions/017), and it is done again where the rows enter the
 * client's replica: the client reads every row with zod (readSyncPage) and sets aside one it cannot read, whereas a row
 * failing here failed the whole page, and every pull after it, with a 500. The requests' rows are made field by field
 * from a fixed column list (server/sync-requests.ts, toRequest), so nothing else can leak into them; a server test
 * checks that what is sent is exactly what the full schema gives.
 */
const SentSyncPage = z.object({ data: SyncPage.extend({ requests: z.array(z.unknown()) }) });

export function serializeSyncPage(body: unknown): string {
  return JSON.stringify(SentSyncPage.encode(body as z.output<typeof SentSyncPage>));
}

/** The next changes of a user's feed as a page needs them: which tables they are in, where the page ends, and whether more follow. */
export interface NextChanges {
  tables: Set<Tag>;
  /** The seq of the page's last change; null when nothing changed. */
  upper: string | null;
  hasMore: boolean;
}

/**
 * The next `limit` changes of this user's, across every table of the client's feed, summed up by table in the
 * database: at most one row per table comes back rather than one per change (5,001 of them for a full page, which
 * PGlite encoded and decoded at 10–40 ms a page; docs/decisions/017). The change after them, if any,
 * only says that more follow.
 * staff_notes and staff_watches draw from the same sequence but are staff-only: they must never get a
 * branch here (the gaps they leave in a client's seq are harmless: the feed only needs order). Each branch
 * is an index range scan on (user_id, seq) cut at `limit + 1`, so the cost does not grow with history.
 * seq is read as text (node-postgres and PGlite disagree on how they return int8) but sorted as a number.
 */
export async function nextChanges(db: Db, uid: string, cursor: string, limit: number): Promise<NextChanges> {
  const n = limit + 1;
  const c = sql`${cursor}::bigint`;
  const kinds = sql.join(
    SYNCED_FILE_KINDS.map((k) => sql`${k}`),
    sql`, `,
  );
  const result = await db.execute(sql`
    WITH next AS (
      SELECT t, seq, row_number() OVER (ORDER BY seq) AS i FROM (
        SELECT t, seq FROM (
          (SELECT 'u' AS t, seq FROM users WHERE uid = ${uid} AND seq > ${c})
          UNION ALL (SELECT 'r', seq FROM product_requests WHERE user_id = ${uid} AND seq > ${c} ORDER BY seq LIMIT ${n})
          UNION ALL (SELECT 'd', seq FROM deals WHERE user_id = ${uid} AND seq > ${c} ORDER BY seq LIMIT ${n})
          UNION ALL (SELECT 'f', seq FROM refunds WHERE user_id = ${uid} AND seq > ${c} ORDER BY seq LIMIT ${n})
          UNION ALL (SELECT 'n', seq FROM notifications WHERE user_id = ${uid} AND seq > ${c} ORDER BY seq LIMIT ${n})
          UNION ALL (SELECT 'n', seq FROM notifications WHERE user_id IS NULL AND seq > ${c} ORDER BY seq LIMIT ${n})
          UNION ALL (SELECT 'c', seq FROM contact_requests WHERE user_id = ${uid} AND seq > ${c} ORDER BY seq LIMIT ${n})
          UNION ALL (SELECT 'm', seq FROM contact_replies WHERE user_id = ${uid} AND seq > ${c} ORDER BY seq LIMIT ${n})
          UNION ALL (SELECT 'x', seq FROM files WHERE user_id = ${uid} AND kind IN (${kinds}) AND seq > ${c} ORDER BY seq LIMIT ${n})
          UNION ALL (SELECT 't', seq FROM tracking_links WHERE user_id = ${uid} AND seq > ${c} ORDER BY seq LIMIT ${n})
          UNION ALL (SELECT 'k', seq FROM notification_reads WHERE user_id = ${uid} AND seq > ${c})
          UNION ALL (SELECT 'b', seq FROM business_settings WHERE seq > ${c})
        ) AS changes
        ORDER BY changes.seq
        LIMIT ${n}
      ) AS cut
    )
    SELECT t, (max(seq) FILTER (WHERE i <= ${limit}))::text AS s, bool_or(i > ${limit}) AS more
    FROM next
    GROUP BY t
  `);
  const rows = (result as unknown as { rows: { t: Tag; s: string | null; more: boolean }[] }).rows;
  const next: NextChanges = { tables: new Set(), upper: null, hasMore: rows.some((r) => r.more) };
  for (const { t, s } of rows) {
    if (s === null) continue; // only the change after the page is of this table
    next.tables.add(t);
    if (next.upper === null || BigInt(s) > BigInt(next.upper)) next.upper = s;
  }
  return next;
}
