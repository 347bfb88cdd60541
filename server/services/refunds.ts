import { requestFacts } from '../notify/record.ts';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RefundBody, RefundRequest } from '../../domain/schemas.ts';
import { texts } from '../../domain/texts.ts';
import { toolByBackendName } from '../../domain/tools.ts';
import type { Db } from '../db/client.ts';
import { type productRequests, refunds } from '../db/schema.ts';
import { UUID } from '../files/storage.ts';
import { HttpError, notFound } from '../platform/errors.ts';
import { toRefund } from '../serialize/rows.ts';
import { missingRequest, ownRequest } from './client-requests.ts';
import { commandIdConflict, commandIdOf, insertOnce, keyReused, settleInTransaction } from './command-ids.ts';

const REFUNDABLE = new Set(['In Progress', 'Done']);

const refundPending = () => new HttpError(409, 'REFUND_PENDING', texts.refundPending);

/**
 * Whether `err` is PostgreSQL's unique violation on `constraint`. drizzle wraps driver errors in a
 * DrizzleQueryError whose `cause` is the driver's error; node-postgres and PGlite both give it `code`
 * and `constraint` (for a unique index, the index's name).
 */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, constraint: name } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return name === constraint;
  }
  return false;
}

/**
 * A client's refund request (an outbox command): stored once per command id, refused unless the request is
 * In Progress or Done with no undecided refund, and answered with the refund the command's first attempt stored.
 * The client is poked after the commit.
 */
export async function requestRefund(app: FastifyInstance, request: FastifyRequest, uid: string, body: RefundBody): Promise<{ data: RefundRequest }> {
  const { tool: toolName, processId, refundRequestType, reason } = body.refundRequest;
  const tool = toolByBackendName(toolName);
  // The schema lets only catalogue names through; were one missing, no request of it could be found either.
  if (!tool) throw missingRequest();
  const row = await ownRequest(app.db, uid, tool, processId);
  const commandId = commandIdOf(request);
  let answer: { data: RefundRequest };
  try {
    answer = await app.db.transaction(async (tx) => {
      // A rerun of this key answers the refund its first attempt stored, before the checks that refund now fails.
      const { row: refund } = await insertOnce(
        commandId,
        (key) => firstRefund(tx, uid, key),
        async () => {
          await checkRefundable(tx, row);
          const values = { userId: uid, requestId: row.id, tool: tool.ToolNameBackend, refundRequestType, reason, commandId };
          return (await tx.insert(refunds).values(values).onConflictDoNothing(commandIdConflict(refunds.userId, refunds.commandId)).returning())[0];
        },
      );
      if (refund.requestId !== row.id) throw keyReused();
      const facts = { ...requestFacts(row), refundId: refund.id, clientUid: uid };
      await app.deliveries.record(tx, { kind: 'refundRequested', key: `refundRequest:${refund.id}`, to: 'staff', facts });
      const data = { data: toRefund(refund) };
      await settleInTransaction(tx, request, 201, data);
      return data;
    });
  } catch (err) {
    // Two sends racing past checkRefundable: the unique index refunds_one_undecided lets one in,
    // and when the one let in carries this very key, it is this command's answer.
    if (!isUniqueViolation(err, 'refunds_one_undecided')) throw err;
    const raced = commandId === null ? undefined : await firstRefund(app.db, uid, commandId);
    if (!raced) throw refundPending();
    answer = { data: toRefund(raced) };
  }
  await app.events.poke(uid);
  return answer;
}

/** The caller's refund requests and their decisions, newest first. */
export function ownRefunds(db: Db, uid: string) {
  return db.select().from(refunds).where(eq(refunds.userId, uid)).orderBy(desc(refunds.createdAt), desc(refunds.seq));
}

/** One of the caller's refunds; someone else's id is 404 like a missing one. */
export async function ownRefund(db: Db, uid: string, refundId: string) {
  if (!UUID.test(refundId)) throw notFound('Refund not found');
  const [row] = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.id, refundId), eq(refunds.userId, uid)));
  if (!row) throw notFound('Refund not found');
  return row;
}

/** The refund this user's Idempotency-Key already stored, if any. */
async function firstRefund(db: Db, uid: string, commandId: string) {
  const [row] = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.userId, uid), eq(refunds.commandId, commandId)));
  return row;
}

/** Only In Progress or Done requests, and one undecided refund per request: the client waits for the decision, then may ask again. */
async function checkRefundable(db: Db, row: typeof productRequests.$inferSelect) {
  if (!REFUNDABLE.has(row.status)) {
    throw new HttpError(409, 'NOT_REFUNDABLE', `Only requests that are In Progress or Done can be refunded; this request is ${row.status}.`);
  }
  const [pending] = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.requestId, row.id), eq(refunds.status, 'requested')))
    .limit(1);
  if (pending) throw refundPending();
}
