import { and, asc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ClientFile,
  QueuePage,
  QueueQuery,
  QueueRefund as QueueRefundSchema,
  QueueRequest as QueueRequestSchema,
  queueTabStatus,
  RequestFile,
  TeamMember,
  type QueueItem,
  type QueueTab,
  type RequestTab,
} from '../../domain/staff.ts';
import { dollarsFromCents, dollarsOrNull } from '../../domain/money.ts';
import { queueTabs } from '../../domain/queue-tabs.ts';
import { envelope } from '../../domain/schemas.ts';
import type { Db } from '../db/client.ts';
import { contactRequests, files, productRequests, refunds, users } from '../db/schema.ts';
import { HttpError, notFound } from '../platform/errors.ts';
import { clientName, leftToPayCents } from '../serialize/rows.ts';
import { clientFile, isAwaitingReply, isLead, isUndecidedRefund, queueCounts, requestFile } from '../services/staff-pages.ts';
import { createSignedLinks } from '../files/signed-links.ts';
import { UUID, sendStoredFile } from '../files/storage.ts';
import { recordWatch } from '../services/watches.ts';

/** PostgreSQL text cannot hold a NUL character: refused here, it would otherwise be a database error. */
const noNul = (name: string) => [(v: string) => !v.includes('\0'), `${name} must not contain a NUL character`] as const;

const ClientParams = z.object({ uid: z.string().min(1, 'uid is required').max(128, 'uid must be at most 128 characters').refine(...noNul('uid')) });
const RequestParams = z.object({ requestId: z.string().max(100, 'requestId must be at most 100 characters') });
const FileParams = z.object({ fileId: z.string().max(100, 'fileId must be at most 100 characters') });
const LookupQuery = z.strictObject({
  email: z
    .string({ error: 'email is required' })
    .trim()
    .min(1, 'email is required')
    .max(254, 'email must be at most 254 characters')
    .refine(...noNul('email')),
});

type QueueRequest = z.infer<typeof QueueRequestSchema>;
type QueueRefund = z.infer<typeof QueueRefundSchema>;

/**
 * Staff workspace reads: queue, client page, request page, team, file download (docs/api.md, "Staff").
 * Everything here is read-only; the writes live in staff-actions.ts.
 */
