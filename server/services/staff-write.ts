import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type AuditRecord, writeAudit } from './audit.ts';
import type { Db } from '../db/client.ts';
import { notifications, productRequests } from '../db/schema.ts';
import { HttpError, notFound } from '../platform/errors.ts';
import { UUID } from '../files/storage.ts';
import { settleInTransaction } from './command-ids.ts';
import type { DeliveryEvent } from '../notify/record.ts';

/**
 * What every staff write shares (the services request-lifecycle, payments, staff-users, support-threads,
 * refund-decisions, staff-notes, tracking-links, business-settings, payment-details, notifications, admin-users): who acts,
 * the row lock, the 400 a rule refuses with, the client's notification, and staffWrite, the one sequence
 * each of them runs.
 */

export type Actor = AuditRecord['actor'];

function actorOf(request: FastifyRequest): Actor {
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

/** The locked request changed by a staff write, its version moved on: the row as it is now. */
export async function updateRequest(tx: Db, row: RequestRow, set: Partial<RequestRow>): Promise<RequestRow> {
  const [updated] = await tx
    .update(productRequests)
    .set({ ...set, version: row.version + 1 })
    .where(eq(productRequests.id, row.id))
    .returning();
  return updated;
}

/** A notification to one client, written in the transaction of the change it tells about; its id. */
async function notifyUser(tx: Db, userId: string, message: string): Promise<string> {
  const [row] = await tx.insert(notifications).values({ userId, message }).returning({ id: notifications.id });
  return row.id;
}

/**
 * What a staff write's change hands back: its result, and the audit row and client notification it calls
 * for. A change that changes nothing (a rerun of a keyed command, a state it already has) leaves them out.
 */
export interface StaffChange<Done> {
  done: Done;
  audit?: AuditRecord;
  notify?: { userId: string; message: string };
  /** The push and email it calls for (server/notify/record.ts); they name the notification above as theirs. */
  deliver?: DeliveryEvent;
}

/**
 * Who is poked once the write commits: a client (their streams and the staff streams), some users (each as a
 * client), the staff streams only, or every stream (a row every user's feed carries).
 */
export type PokeTarget = { client: string } | { users: string[] } | 'staff' | 'everyone';

export interface StaffWriteSteps<Locked, Done, Answer> {
  /** Locks the row(s) the write changes, until the transaction ends. */
  lock: (tx: Db) => Promise<Locked>;
  /** The version check and the rules that need no computation, in the order the answers promise; `change` may refuse too, before it writes. */
  check?: (tx: Db, locked: Locked, actor: Actor) => Promise<void> | void;
  /** Writes the change; returns it with its audit row and notification, which staffWrite writes. */
  change: (tx: Db, locked: Locked, actor: Actor) => Promise<StaffChange<Done>>;
  /** The answer's status and body, stored with the command id's claim in the same transaction. */
  status: number;
  answer: (done: Done) => Answer;
  /** What else follows the commit, before the poke (uploads kept, a cache told). */
  afterCommit?: (done: Done) => void;
  poke: (done: Done) => PokeTarget;
}

/**
 * One staff write: lock → check (version, rules) → change → audit → notify → deliver → settle the command id, in
 * one transaction, then the poke after the commit so the client's app pulls the change
 * (docs/decisions/006-staff-workspace.md). Returns the answer's body, built once in the transaction.
 */
export async function staffWrite<Locked, Done, Answer>(
  app: FastifyInstance,
  request: FastifyRequest,
  steps: StaffWriteSteps<Locked, Done, Answer>,
): Promise<{ done: Done; body: Answer }> {
  const actor = actorOf(request);
  const written = await app.db.transaction(async (tx) => {
    const locked = await steps.lock(tx);
    await steps.check?.(tx, locked, actor);
    const { done, audit, notify, deliver } = await steps.change(tx, locked, actor);
    if (audit) await writeAudit(tx, audit);
    const notificationId = notify ? await notifyUser(tx, notify.userId, notify.message) : undefined;
    if (deliver) await app.deliveries.record(tx, { notificationId, ...deliver });
    const body = steps.answer(done);
    await settleInTransaction(tx, request, steps.status, body);
    return { done, body };
  });
  steps.afterCommit?.(written.done);
  const target = steps.poke(written.done);
  if (target === 'staff') await app.events.pokeStaff();
  else if (target === 'everyone') await app.events.poke(null);
  else if ('users' in target) for (const uid of target.users) await app.events.poke(uid);
  else await app.events.poke(target.client);
  return written;
}
