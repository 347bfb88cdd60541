import { and, asc, desc, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { cents } from '../../domain/money.ts';
import { allowedActions } from '../../domain/lifecycle.ts';
import { queueTabs } from '../../domain/queue-tabs.ts';
import { type ClientFile, queueTabStatus, type QueueTab, type RequestFile, type RequestTab, type StaffThread } from '../../domain/staff.ts';
import { clientHistory, requestHistory } from './audit.ts';
import type { Db } from '../db/client.ts';
import { contactReplies, contactRequests, deals, files, notifications, productRequests, refunds, staffNotes, userPresence, users, visits } from '../db/schema.ts';
import { notFound } from '../platform/errors.ts';
import { toNotification, toStaffNote, toStaffThread, toUserFile } from '../serialize/messages.ts';
import { clientName, toStaffClient, toStaffDeal, toStaffFile, toStaffRefund, toStaffRequest, toVisit } from '../serialize/rows.ts';
import { linksOfRequest, toStaffTrackingLink } from '../tracking/links.ts';
import type { SignedLinks } from '../files/signed-links.ts';
import { UUID } from '../files/storage.ts';
import { lifecycleState } from './request-lifecycle.ts';
import { recordWatch } from './watches.ts';

/**
 * What a staff page shows, built from the database: the queue counts, a client's whole file, a
 * request's whole file. The staff read routes answer them, and the staff feed (routes/staff-sync.ts)
 * sends the same objects to the offline replica, so a page reads the same online and offline.
 */

/** A lead: signed up, not approved as a client, and not on the team. */
export const isLead = and(eq(users.isClient, false), eq(users.isStaff, false), eq(users.isAdmin, false));

/** A thread waits for our reply from the client's last message until staff answer or close it. */
export const isAwaitingReply = isNotNull(contactRequests.awaitingSince);
/** A refund waits for a decision until staff approve or decline it. */
export const isUndecidedRefund = eq(refunds.status, 'requested');

/**
 * Every tab's size, unfiltered by the search, in one statement. One COUNT per tab rather than one
 * COUNT … GROUP BY status: each reads only its own slice of the queue indexes, where the grouped form
 * reads the whole table, Rejected included (at 50,000 requests about twice as slow on PGlite, about
 * the same on PostgreSQL; bench/README.md). Threads and refunds read their own partial/queue index.
 */
export async function queueCounts(db: Db): Promise<Record<QueueTab, number>> {
  const countOf = (tab: QueueTab) => sql`(${tabCount(tab)})::int AS ${sql.identifier(tab)}`;
  const result = await db.execute(sql`SELECT ${sql.join(queueTabs.map(countOf), sql`, `)}`);
  const [row] = (result as unknown as { rows: Record<QueueTab, number | string>[] }).rows;
  return Object.fromEntries(queueTabs.map((tab) => [tab, Number(row[tab])])) as Record<QueueTab, number>;
}

function tabCount(tab: QueueTab): SQL {
  switch (tab) {
    case 'leads':
      return sql`SELECT count(*) FROM ${users} WHERE ${isLead}`;
    case 'threads':
      return sql`SELECT count(*) FROM ${contactRequests} WHERE ${isAwaitingReply}`;
    case 'refunds':
      return sql`SELECT count(*) FROM ${refunds} WHERE ${isUndecidedRefund}`;
    default:
      return requestTabCount(tab);
  }
}

function requestTabCount(tab: RequestTab): SQL {
  return sql`SELECT count(*) FROM ${productRequests} WHERE ${eq(productRequests.status, queueTabStatus[tab])}`;
}

export async function clientFile(db: Db, links: SignedLinks, uid: string): Promise<ClientFile> {
  // Presence is kept beside the users row (schema.ts userPresence); the staff page shows it with the profile.
  const [found] = await db
    .select({ user: users, presence: userPresence.status })
    .from(users)
    .leftJoin(userPresence, eq(userPresence.uid, users.uid))
    .where(eq(users.uid, uid));
  if (!found) throw notFound(`Client ${uid} not found`);
  const { user } = found;
  const [requestRows, fileRows, dealRows, refundRows, threads, notificationRows, noteRows, history] = await Promise.all([
    db.select().from(productRequests).where(eq(productRequests.userId, uid)).orderBy(desc(productRequests.createdAt), desc(productRequests.id)),
    db.select().from(files).where(and(eq(files.userId, uid), inArray(files.kind, ['attachment', 'general']))).orderBy(desc(files.createdAt), desc(files.id)),
    db.select().from(deals).where(eq(deals.userId, uid)).orderBy(desc(deals.createdAt), desc(deals.id)),
    db.select().from(refunds).where(eq(refunds.userId, uid)).orderBy(desc(refunds.createdAt), desc(refunds.id)),
    clientThreads(db, uid),
    db.select().from(notifications).where(eq(notifications.userId, uid)).orderBy(desc(notifications.createdAt), desc(notifications.id)),
    // Notes on the client and on any of their requests: a request note carries its owner as subject.
    db.select().from(staffNotes).where(eq(staffNotes.subjectUid, uid)).orderBy(desc(staffNotes.createdAt), desc(staffNotes.seq)),
    clientHistory(db, uid),
  ]);
  // A refund's request is one of the client's, already read: its `paid` needs no second query.
  const paidOf = new Map(requestRows.map((r) => [r.id, r.paidCents]));
  return {
    client: toStaffClient(user, found.presence),
    requests: requestRows.map(toStaffRequest),
    evidence: fileRows.flatMap((f) => (f.kind === 'attachment' && f.requestId !== null ? [{ ...toStaffFile(f), requestId: f.requestId }] : [])),
    deals: dealRows.map((d) => toStaffDeal(d, links)),
    refunds: refundRows.map((r) => toStaffRefund(r, paidOf.get(r.requestId) ?? cents(0))),
    threads,
    files: fileRows.filter((f) => f.kind === 'general').map(toUserFile),
    notifications: notificationRows.map(toNotification),
    notes: noteRows.map(toStaffNote),
    history,
  };
}

/**
 * The client's support threads, newest first, each with its replies oldest first. Two queries
 * whatever the number of threads: every reply of the client is read at once (contact_replies_user_seq)
 * and shared out by thread.
 */
async function clientThreads(db: Db, uid: string): Promise<StaffThread[]> {
  const [threadRows, replyRows] = await Promise.all([
    db.select().from(contactRequests).where(eq(contactRequests.userId, uid)).orderBy(desc(contactRequests.createdAt), desc(contactRequests.id)),
    // Replies written in one transaction share created_at; seq keeps them in commit order.
    db.select().from(contactReplies).where(eq(contactReplies.userId, uid)).orderBy(asc(contactReplies.createdAt), asc(contactReplies.seq)),
  ]);
  const byThread = new Map<string, typeof replyRows>();
  for (const reply of replyRows) {
    const list = byThread.get(reply.threadId);
    if (list) list.push(reply);
    else byThread.set(reply.threadId, [reply]);
  }
  return threadRows.map((row) => toStaffThread(row, byThread.get(row.id) ?? []));
}

/** One thread with its replies oldest first, as the support routes answer it. */
export async function staffThread(db: Db, row: typeof contactRequests.$inferSelect): Promise<StaffThread> {
  const replies = await db.select().from(contactReplies).where(eq(contactReplies.threadId, row.id)).orderBy(asc(contactReplies.createdAt), asc(contactReplies.seq));
  return toStaffThread(row, replies);
}

export async function requestFile(db: Db, links: SignedLinks, requestId: string): Promise<RequestFile> {
  if (!UUID.test(requestId)) throw notFound('Request not found');
  const [row] = await db.select().from(productRequests).where(eq(productRequests.id, requestId));
  if (!row) throw notFound('Request not found');
  const [[owner], fileRows, dealRows, refundRows, noteRows, history, linkRows, visitRows] = await Promise.all([
    db.select().from(users).where(eq(users.uid, row.userId)),
    db.select().from(files).where(and(eq(files.requestId, row.id), inArray(files.kind, ['attachment', 'final']))).orderBy(desc(files.createdAt), desc(files.id)),
    db.select().from(deals).where(eq(deals.requestId, row.id)).orderBy(desc(deals.createdAt), desc(deals.id)),
    db.select().from(refunds).where(eq(refunds.requestId, row.id)).orderBy(desc(refunds.createdAt), desc(refunds.id)),
    db.select().from(staffNotes).where(eq(staffNotes.requestId, row.id)).orderBy(desc(staffNotes.createdAt), desc(staffNotes.seq)),
    requestHistory(db, row.id),
    // Track Master: staff see every link and every visit, previews included, whatever was paid.
    linksOfRequest(db, row.id),
    db.select().from(visits).where(eq(visits.requestId, row.id)).orderBy(desc(visits.time), desc(visits.id)),
  ]);
  const request = toStaffRequest(row);
  return {
    request,
    client: { uid: owner.uid, email: owner.email, name: clientName(owner) },
    // Evidence in the order it was attached; final files newest first.
    evidence: fileRows.filter((f) => f.kind === 'attachment').reverse().map(toStaffFile),
    finalFiles: fileRows.filter((f) => f.kind === 'final').map(toStaffFile),
    deals: dealRows.map((d) => toStaffDeal(d, links)),
    refunds: refundRows.map((r) => toStaffRefund(r, row.paidCents)),
    notes: noteRows.map(toStaffNote),
    trackingLinks: linkRows.map(toStaffTrackingLink),
    visits: visitRows.map(toVisit),
    history,
    allowedActions: allowedActions(lifecycleState(row)),
  };
}

/**
 * A client's file as a staff member opens it: the page is recorded (services/watches.ts), so it stays in their
 * offline replica; a 404 opens nothing.
 */
export async function openClientFile(db: Db, links: SignedLinks, staffUid: string, uid: string): Promise<ClientFile> {
  const file = await clientFile(db, links, uid);
  await recordWatch(db, { staffUid, kind: 'client', entityId: file.client.uid, subjectUid: file.client.uid });
  return file;
}

/** A request's file as a staff member opens it, recorded like a client's. */
export async function openRequestFile(db: Db, links: SignedLinks, staffUid: string, requestId: string): Promise<RequestFile> {
  const file = await requestFile(db, links, requestId);
  await recordWatch(db, { staffUid, kind: 'request', entityId: file.request.id, subjectUid: file.client.uid });
  return file;
}