export async function staffReadRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const staff = { onRequest: app.requireStaff };
  const admin = { onRequest: app.requireAdmin };
  const links = createSignedLinks(app.config.downloadSecret);

  api.get(
    '/staff/queue',
    {
      ...staff,
      schema: { tags: ['staff'], summary: 'One queue tab, oldest first (threads: the longest wait first), paged by an opaque cursor; counts for every tab', querystring: QueueQuery, response: { 200: envelope(QueuePage) } },
    },
    async (request) => ({ data: await queuePage(app.db, request.query) }),
  );

  api.get(
    '/staff/clients/:uid',
    { ...staff, schema: { tags: ['staff'], summary: "A client's whole file", params: ClientParams, response: { 200: envelope(ClientFile) } } },
    async (request) => {
      const file = await clientFile(app.db, links, request.params.uid);
      // Opened pages stay in this staff member's offline replica (server/services/watches.ts); a 404 opened nothing.
      await recordWatch(app.db, { staffUid: request.user.uid, kind: 'client', entityId: file.client.uid, subjectUid: file.client.uid });
      return { data: file };
    },
  );

  api.get(
    '/staff/requests/:requestId',
    { ...staff, schema: { tags: ['staff'], summary: "A request's whole file and the actions allowed on it now", params: RequestParams, response: { 200: envelope(RequestFile) } } },
    async (request) => {
      const file = await requestFile(app.db, links, request.params.requestId);
      await recordWatch(app.db, { staffUid: request.user.uid, kind: 'request', entityId: file.request.id, subjectUid: file.client.uid });
      return { data: file };
    },
  );

  api.get(
    '/staff/files/:fileId',
    { ...staff, schema: { tags: ['staff'], summary: 'Downloads any stored file (evidence, final report, invoice, general file)', params: FileParams } },
    async (request, reply) => {
      const { fileId } = request.params;
      if (!UUID.test(fileId)) throw notFound('File not found');
      const [row] = await app.db.select().from(files).where(eq(files.id, fileId));
      if (!row) throw notFound('File not found');
      return sendStoredFile(app, reply, row);
    },
  );

  api.get(
    '/staff/team',
    { ...admin, schema: { tags: ['staff'], summary: 'Every staff member and admin, by email (admins only)', response: { 200: envelope(z.array(TeamMember)) } } },
    async () => {
      const rows = await app.db
        .select()
        .from(users)
        .where(or(eq(users.isStaff, true), eq(users.isAdmin, true)))
        .orderBy(asc(users.email), asc(users.uid));
      return { data: rows.map(toTeamMember) };
    },
  );

  api.get(
    '/staff/users/lookup',
    { ...admin, schema: { tags: ['staff'], summary: 'Finds a user by email (any case), to grant the staff role (admins only)', querystring: LookupQuery, response: { 200: envelope(TeamMember) } } },
    async (request) => {
      const { email } = request.query;
      const [row] = await app.db
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = lower(${email})`)
        .orderBy(asc(users.uid))
        .limit(1);
      if (!row) throw notFound(`No user with the email ${email}`);
      return { data: toTeamMember(row) };
    },
  );
}

function toTeamMember(row: typeof users.$inferSelect): z.infer<typeof TeamMember> {
  // Effective roles, as everywhere else: an admin is staff whatever is_staff says.
  return { uid: row.uid, email: row.email, name: clientName(row), isAdmin: row.isAdmin, isStaff: row.isStaff || row.isAdmin, version: row.version };
}

// ---- queue ----

/**
 * The last row of a page: its tab, its sort time in microseconds since the epoch (exact, unlike a JS
 * Date) and id. The sort time is created_at, except on the threads tab where it is awaiting_since.
 */
const Cursor = z.strictObject({
  tab: z.enum(queueTabs),
  at: z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
  id: z.string().min(1).max(128).refine(...noNul('id')),
});
type Cursor = z.infer<typeof Cursor>;

const badCursor = (why: string) => new HttpError(400, 'BAD_CURSOR', `cursor is not valid (${why}); start again from the first page`);

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/** Reads a cursor this API made; anything else is a 400, never a database error. */
function decodeCursor(raw: string, tab: QueueTab): Cursor {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw badCursor('not a cursor this API made');
  }
  const parsed = Cursor.safeParse(json);
  if (!parsed.success) throw badCursor('not a cursor this API made');
  if (parsed.data.tab !== tab) throw badCursor(`it belongs to the ${parsed.data.tab} tab`);
  if (tab !== 'leads' && !UUID.test(parsed.data.id)) throw badCursor('not a cursor this API made');
  return parsed.data;
}

/** LIKE's wildcards in what staff typed are literal characters. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A timestamp as exact microseconds since the epoch (numeric extract, so no float rounding). */
const microsOf = (column: PgColumn) =>
  sql<string>`((extract(epoch from ${column}) * 1000000)::bigint)::text`;

/** "(sort time, id) after the cursor": a row comparison the (…, sort time, id) index answers directly. */
function after(time: PgColumn, id: PgColumn, cursor: Cursor, idType: 'text' | 'uuid'): SQL {
  const at = sql`(timestamptz 'epoch' + ${cursor.at}::bigint * interval '1 microsecond')`;
  const key = idType === 'uuid' ? sql`${cursor.id}::uuid` : sql`${cursor.id}::text`;
  return sql`(${time}, ${id}) > (${at}, ${key})`;
}

/**
 * Who matches a search: a UUID is an exact uid or an exact id of the tab's rows (a request, a thread, a
 * refund or its request); any text is an exact uid (Firebase uids are not UUIDs) or a case-insensitive
 * piece of the email or of "first last" (which covers either name).
 */
function userSearch(q: string, ...ids: PgColumn[]): SQL | undefined {
  if (UUID.test(q)) return or(eq(users.uid, q), ...ids.map((id) => eq(id, q.toLowerCase())));
  const pattern = `%${escapeLike(q)}%`;
  return or(eq(users.uid, q), ilike(users.email, pattern), ilike(sql`concat_ws(' ', ${users.firstName}, ${users.lastName})`, pattern));
}


async function queuePage(db: Db, query: QueueQuery): Promise<QueuePage> {
  if (query.q?.includes('\0')) throw new HttpError(400, 'VALIDATION_FAILED', noNul('q')[1]);
  const cursor = query.cursor ? decodeCursor(query.cursor, query.tab) : undefined;
  const q = query.q?.trim() || undefined;
  const [counts, page] = await Promise.all([queueCounts(db), tabRows(db, query.tab, { q, cursor, limit: query.limit })]);
  return { tab: query.tab, counts, ...page };
}

function tabRows(db: Db, tab: QueueTab, args: PageArgs) {
  switch (tab) {
    case 'leads':
      return leadRows(db, args);
    case 'threads':
      return threadRows(db, args);
    case 'refunds':
      return refundRows(db, args);
    default:
      return requestRows(db, tab, args);
  }
}

interface PageArgs {
  q: string | undefined;
  cursor: Cursor | undefined;
  limit: number;
}

/** One more row than asked tells whether there is a next page, with no COUNT and no OFFSET. */
function finishPage<Row>(rows: Row[], limit: number, tab: QueueTab, toItem: (row: Row) => QueueItem, last: (row: Row) => { at: string; id: string }) {
  const items = rows.slice(0, limit);
  const tail = rows.length > limit ? last(items[items.length - 1]) : null;
  return { items: items.map(toItem), nextCursor: tail ? encodeCursor({ tab, at: Number(tail.at), id: tail.id }) : null };
}

async function leadRows(db: Db, { q, cursor, limit }: PageArgs) {
  const rows = await db
    .select({ uid: users.uid, email: users.email, firstName: users.firstName, lastName: users.lastName, createdAt: users.createdAt, filledInitialForm: users.filledInitialForm, at: microsOf(users.createdAt) })
    .from(users)
    .where(and(isLead, cursor ? after(users.createdAt, users.uid, cursor, 'text') : undefined, q ? userSearch(q) : undefined))
    .orderBy(asc(users.createdAt), asc(users.uid))
    .limit(limit + 1);
  return finishPage(
    rows,
    limit,
    'leads',
    (row): QueueItem => ({ kind: 'lead', uid: row.uid, email: row.email, name: clientName(row), createdAt: iso(row.createdAt), filledInitialForm: row.filledInitialForm }),
    (row) => ({ at: row.at, id: row.uid }),
  );
}

async function requestRows(db: Db, tab: RequestTab, { q, cursor, limit }: PageArgs) {
  const r = productRequests;
  const rows = await db
    .select({
      id: r.id,
      toolId: r.toolId,
      productRequestType: r.productRequestType,
      status: r.status,
      createdAt: r.createdAt,
      totalCents: r.totalCents,
      paidCents: r.paidCents,
      at: microsOf(r.createdAt),
      uid: users.uid,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(r)
    .innerJoin(users, eq(users.uid, r.userId))
    .where(and(eq(r.status, queueTabStatus[tab]), cursor ? after(r.createdAt, r.id, cursor, 'uuid') : undefined, q ? userSearch(q, r.id) : undefined))
    .orderBy(asc(r.createdAt), asc(r.id))
    .limit(limit + 1);
  return finishPage(
    rows,
    limit,
    tab,
    (row): QueueItem => ({
      kind: 'request',
      id: row.id,
      toolId: row.toolId,
      productRequestType: row.productRequestType as QueueRequest['productRequestType'],
      status: row.status as QueueRequest['status'],
      createdAt: iso(row.createdAt),
      totalAmount: dollarsOrNull(row.totalCents),
      paid: dollarsFromCents(row.paidCents),
      leftToPay: dollarsOrNull(leftToPayCents(row)),
      client: { uid: row.uid, email: row.email, name: clientName(row) },
    }),
    (row) => ({ at: row.at, id: row.id }),
  );
}

/** Threads awaiting our reply, the longest wait first: the contact_requests_awaiting partial index, in order. */
async function threadRows(db: Db, { q, cursor, limit }: PageArgs) {
  const c = contactRequests;
  const rows = await db
    .select({
      id: c.id,
      subject: c.subject,
      // Never null here (the WHERE below); the type cannot say so.
      awaitingSince: sql<string>`${c.awaitingSince}`.mapWith(c.awaitingSince),
      at: microsOf(c.awaitingSince),
      uid: users.uid,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(c)
    .innerJoin(users, eq(users.uid, c.userId))
    .where(and(isAwaitingReply, cursor ? after(c.awaitingSince, c.id, cursor, 'uuid') : undefined, q ? userSearch(q, c.id) : undefined))
    .orderBy(asc(c.awaitingSince), asc(c.id))
    .limit(limit + 1);
  return finishPage(
    rows,
    limit,
    'threads',
    (row): QueueItem => ({ kind: 'thread', id: row.id, subject: row.subject, awaitingSince: iso(row.awaitingSince), client: { uid: row.uid, email: row.email, name: clientName(row) } }),
    (row) => ({ at: row.at, id: row.id }),
  );
}

/** Refunds to decide, oldest first (refunds_queue), with what was paid on the request: the most one can return. */
async function refundRows(db: Db, { q, cursor, limit }: PageArgs) {
  const f = refunds;
  const rows = await db
    .select({
      id: f.id,
      requestId: f.requestId,
      productRequestType: productRequests.productRequestType,
      refundRequestType: f.refundRequestType,
      reason: f.reason,
      createdAt: f.createdAt,
      paidCents: productRequests.paidCents,
      at: microsOf(f.createdAt),
      uid: users.uid,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(f)
    .innerJoin(productRequests, eq(productRequests.id, f.requestId))
    .innerJoin(users, eq(users.uid, f.userId))
    .where(and(isUndecidedRefund, cursor ? after(f.createdAt, f.id, cursor, 'uuid') : undefined, q ? userSearch(q, f.id, f.requestId) : undefined))
    .orderBy(asc(f.createdAt), asc(f.id))
    .limit(limit + 1);
  return finishPage(
    rows,
    limit,
    'refunds',
    (row): QueueItem => ({
      kind: 'refund',
      id: row.id,
      requestId: row.requestId,
      productRequestType: row.productRequestType as QueueRefund['productRequestType'],
      refundRequestType: row.refundRequestType as QueueRefund['refundRequestType'],
      reason: row.reason,
      createdAt: iso(row.createdAt),
      paid: dollarsFromCents(row.paidCents),
      client: { uid: row.uid, email: row.email, name: clientName(row) },
    }),
    (row) => ({ at: row.at, id: row.id }),
  );
}

const iso = (value: string) => new Date(value).toISOString();
