import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope } from '../../domain/schemas.ts';
import { type ClientFile, type RequestFile, STAFF_WATCH_DAYS, StaffSyncPage, StaffSyncQuery } from '../../domain/staff.ts';
import type { Db } from '../db/client.ts';
import { HttpError } from '../platform/errors.ts';
import { createSignedLinks, type SignedLinks } from '../files/signed-links.ts';
import { clientFile, queueCounts, requestFile } from '../services/staff-pages.ts';

/** A client this staff member watches, with the number of its latest change (as text: int8). */
interface ChangedClient {
  uid: string;
  change: string;
}

/** One of this staff member's live watches. */
interface Watch {
  kind: 'client' | 'request';
  entityId: string;
  subjectUid: string;
}

/**
 * GET /api/staff/sync?cursor=&limit=: the staff workspace's offline replica feed. It carries the
 * whole files of the client and request pages this staff member opened in the last STAFF_WATCH_DAYS
 * days, for each client whose change number is above the cursor, oldest change first, at most
 * `limit` clients; plus the queue counts and the ids still kept. A client's change number is the
 * highest seq among its own rows and this staff member's watches on it; seq is drawn in commit order,
 * so "change number > cursor" never skips a change (docs/decisions/008-staff-feed.md).
 */
export async function staffSyncRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const links = createSignedLinks(app.config.downloadSecret);

  api.get(
    '/staff/sync',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: "The staff member's offline replica: files of the pages they opened lately that changed after the cursor",
        querystring: StaffSyncQuery,
        response: { 200: envelope(StaffSyncPage) },
      },
    },
    async (request, reply) => {
      const staffUid = request.user.uid;
      const { cursor, limit } = request.query;
      reply.header('cache-control', 'no-store');

      // Change numbers first, watches second: a watch made between the two is then in the list the
      // files are built from. The other order could move the cursor past a client whose new watch was
      // not read, and that page would never reach the replica.
      const changed = await changedClients(app.db, staffUid, cursor, limit + 1);
      const [watches, counts] = await Promise.all([liveWatches(app.db, staffUid), queueCounts(app.db)]);
      const taken = changed.slice(0, limit);
      const page: StaffSyncPage = {
        cursor: taken.length > 0 ? taken[taken.length - 1].change : cursor,
        hasMore: changed.length > limit,
        counts,
        clients: [],
        requests: [],
        keep: keepList(watches),
      };
      // One client at a time: a full page is up to 100 files of about ten queries each, which at once
      // would take every pooled connection from the other requests.
      for (const { uid } of taken) {
        const files = await filesOf(app.db, links, uid, watches);
        page.clients.push(...files.clients);
        page.requests.push(...files.requests);
      }
      return { data: page };
    },
  );
}

const windowStart = sql`now() - make_interval(days => ${STAFF_WATCH_DAYS})`;

/**
 * The next `n` watched clients whose change number is above the cursor, lowest first. Per client,
 * every term is a max(seq) on a (user, seq) index, so the cost grows with the number of clients
 * watched, not with their history. GREATEST skips the NULLs of tables where the client has no row.
 * Notifications count only those addressed to the client: general ones are not in a client file.
 * Tracking links count: a captured visit bumps its link's counters, which moves the link's seq, so a
 * watched request page gets its new visits (visits carry no seq of their own).
 */
async function changedClients(db: Db, staffUid: string, cursor: string, n: number): Promise<ChangedClient[]> {
  const newest = (table: string, column: string) => sql`(SELECT max(seq) FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)} = w.subject_uid)`;
  const result = await db.execute(sql`
    SELECT subject_uid AS uid, change::text AS change FROM (
      SELECT w.subject_uid, GREATEST(
        w.seq,
        ${newest('users', 'uid')},
        ${newest('product_requests', 'user_id')},
        ${newest('deals', 'user_id')},
        ${newest('refunds', 'user_id')},
        ${newest('notifications', 'user_id')},
        ${newest('contact_requests', 'user_id')},
        ${newest('contact_replies', 'user_id')},
        ${newest('files', 'user_id')},
        ${newest('tracking_links', 'user_id')},
        ${newest('staff_notes', 'subject_uid')}
      ) AS change
      FROM (
        SELECT subject_uid, max(seq) AS seq FROM staff_watches
        WHERE staff_uid = ${staffUid} AND opened_at > ${windowStart}
        GROUP BY subject_uid
      ) AS w
    ) AS clients
    WHERE change > ${cursor}::bigint
    ORDER BY change
    LIMIT ${n}
  `);
  return (result as unknown as { rows: ChangedClient[] }).rows;
}

async function liveWatches(db: Db, staffUid: string): Promise<Watch[]> {
  const result = await db.execute(sql`
    SELECT kind, entity_id AS "entityId", subject_uid AS "subjectUid" FROM staff_watches
    WHERE staff_uid = ${staffUid} AND opened_at > ${windowStart}
    ORDER BY kind, entity_id
  `);
  return (result as unknown as { rows: Watch[] }).rows;
}

function keepList(watches: Watch[]): StaffSyncPage['keep'] {
  const ids = (kind: Watch['kind']) => watches.filter((w) => w.kind === kind).map((w) => w.entityId);
  return { clients: ids('client'), requests: ids('request') };
}

/** The files this staff member keeps of one client: the client file if its page was opened, and each opened request's. */
async function filesOf(db: Db, links: SignedLinks, uid: string, watches: Watch[]): Promise<{ clients: ClientFile[]; requests: RequestFile[] }> {
  const mine = watches.filter((w) => w.subjectUid === uid);
  const [clients, requests] = await Promise.all([
    Promise.all(mine.filter((w) => w.kind === 'client').map((w) => orSkip(clientFile(db, links, w.entityId)))),
    Promise.all(mine.filter((w) => w.kind === 'request').map((w) => orSkip(requestFile(db, links, w.entityId)))),
  ]);
  return { clients: clients.filter((f) => f !== null), requests: requests.filter((f) => f !== null) };
}

/** A watched page whose record is gone is left out rather than failing the whole feed. */
async function orSkip<T>(file: Promise<T>): Promise<T | null> {
  try {
    return await file;
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 404) return null;
    throw err;
  }
}
