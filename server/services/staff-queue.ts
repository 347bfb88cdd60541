import { and, asc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { dollarsFromCents, dollarsOrNull } from '../../domain/money.ts';
import { queueTabs } from '../../domain/queue-tabs.ts';
import {
  type QueueItem,
  type QueuePage,
  type QueueQuery,
  type QueueRefund as QueueRefundSchema,
  type QueueRequest as QueueRequestSchema,
  type QueueTab,
  queueTabStatus,
  type RequestTab,
} from '../../domain/staff.ts';
import type { Db } from '../db/client.ts';
import { contactRequests, productRequests, refunds, users } from '../db/schema.ts';
import { UUID } from '../files/storage.ts';
import { HttpError } from '../platform/errors.ts';
import { clientName, leftToPayCents } from '../serialize/rows.ts';
import { iso } from '../serialize/messages.ts';
import { isAwaitingReply, isLead, isUndecidedRefund, queueCounts } from './staff-pages.ts';

/**
 * The staff queue: one tab, oldest first (threads: the longest wait first), paged by an opaque cursor with no
 * COUNT and no OFFSET, searched by uid, id, email or name, with the counts of every tab.
 */

/** PostgreSQL text cannot hold a NUL character: refused here, it would otherwise be a database error. */
export const noNul = (name: string) => [(v: string) => !v.includes('\0'), `${name} must not contain a NUL character`] as const;

type QueueRequest = z.infer<typeof QueueRequestSchema>;
type QueueRefund = z.infer<typeof QueueRefundSchema>;

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

export async function queuePage(db: Db, query: QueueQuery): Promise<QueuePage> {
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

