import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { formatCents } from '../../domain/format.ts';
import { type Cents, cents, centsFromDollars, dollarsOrNull } from '../../domain/money.ts';
import type { RefundDecisionBody } from '../../domain/staff.ts';
import { requestName, toolByBackendName } from '../../domain/tools.ts';
import type { Db } from '../db/client.ts';
import { type productRequests, refunds } from '../db/schema.ts';
import { UUID } from '../files/storage.ts';
import { conflict, notFound } from '../platform/errors.ts';
import { toStaffRefund } from '../serialize/rows.ts';
import type { AuditRecord } from './audit.ts';
import { requestFacts } from '../notify/record.ts';
import { type Actor, lockRequest, type StaffChange, staffWrite, validation } from './staff-write.ts';

type RefundRow = typeof refunds.$inferSelect;
type RequestRow = typeof productRequests.$inferSelect;

/**
 * Staff's decision on a client's refund request: approved with the amount returned (at most what was paid, less
 * refunds already approved) or declined with the reason. One staffWrite; the client is notified and poked.
 */
export function decideRefund(app: FastifyInstance, request: FastifyRequest, refundId: string, body: RefundDecisionBody) {
  return staffWrite(app, request, {
    lock: async (tx) => {
      const refund = await lockRefund(tx, refundId);
      // Its request is locked too: what was paid on it cannot move while the amount is checked.
      return { refund, request: await lockRequest(tx, refund.requestId) };
    },
    check: (_tx, locked) => checkRefundDecision(locked.refund, locked.request, body),
    change: (tx, locked, actor) => writeDecision(tx, locked.refund, locked.request, body, actor),
    status: 200,
    answer: (decided) => ({ data: toStaffRefund(decided.refund, decided.paid) }),
    poke: (decided) => ({ client: decided.refund.userId }),
  });
}

async function lockRefund(tx: Db, refundId: string): Promise<RefundRow> {
  if (!UUID.test(refundId)) throw notFound('Refund not found');
  const [row] = await tx.select().from(refunds).where(eq(refunds.id, refundId)).for('update');
  if (!row) throw notFound('Refund not found');
  return row;
}

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

async function writeDecision(tx: Db, refund: RefundRow, request: RequestRow, body: RefundDecisionBody, actor: Actor): Promise<StaffChange<{ refund: RefundRow; paid: Cents }>> {
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
  return {
    done: { refund: updated, paid: request.paidCents },
    audit,
    notify: { userId: refund.userId, message: refundMessage(updated, request) },
    deliver: { kind: 'refundDecided', key: `refund:${refund.id}:decided`, to: { uid: refund.userId }, facts: { ...requestFacts(request), refundId: refund.id } },
  };
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
