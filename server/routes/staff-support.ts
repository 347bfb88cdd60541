import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formatCents } from '../../domain/format.ts';
import { type Cents, cents, centsFromDollars, dollarsOrNull } from '../../domain/money.ts';
import { envelope, ReplyBody } from '../../domain/schemas.ts';
import { NoteBody, RefundDecisionBody, StaffNote, StaffRefund, StaffThread, ThreadStatusBody } from '../../domain/staff.ts';
import { requestName, toolByBackendName } from '../../domain/tools.ts';
import type { AuditRecord } from '../audit.ts';
import type { Db } from '../db/client.ts';
import { contactReplies, contactRequests, productRequests, refunds, staffNotes, users } from '../db/schema.ts';
import { conflict, notFound } from '../errors.ts';
import { commandIdConflict, commandIdOf, insertOnce, keyReused } from '../services/command-ids.ts';
import { toStaffNote } from '../serialize-messages.ts';
import { toStaffRefund } from '../serialize.ts';
import { staffThread } from '../staff-files.ts';
import { type Actor, lockRequest, type StaffChange, staffWrite, validation } from '../services/staff-write.ts';
import { UUID } from '../storage.ts';

type ThreadRow = typeof contactRequests.$inferSelect;
type RefundRow = typeof refunds.$inferSelect;
type RequestRow = typeof productRequests.$inferSelect;

const ThreadParams = z.strictObject({ threadId: z.string().max(100, 'threadId must be at most 100 characters') });
const RefundParams = z.strictObject({ refundId: z.string().max(100, 'refundId must be at most 100 characters') });

/** How much of a reply the audit row keeps: enough to recognise it; the reply itself is in contact_replies. */
const AUDIT_EXCERPT = 200;

/**
 * Staff support writes: replies to a client's thread, closing and reopening it, refund decisions, and
 * internal notes (docs/api.md, "Staff workspace"). Each goes through staffWrite: it locks its row,
 * checks the caller's version where there is one, and writes the change, its audit row and the client's
 * notification in one transaction; the client is poked after the commit. Notes are never the client's:
 * no notification, no client poke (staff streams only), no client route reads them.
 */
