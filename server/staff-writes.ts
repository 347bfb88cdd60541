import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AuditRecord } from './audit.ts';
import type { Db } from './db/client.ts';
import { notifications, productRequests } from './db/schema.ts';
import { HttpError, notFound } from './errors.ts';
import { UUID } from './storage.ts';

/**
 * What every staff write shares (routes/staff-actions.ts, routes/staff-support.ts): who acts, the row
 * lock on a request, the 400 a rule refuses with, the client's notification.
 */

export type Actor = AuditRecord['actor'];

export function actorOf(request: FastifyRequest): Actor {
  return { uid: request.user.uid, email: request.user.email };
}

/** A 400 VALIDATION_FAILED whose message starts with the field ("amount: …"). */
export const validation = (message: string) => new HttpError(400, 'VALIDATION_FAILED', message);

export type RequestRow = typeof productRequests.$inferSelect;

/** The request, locked until the transaction ends, so two staff writes on it run one after the other. */
export async function lockRequest(tx: Db, requestId: string): Promise<RequestRow> {
  if (!UUID.test(requestId)) throw notFound('Request not found');
  const [row] = await tx.select().from(productRequests).where(eq(productRequests.id, requestId)).for('update');
  if (!row) throw notFound('Request not found');
  return row;
}

/** A notification to one client, written in the transaction of the change it tells about. */
export async function notifyUser(tx: Db, userId: string, message: string): Promise<void> {
  await tx.insert(notifications).values({ userId, message });
}
