import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ClientExport } from '../../domain/client-export.ts';
import { dollarsFromCents } from '../../domain/money.ts';
import { contactReplies, contactRequests, deals, files, notifications, productRequests, refunds, sessions, users } from '../db/schema.ts';
import { notFound } from '../platform/errors.ts';
import { isoTime } from '../platform/iso-time.ts';
import { requestExtras } from '../serialize/request-extras.ts';
import { toContactReply, toContactRequest, toNotification, toUserFile } from '../serialize/messages.ts';
import { toProfile, toRefund, toRequest } from '../serialize/rows.ts';
import { writeAudit } from './audit.ts';

/**
 * A client's data as one document, for staff (admins too) whose session verified its second factor within the
 * step-up window (the route's guard). What is read and the audit row that says who exported it commit together, in
 * one repeatable-read transaction: the document is one moment's state, and there is no export without its record.
 *
 * Internal notes are left out on purpose: they are staff's own record about the client, which no client route or feed
 * ever carries (docs/decisions/009), and an export is the client's data, one a client may be handed. The audit history,
 * tracking links and their visits (third parties' addresses), push subscriptions and second factors are left out too.
 */
export async function exportClientData(app: FastifyInstance, request: FastifyRequest, uid: string): Promise<ClientExport> {
  const actor = { uid: request.user.uid, email: request.user.email };
  return app.db.transaction(
    async (tx) => {
      const [user] = await tx.select().from(users).where(eq(users.uid, uid));
      if (!user) throw notFound(`Client ${uid} not found`);
      const requestRows = await tx.select().from(productRequests).where(eq(productRequests.userId, uid)).orderBy(asc(productRequests.createdAt), asc(productRequests.id));
      const extras = await requestExtras(tx, uid, requestRows);
      const dealRows = await tx.select().from(deals).where(eq(deals.userId, uid)).orderBy(asc(deals.createdAt), asc(deals.id));
      const refundRows = await tx.select().from(refunds).where(eq(refunds.userId, uid)).orderBy(asc(refunds.createdAt), asc(refunds.id));
      const threadRows = await tx.select().from(contactRequests).where(eq(contactRequests.userId, uid)).orderBy(asc(contactRequests.createdAt), asc(contactRequests.id));
      const replyRows = await tx.select().from(contactReplies).where(eq(contactReplies.userId, uid)).orderBy(asc(contactReplies.createdAt), asc(contactReplies.seq));
      // Only the notifications addressed to this client: general ones (user_id null) are everyone's, not theirs.
      const notificationRows = await tx.select().from(notifications).where(eq(notifications.userId, uid)).orderBy(asc(notifications.createdAt), asc(notifications.id));
      const fileRows = await tx.select().from(files).where(eq(files.userId, uid)).orderBy(asc(files.createdAt), asc(files.id));
      const sessionRows = await tx
        .select({ browser: sessions.browser, os: sessions.os, place: sessions.place, firstSeenAt: sessions.firstSeenAt, lastSeenAt: sessions.lastSeenAt, endedAt: sessions.endedAt })
        .from(sessions)
        .where(eq(sessions.uid, uid))
        .orderBy(asc(sessions.firstSeenAt));

      const document: ClientExport = {
        exportedAt: new Date().toISOString(),
        client: { ...toProfile(user), phone: user.phone, country: user.country, disabled: user.disabledAt !== null },
        requests: requestRows.map((row) => {
          const extra = extras.get(row.id);
          return {
            ...withoutCommandId(toRequest(row, extra)),
            statusHistory: extra?.statusHistory ?? [],
            // The invoice's signed link is a capability: the export names the invoice by its number only.
            payments: dealRows
              .filter((d) => d.requestId === row.id)
              .map((d) => ({ id: d.id, amount: dollarsFromCents(d.amountCents), method: d.method, reference: d.reference, paidAt: d.paidAt, invoiceNumber: d.invoiceNumber, recordedAt: isoTime(d.createdAt) })),
            refunds: refundRows.filter((r) => r.requestId === row.id).map((r) => withoutCommandId(toRefund(r))),
          };
        }),
        threads: threadRows.map((row) => ({ ...withoutCommandId(toContactRequest(row)), replies: replyRows.filter((r) => r.threadId === row.id).map((r) => withoutCommandId(toContactReply(r))) })),
        notifications: notificationRows.map(toNotification),
        files: fileRows.map((row) => ({ ...toUserFile(row), kind: row.kind, requestId: row.requestId })),
        sessions: sessionRows.map((s) => ({ ...s, firstSeenAt: isoTime(s.firstSeenAt), lastSeenAt: isoTime(s.lastSeenAt), endedAt: s.endedAt ? isoTime(s.endedAt) : null })),
      };
      await writeAudit(tx, {
        actor,
        action: 'client-data-exported',
        entityType: 'user',
        entityId: uid,
        subjectUid: uid,
        before: null,
        after: { requests: document.requests.length, threads: document.threads.length, files: document.files.length },
      });
      return document;
    },
    { isolationLevel: 'repeatable read' },
  );
}

/** The Idempotency-Key a row was written with is the sender's bookkeeping, not the client's data. */
function withoutCommandId<T extends { commandId?: string }>(row: T): Omit<T, 'commandId'> {
  const { commandId: _commandId, ...rest } = row;
  return rest;
}