export async function staffSupportRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const staff = { onRequest: app.requireStaff };

  api.post(
    '/staff/threads/:threadId/replies',
    {
      ...staff,
      schema: {
        tags: ['staff'],
        summary: "Answers a client's support thread; it leaves the queue's Awaiting our reply tab. Send an Idempotency-Key",
        params: ThreadParams,
        body: ReplyBody,
        response: { 201: envelope(StaffThread) },
      },
    },
    async (request, reply) => {
      const message = request.body.reply.message;
      const { body } = await staffWrite(app, request, {
        lock: (tx) => lockThread(tx, request.params.threadId),
        change: (tx, row, actor) => replyToThread(tx, row, { message, commandId: commandIdOf(request) }, actor),
        status: 201,
        answer: (replied) => ({ data: replied.thread }),
        poke: (replied) => ({ client: replied.owner }),
      });
      return reply.status(201).send(body);
    },
  );

  api.post(
    '/staff/threads/:threadId/status',
    {
      ...staff,
      schema: { tags: ['staff'], summary: 'Closes or reopens a support thread', params: ThreadParams, body: ThreadStatusBody, response: { 200: envelope(StaffThread) } },
    },
    async (request) => {
      const { body } = await staffWrite(app, request, {
        lock: (tx) => lockThread(tx, request.params.threadId),
        check: (tx, row) => checkThreadStatus(tx, row, request.body),
        change: (tx, row, actor) => setThreadStatus(tx, row, request.body, actor),
        status: 200,
        answer: (changed) => ({ data: changed.thread }),
        poke: (changed) => ({ client: changed.owner }),
      });
      return body;
    },
  );

  api.post(
    '/staff/refunds/:refundId/decision',
    {
      ...staff,
      schema: {
        tags: ['staff'],
        summary: 'Approves (with the amount returned, at most what was paid) or declines (with the reason) a refund request',
        params: RefundParams,
        body: RefundDecisionBody,
        response: { 200: envelope(StaffRefund) },
      },
    },
    async (request) => {
      const { body } = await staffWrite(app, request, {
        lock: async (tx) => {
          const refund = await lockRefund(tx, request.params.refundId);
          // Its request is locked too: what was paid on it cannot move while the amount is checked.
          return { refund, request: await lockRequest(tx, refund.requestId) };
        },
        check: (_tx, locked) => checkRefundDecision(locked.refund, locked.request, request.body),
        change: (tx, locked, actor) => decideRefund(tx, locked.refund, locked.request, request.body, actor),
        status: 200,
        answer: (decided) => ({ data: toStaffRefund(decided.refund, decided.paid) }),
        poke: (decided) => ({ client: decided.refund.userId }),
      });
      return body;
    },
  );

  api.post(
    '/staff/notes',
    {
      ...staff,
      schema: {
        tags: ['staff'],
        summary: 'Adds an internal note on a client or one of their requests; staff only, never shown to the client. Send an Idempotency-Key',
        body: NoteBody,
        response: { 201: envelope(StaffNote) },
      },
    },
    async (request, reply) => {
      const { body } = await staffWrite(app, request, {
        // A note changes no existing row: there is nothing to lock.
        lock: async () => undefined,
        change: async (tx, _none, actor) => ({ done: await addNote(tx, request.body, actor, commandIdOf(request)) }),
        status: 201,
        answer: (note) => ({ data: toStaffNote(note) }),
        // Only staff streams: the staff member's other devices and colleagues with the page in their replica.
        poke: () => 'staff',
      });
      return reply.status(201).send(body);
    },
  );
}

// ---- locks ----

/** The thread, locked until the transaction ends, so two staff writes on it run one after the other. */
async function lockThread(tx: Db, threadId: string): Promise<ThreadRow> {
  if (!UUID.test(threadId)) throw notFound('Conversation not found');
  const [row] = await tx.select().from(contactRequests).where(eq(contactRequests.id, threadId)).for('update');
  if (!row) throw notFound('Conversation not found');
  return row;
}

async function lockRefund(tx: Db, refundId: string): Promise<RefundRow> {
  if (!UUID.test(refundId)) throw notFound('Refund not found');
  const [row] = await tx.select().from(refunds).where(eq(refunds.id, refundId)).for('update');
  if (!row) throw notFound('Refund not found');
  return row;
}

// ---- threads ----

interface ThreadResult {
  /** The client whose thread it is: who is poked. */
  owner: string;
  thread: StaffThread;
}

/**
 * Appends a staff reply. No version: appending never overwrites anyone, and a reply may come from an
 * offline outbox long after the page was read. A reply to a closed thread leaves it closed.
 */
async function replyToThread(tx: Db, row: ThreadRow, reply: { message: string; commandId: string | null }, actor: Actor): Promise<StaffChange<ThreadResult>> {
  const { row: written, created } = await insertOnce(
    reply.commandId,
    async (key) =>
      (await tx.select({ id: contactReplies.id, threadId: contactReplies.threadId }).from(contactReplies).where(and(eq(contactReplies.authorUid, actor.uid), eq(contactReplies.commandId, key))))[0],
    async () =>
      (
        await tx
          .insert(contactReplies)
          .values({ threadId: row.id, userId: row.userId, author: 'staff', authorUid: actor.uid, message: reply.message, commandId: reply.commandId })
          .onConflictDoNothing(commandIdConflict(contactReplies.authorUid, contactReplies.commandId))
          .returning({ id: contactReplies.id, threadId: contactReplies.threadId })
      )[0],
  );
  // A key that stored a reply in another thread was not this request's (its claim was pruned since).
  if (written.threadId !== row.id) throw keyReused();
  // A rerun of a crashed attempt (its claim taken over) answers the thread as it is: no second audit row or notification.
  if (!created) return { done: { owner: row.userId, thread: await staffThread(tx, row) } };
  // Answered: the thread leaves the queue until the client writes again.
  const updated = row.awaitingSince === null ? row : await updateThread(tx, row.id, { awaitingSince: null });
  return {
    done: { owner: row.userId, thread: await staffThread(tx, updated) },
    audit: {
      actor,
      action: 'reply',
      entityType: 'thread',
      entityId: row.id,
      subjectUid: row.userId,
      before: null,
      after: { replyId: written.id, message: excerpt(reply.message) },
    },
    notify: { userId: row.userId, message: `Support replied to your message "${row.subject}".` },
  };
}

