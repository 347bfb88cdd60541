import { desc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DeliveryItem } from '../../domain/push.ts';
import { deliveries, users } from '../db/schema.ts';
import { HttpError, notFound } from '../platform/errors.ts';
import { UUID } from '../files/storage.ts';
import { staffWrite } from './staff-write.ts';

/** What admins see of the deliveries (docs/decisions/029-deliveries.md) and the one thing they may do: send one again. */

type Row = typeof deliveries.$inferSelect;
const iso = (v: string | null) => (v === null ? null : new Date(v).toISOString());

function toDeliveryItem(row: Row, recipientEmail: string | null): DeliveryItem {
  return {
    id: row.id,
    eventKind: row.eventKind,
    channel: row.channel,
    recipientUid: row.recipientUid,
    recipientEmail,
    state: row.state,
    attempts: row.attempts,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    skipReason: row.skipReason,
    createdAt: new Date(row.createdAt).toISOString(),
    finishedAt: iso(row.finishedAt),
  };
}

/** The newest deliveries in the given states, with the recipient's address. */
export async function listDeliveries(app: FastifyInstance, states: Row['state'][], limit: number): Promise<DeliveryItem[]> {
  const found = await app.db
    .select({ row: deliveries, email: users.email })
    .from(deliveries)
    .leftJoin(users, eq(users.uid, deliveries.recipientUid))
    .where(inArray(deliveries.state, states))
    .orderBy(desc(deliveries.createdAt), desc(deliveries.id))
    .limit(limit);
  return found.map(({ row, email }) => toDeliveryItem(row, email));
}

/**
 * Queues a failed or unknown delivery again, under the same id: the same push Topic and Message-ID, and a push
 * goes only to the devices that did not get it (push_sends). An admin decides this for an `unknown` row, which the
 * worker never resends by itself, knowing the person may get it twice.
 */
export async function retryDelivery(app: FastifyInstance, request: FastifyRequest, id: string) {
  return staffWrite(app, request, {
    lock: async (tx) => {
      if (!UUID.test(id)) throw notFound('Delivery not found');
      const [row] = await tx.select().from(deliveries).where(eq(deliveries.id, id)).for('update');
      if (!row) throw notFound('Delivery not found');
      return row;
    },
    check: (_tx, row) => {
      if (row.state !== 'failed' && row.state !== 'unknown') throw new HttpError(409, 'NOT_RETRYABLE', `Only a failed or unknown delivery can be sent again; this one is ${row.state}.`);
    },
    change: async (tx, row, actor) => {
      const [queued] = await tx
        .update(deliveries)
        .set({ state: 'queued', dueAt: new Date().toISOString(), attempts: 0, claimedBy: null, leaseUntil: null, finishedAt: null, digestOf: null })
        .where(eq(deliveries.id, row.id))
        .returning();
      const audit = { actor, action: 'delivery-retry' as const, entityType: 'delivery' as const, entityId: row.id, subjectUid: row.recipientUid, before: { state: row.state, lastError: row.lastError }, after: { state: 'queued' } };
      return { done: queued, audit };
    },
    status: 200,
    answer: (row) => ({ data: toDeliveryItem(row, null) }),
    poke: () => 'staff',
  });
}
