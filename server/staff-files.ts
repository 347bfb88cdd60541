import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { allowedActions } from '../domain/lifecycle.ts';
import { type ClientFile, queueTabs, queueTabStatus, type QueueTab, type RequestFile } from '../domain/staff.ts';
import { clientHistory, requestHistory } from './audit.ts';
import type { Db } from './db/client.ts';
import { contactRequests, deals, files, notifications, productRequests, refunds, users } from './db/schema.ts';
import { notFound } from './errors.ts';
import { toContactRequest, toNotification, toUserFile } from './serialize-messages.ts';
import { clientName, toRefund, toStaffClient, toStaffDeal, toStaffFile, toStaffRequest } from './serialize.ts';
import type { SignedLinks } from './signed-links.ts';
import { UUID } from './storage.ts';

/**
 * What a staff page shows, built from the database: the queue counts, a client's whole file, a
 * request's whole file. The staff read routes answer them, and the staff feed (routes/staff-sync.ts)
 * sends the same objects to the offline replica, so a page reads the same online and offline.
 */

/** A lead: signed up, not approved as a client, and not on the team. */
export const isLead = and(eq(users.isClient, false), eq(users.isStaff, false), eq(users.isAdmin, false));

/**
 * Every tab's size, unfiltered by the search, in one statement. One COUNT per tab rather than one
 * COUNT … GROUP BY status: each reads only its own slice of the queue indexes, where the grouped form
 * reads the whole table, Rejected included (at 50,000 requests about twice as slow on PGlite, about
 * the same on PostgreSQL; bench/README.md).
 */
export async function queueCounts(db: Db): Promise<Record<QueueTab, number>> {
  const countOf = (tab: QueueTab) =>
    tab === 'leads'
      ? sql`(SELECT count(*) FROM ${users} WHERE ${isLead})::int AS ${sql.identifier(tab)}`
      : sql`(SELECT count(*) FROM ${productRequests} WHERE ${eq(productRequests.status, queueTabStatus[tab])})::int AS ${sql.identifier(tab)}`;
  const result = await db.execute(sql`SELECT ${sql.join(queueTabs.map(countOf), sql`, `)}`);
  const [row] = (result as unknown as { rows: Record<QueueTab, number | string>[] }).rows;
  return Object.fromEntries(queueTabs.map((tab) => [tab, Number(row[tab])])) as Record<QueueTab, number>;
}

export async function clientFile(db: Db, links: SignedLinks, uid: string): Promise<ClientFile> {
  const [user] = await db.select().from(users).where(eq(users.uid, uid));
  if (!user) throw notFound(`Client ${uid} not found`);
  const [requestRows, fileRows, dealRows, refundRows, contactRows, notificationRows, history] = await Promise.all([
    db.select().from(productRequests).where(eq(productRequests.userId, uid)).orderBy(desc(productRequests.createdAt), desc(productRequests.id)),
    db.select().from(files).where(and(eq(files.userId, uid), inArray(files.kind, ['attachment', 'general']))).orderBy(desc(files.createdAt), desc(files.id)),
    db.select().from(deals).where(eq(deals.userId, uid)).orderBy(desc(deals.createdAt), desc(deals.id)),
    db.select().from(refunds).where(eq(refunds.userId, uid)).orderBy(desc(refunds.createdAt), desc(refunds.id)),
    db.select().from(contactRequests).where(eq(contactRequests.userId, uid)).orderBy(desc(contactRequests.createdAt), desc(contactRequests.id)),
    db.select().from(notifications).where(eq(notifications.userId, uid)).orderBy(desc(notifications.createdAt), desc(notifications.id)),
    clientHistory(db, uid),
  ]);
  return {
    client: toStaffClient(user),
    requests: requestRows.map(toStaffRequest),
    evidence: fileRows.flatMap((f) => (f.kind === 'attachment' && f.requestId !== null ? [{ ...toStaffFile(f), requestId: f.requestId }] : [])),
    deals: dealRows.map((d) => toStaffDeal(d, links)),
    refunds: refundRows.map(toRefund),
    contactRequests: contactRows.map(toContactRequest),
    files: fileRows.filter((f) => f.kind === 'general').map(toUserFile),
    notifications: notificationRows.map(toNotification),
    history,
  };
}

export async function requestFile(db: Db, links: SignedLinks, requestId: string): Promise<RequestFile> {
  if (!UUID.test(requestId)) throw notFound('Request not found');
  const [row] = await db.select().from(productRequests).where(eq(productRequests.id, requestId));
  if (!row) throw notFound('Request not found');
  const [[owner], fileRows, dealRows, refundRows, history] = await Promise.all([
    db.select().from(users).where(eq(users.uid, row.userId)),
    db.select().from(files).where(and(eq(files.requestId, row.id), inArray(files.kind, ['attachment', 'final']))).orderBy(desc(files.createdAt), desc(files.id)),
    db.select().from(deals).where(eq(deals.requestId, row.id)).orderBy(desc(deals.createdAt), desc(deals.id)),
    db.select().from(refunds).where(eq(refunds.requestId, row.id)).orderBy(desc(refunds.createdAt), desc(refunds.id)),
    requestHistory(db, row.id),
  ]);
  const request = toStaffRequest(row);
  return {
    request,
    client: { uid: owner.uid, email: owner.email, name: clientName(owner) },
    // Evidence in the order it was attached; final files newest first.
    evidence: fileRows.filter((f) => f.kind === 'attachment').reverse().map(toStaffFile),
    finalFiles: fileRows.filter((f) => f.kind === 'final').map(toStaffFile),
    deals: dealRows.map((d) => toStaffDeal(d, links)),
    refunds: refundRows.map(toRefund),
    history,
    allowedActions: allowedActions({ status: request.status, hasFinalFile: row.finalFileId !== null, contractSigned: row.contractSigned, leftToPay: request.leftToPay }),
  };
}

const iso = (value: string) => new Date(value).toISOString();