/**
 * Closes or reopens a thread. Either way nothing waits for our reply any more: a closed thread is done,
 * and a reopened one waits only once the client writes again.
 */
async function checkThreadStatus(tx: Db, row: ThreadRow, body: ThreadStatusBody): Promise<void> {
  if (body.version !== row.version) {
    throw conflict('VERSION_CONFLICT', 'Someone else changed this conversation since you opened it. Look at it again, then retry.', { current: await staffThread(tx, row) });
  }
  if (body.status === row.status) {
    throw conflict('ILLEGAL_TRANSITION', `This conversation is already ${row.status}.`, { current: await staffThread(tx, row) });
  }
}

async function setThreadStatus(tx: Db, row: ThreadRow, body: ThreadStatusBody, actor: Actor): Promise<StaffChange<ThreadResult>> {
  const updated = await updateThread(tx, row.id, { status: body.status, awaitingSince: null, version: row.version + 1 });
  return {
    done: { owner: row.userId, thread: await staffThread(tx, updated) },
    audit: {
      actor,
      action: 'thread',
      entityType: 'thread',
      entityId: row.id,
      subjectUid: row.userId,
      before: { status: row.status },
      after: { status: updated.status },
    },
  };
}

async function updateThread(tx: Db, id: string, set: Partial<ThreadRow>): Promise<ThreadRow> {
  const [updated] = await tx.update(contactRequests).set(set).where(eq(contactRequests.id, id)).returning();
  return updated;
}

function excerpt(text: string): string {
  return text.length <= AUDIT_EXCERPT ? text : `${text.slice(0, AUDIT_EXCERPT - 1)}…`;
}

// ---- refunds ----

/**
 * Decides a refund once. Checked in this order: already decided (whatever the version, the clearest
 * answer), then the version, then the amount.
 */
function checkRefundDecision(refund: RefundRow, request: RequestRow, body: RefundDecisionBody): void {
  if (refund.status !== 'requested') {
    throw conflict('REFUND_DECIDED', `This refund was already ${refund.status}.`, { current: toStaffRefund(refund, request.paidCents) });
  }
  if (body.version !== refund.version) {
    throw conflict('VERSION_CONFLICT', 'Someone else changed this refund since you opened it. Look at it again, then retry.', { current: toStaffRefund(refund, request.paidCents) });
  }
}

async function decideRefund(tx: Db, refund: RefundRow, request: RequestRow, body: RefundDecisionBody, actor: Actor): Promise<StaffChange<{ refund: RefundRow; paid: Cents }>> {
  const approved = body.decision === 'approve';
  const amount = approved ? await approvedAmount(tx, refund, request, body.amount) : null;
  const [updated] = await tx
    .update(refunds)
    .set({
      status: approved ? 'approved' : 'declined',
      decidedCents: amount,
      decisionNote: body.note ?? null,
      decidedAt: sql`now()`,
      decidedBy: actor.uid,
      version: refund.version + 1,
    })
    .where(eq(refunds.id, refund.id))
    .returning();
  const audit: AuditRecord = {
    actor,
    action: 'refund',
    entityType: 'refund',
    entityId: refund.id,
    subjectUid: refund.userId,
    requestId: refund.requestId,
    before: { status: refund.status },
    // The history keeps the wire's dollars, as every audit entry shows amounts.
    after: { status: updated.status, amount: dollarsOrNull(updated.decidedCents), note: updated.decisionNote },
  };
  return { done: { refund: updated, paid: request.paidCents }, audit, notify: { userId: refund.userId, message: refundMessage(updated, request) } };
}

