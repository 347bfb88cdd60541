import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ContactBody, ContactReply, ContactRequest, envelope, NotCrmExistsBody, ReplyBody } from '../../domain/schemas.ts';
import type { Db } from '../db/client.ts';
import { contactReplies, contactRequests, users } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { commandIdConflict, commandIdOf, insertOnce, keyReused, settleInTransaction } from '../services/command-ids.ts';
import { toContactReply, toContactRequest } from '../serialize-messages.ts';
import { UUID } from '../storage.ts';

const ThreadParams = z.object({ threadId: z.string().max(100) });
const ThreadWithReplies = z.object({ thread: ContactRequest, replies: z.array(ContactReply) });

const missingThread = () => notFound('Conversation not found');

export async function contactRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const auth = { onRequest: app.authenticate };

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

  // A new thread starts open and waiting for our reply: the column defaults (status 'open', awaiting_since now()) do it.
  // A rerun of the same Idempotency-Key answers the thread its first attempt stored.
  api.post(
    '/contact',
    { ...auth, schema: { tags: ['contact'], body: ContactBody, response: { 201: envelope(ContactRequest) } } },
    async (request, reply) => {
      const uid = request.user.uid;
      const { subject, message } = request.body.contactRequest;
      const answer = await app.db.transaction(async (tx) => {
        const { row } = await openThread(tx, uid, { subject, message }, commandIdOf(request));
        const data = { data: toContactRequest(row) };
        await settleInTransaction(tx, request, 201, data);
        return data;
      });
      await app.events.poke(uid);
      return reply.status(201).send(answer);
    },
  );

  api.get('/contact', { ...auth, schema: { tags: ['contact'], response: { 200: envelope(z.array(ContactRequest)) } } }, async (request) => {
    const rows = await app.db
      .select()
      .from(contactRequests)
      .where(eq(contactRequests.userId, request.user.uid))
      .orderBy(desc(contactRequests.createdAt), desc(contactRequests.seq));
    return { data: rows.map(toContactRequest) };
  });

  api.get(
    '/contact/:threadId',
    { ...auth, schema: { tags: ['contact'], summary: 'One of the caller\'s threads with its replies, oldest first', params: ThreadParams, response: { 200: envelope(ThreadWithReplies) } } },
    async (request) => {
      const thread = await ownThread(app.db, request.user.uid, request.params.threadId, false);
      const replies = await app.db
        .select()
        .from(contactReplies)
        .where(eq(contactReplies.threadId, thread.id))
        .orderBy(asc(contactReplies.createdAt), asc(contactReplies.seq));
      return { data: { thread: toContactRequest(thread), replies: replies.map(toContactReply) } };
    },
  );

  /**
   * The client's reply in their own thread. The thread row is locked first so that a staff close or
   * reply at the same moment runs wholly before or after this one: the state this reply reads (closed,
   * already waiting) is the state it writes over, never one a concurrent staff write just replaced.
   */
  api.post(
    '/contact/:threadId/replies',
    { ...auth, schema: { tags: ['contact'], params: ThreadParams, body: ReplyBody, response: { 201: envelope(ContactReply) } } },
    async (request, reply) => {
      const uid = request.user.uid;
      const answer = await app.db.transaction(async (tx) => {
        const thread = await ownThread(tx, uid, request.params.threadId, true);
        const { row, created } = await appendClientReply(tx, thread, request.body.reply.message, commandIdOf(request));
        // A rerun changes nothing more: the first attempt already reopened the thread.
        if (created) await reopenForReply(tx, thread);
        const data = { data: toContactReply(row) };
        await settleInTransaction(tx, request, 201, data);
        return data;
      });
      await app.events.poke(uid);
      return reply.status(201).send(answer);
    },
  );

  /**
   * The spec's "Check existing contact", called without a token. Whatever the email, a valid one gets
   * the same answer after the same work (one lookup), so the call cannot be used to learn who has an
   * account. Limited per client address, across instances, like every write without a token
   * (server/plugins/write-limits.ts).
   */
  api.post(
    '/user/not-crm-exists',
    {
      schema: { tags: ['contact'], body: NotCrmExistsBody, response: { 200: envelope(z.object({ received: z.literal(true) })) } },
    },
    async (request) => {
      const email = request.body.email.trim().toLowerCase();
      // The result is deliberately unused in the answer: the lookup runs only so that both cases cost the same.
      await app.db.select({ uid: users.uid }).from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
      return { data: { received: true as const } };
    },
  );
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
