import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ContactReply, ContactRequest } from '../../domain/schemas.ts';
import type { Db } from '../db/client.ts';
import { contactReplies, contactRequests, users } from '../db/schema.ts';
import { UUID } from '../files/storage.ts';
import { notFound } from '../platform/errors.ts';
import { toContactReply, toContactRequest } from '../serialize/messages.ts';
import { commandIdConflict, commandIdOf, insertOnce, keyReused, settleInTransaction } from './command-ids.ts';

/**
 * A client's support threads: opening one, reading them, replying in one (outbox commands, each stored once per
 * command id and answered as its first attempt was), and the spec's token-less "Check existing contact".
 */

const missingThread = () => notFound('Conversation not found');

/** The caller's thread, or 404 for anyone else's and for an id that cannot be one (never a database error). */
async function ownThread(db: Db, uid: string, threadId: string, lock: boolean) {
  if (!UUID.test(threadId)) throw missingThread();
  const query = db
    .select()
    .from(contactRequests)
    .where(and(eq(contactRequests.id, threadId), eq(contactRequests.userId, uid)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw missingThread();
  return row;
}

/**
 * A new thread starts open and waiting for our reply: the column defaults (status 'open', awaiting_since now()) do it.
 * A rerun of the same Idempotency-Key answers the thread its first attempt stored.
 */
export async function openContactThread(app: FastifyInstance, request: FastifyRequest, uid: string, fields: { subject: string; message: string }) {
  const answer = await app.db.transaction(async (tx) => {
    const { row } = await openThread(tx, uid, fields, commandIdOf(request));
    await app.deliveries.record(tx, { kind: 'clientMessage', key: `thread:${row.id}`, to: 'staff', facts: { threadId: row.id, clientUid: uid } });
    const data: { data: ContactRequest } = { data: toContactRequest(row) };
    await settleInTransaction(tx, request, 201, data);
    return data;
  });
  await app.events.poke(uid);
  return answer;
}

/** The caller's threads, newest first. */
export function ownThreads(db: Db, uid: string) {
  return db.select().from(contactRequests).where(eq(contactRequests.userId, uid)).orderBy(desc(contactRequests.createdAt), desc(contactRequests.seq));
}

/** One of the caller's threads with its replies, oldest first. */
export async function threadWithReplies(db: Db, uid: string, threadId: string) {
  const thread = await ownThread(db, uid, threadId, false);
  const replies = await db
    .select()
    .from(contactReplies)
    .where(eq(contactReplies.threadId, thread.id))
    .orderBy(asc(contactReplies.createdAt), asc(contactReplies.seq));
  return { thread, replies };
}

/**
 * The client's reply in their own thread. The thread row is locked first so that a staff close or
 * reply at the same moment runs wholly before or after this one: the state this reply reads (closed,
 * already waiting) is the state it writes over, never one a concurrent staff write just replaced.
 */
export async function replyAsClient(app: FastifyInstance, request: FastifyRequest, uid: string, threadId: string, message: string) {
  const answer = await app.db.transaction(async (tx) => {
    const thread = await ownThread(tx, uid, threadId, true);
    const { row, created } = await appendClientReply(tx, thread, message, commandIdOf(request));
    // A rerun changes nothing more: the first attempt already reopened the thread.
    if (created) await reopenForReply(tx, thread);
    await app.deliveries.record(tx, { kind: 'clientMessage', key: `clientReply:${row.id}`, to: 'staff', facts: { threadId: thread.id, clientUid: uid } });
    const data: { data: ContactReply } = { data: toContactReply(row) };
    await settleInTransaction(tx, request, 201, data);
    return data;
  });
  await app.events.poke(uid);
  return answer;
}

/**
 * Whatever the email, a valid one gets the same answer after the same work (one lookup), so the call cannot be
 * used to learn who has an account.
 */
export async function checkExistingContact(db: Db, email: string): Promise<void> {
  // The result is deliberately unused: the lookup runs only so that both cases cost the same.
  await db.select({ uid: users.uid }).from(users).where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`).limit(1);
}

type ThreadRow = typeof contactRequests.$inferSelect;

/** Stores a new thread, or finds the one this Idempotency-Key already stored (a rerun after a crash). */
async function openThread(tx: Db, uid: string, fields: { subject: string; message: string }, commandId: string | null) {
  return insertOnce(
    commandId,
    async (key) => (await tx.select().from(contactRequests).where(and(eq(contactRequests.userId, uid), eq(contactRequests.commandId, key))))[0],
    async () =>
      (
        await tx
          .insert(contactRequests)
          .values({ userId: uid, ...fields, commandId })
          .onConflictDoNothing(commandIdConflict(contactRequests.userId, contactRequests.commandId))
          .returning()
      )[0],
  );
}

/** Stores the client's reply, or finds the one this Idempotency-Key already stored (a rerun after a crash). */
async function appendClientReply(tx: Db, thread: ThreadRow, message: string, commandId: string | null) {
  const uid = thread.userId;
  const result = await insertOnce(
    commandId,
    async (key) => (await tx.select().from(contactReplies).where(and(eq(contactReplies.authorUid, uid), eq(contactReplies.commandId, key))))[0],
    async () =>
      (
        await tx
          .insert(contactReplies)
          .values({ threadId: thread.id, userId: uid, author: 'client', authorUid: uid, message, commandId })
          .onConflictDoNothing(commandIdConflict(contactReplies.authorUid, contactReplies.commandId))
          .returning()
      )[0],
  );
  // A key that stored a reply in another thread was not this request's (its claim was pruned since).
  if (result.row.threadId !== thread.id) throw keyReused();
  return result;
}

/** A client's reply reopens a closed thread and, unless it already waits, starts the wait for our answer. */
async function reopenForReply(tx: Db, thread: ThreadRow) {
  const reopens = thread.status === 'closed';
  // An older wait is kept: the queue orders by how long the client has been waiting, not by their last message.
  if (!reopens && thread.awaitingSince !== null) return;
  await tx
    .update(contactRequests)
    .set({
      status: 'open',
      awaitingSince: sql`coalesce(${contactRequests.awaitingSince}, now())`,
      // version guards staff close/reopen, so it moves only when the state does.
      ...(reopens ? { version: sql`${contactRequests.version} + 1` } : {}),
    })
    .where(eq(contactRequests.id, thread.id));
}