/**
 * The amount an approval returns (the body's dollars, two decimals by the schema): more than 0, at most what was
 * paid less what earlier approved refunds of the request already return, and for a FULL refund exactly that.
 */
async function approvedAmount(tx: Db, refund: RefundRow, request: RequestRow, dollars: number): Promise<Cents> {
  const paid = request.paidCents;
  if (paid === 0) throw validation('amount: nothing was paid on this request, so nothing can be returned. Decline the refund instead.');
  const refunded = await refundedCentsOf(tx, request.id);
  const left = cents(paid - refunded);
  const paidText = refunded > 0 ? `${formatCents(left)} (${formatCents(paid)} paid, ${formatCents(refunded)} already refunded)` : formatCents(paid);
  if (left <= 0) throw validation(`amount: everything paid on this request was already refunded (${formatCents(refunded)}). Decline the refund instead.`);
  const amount = centsFromDollars(dollars);
  if (refund.refundRequestType === 'FULL' && amount !== left) throw validation(`amount: A full refund returns everything paid: ${paidText}`);
  if (amount > left) throw validation(`amount: ${formatCents(amount)} is more than what can be returned: ${paidText}`);
  return amount;
}

/** What the approved refunds of a request return. */
async function refundedCentsOf(tx: Db, requestId: string): Promise<Cents> {
  const [row] = await tx
    .select({ cents: sql<string>`coalesce(sum(${refunds.decidedCents}), 0)::text` })
    .from(refunds)
    .where(and(eq(refunds.requestId, requestId), eq(refunds.status, 'approved')));
  return cents(Number(row.cents));
}

function refundMessage(row: RefundRow, request: RequestRow): string {
  const name = requestName(request, toolByBackendName(row.tool)?.header ?? row.tool);
  return row.status === 'approved'
    ? `Your refund request for your ${name} was approved: ${formatCents(row.decidedCents)} will be returned.`
    : `Your refund request for your ${name} was declined: ${row.decisionNote ?? ''}`;
}

// ---- notes ----

/** A note on a client, or on one of their requests: a request of someone else is "not found", like an unknown one. */
async function addNote(db: Db, body: NoteBody, actor: Actor, commandId: string | null): Promise<typeof staffNotes.$inferSelect> {
  const [client] = await db.select({ uid: users.uid }).from(users).where(eq(users.uid, body.clientUid));
  if (!client) throw notFound(`Client ${body.clientUid} not found`);
  if (body.requestId !== undefined) {
    const [owned] = await db
      .select({ id: productRequests.id })
      .from(productRequests)
      .where(and(eq(productRequests.id, body.requestId), eq(productRequests.userId, client.uid)));
    if (!owned) throw notFound('Request not found');
  }
  const { row: note } = await insertOnce(
    commandId,
    async (key) => (await db.select().from(staffNotes).where(and(eq(staffNotes.authorUid, actor.uid), eq(staffNotes.commandId, key))))[0],
    async () =>
      (
        await db
          .insert(staffNotes)
          .values({ subjectUid: client.uid, requestId: body.requestId ?? null, authorUid: actor.uid, authorEmail: actor.email, body: body.body, commandId })
          .onConflictDoNothing(commandIdConflict(staffNotes.authorUid, staffNotes.commandId))
          .returning()
      )[0],
  );
  // A key that stored a note on someone else was not this request's (its claim was pruned since).
  if (note.subjectUid !== client.uid) throw keyReused();
  return note;
}
