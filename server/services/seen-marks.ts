import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SeenBody } from '../../domain/push.ts';
import type { Db } from '../db/client.ts';
import { contactReplies, contactRequests, productRequests, seenMarks } from '../db/schema.ts';
import { notFound } from '../platform/errors.ts';
import { isoTime } from '../platform/iso-time.ts';
import { settleInTransaction } from './command-ids.ts';

/** What PUT /api/seen answers: the mark as it stands after the call (never earlier than before it). */
export interface SeenMark {
  kind: SeenBody['kind'];
  id: string;
  seenUpTo: string;
}

/**
 * Records how far the caller has seen a support thread or a request in the app (PUT /api/seen), so the delivery
 * worker does not email them what they have already seen. The time comes from the database, never from the device
 * alone: a thread's mark is the shown reply's creation time (the thread's own when no reply was shown), a request's
 * the earlier of the updatedAt the device showed and the row's, so a device cannot mark unseen what it never had.
 * The mark only moves forward, like the notification read marker, so a late or replayed call never takes it back.
 * Another user's thread or request, or a reply of another thread, is 404. Not synced: nothing is poked.
 */
export async function markSeen(app: FastifyInstance, request: FastifyRequest, uid: string, body: SeenBody): Promise<{ data: SeenMark }> {
  return app.db.transaction(async (tx) => {
    const upTo = body.kind === 'thread' ? await threadSeenUpTo(tx, uid, body.id, body.replyId) : await requestSeenUpTo(tx, uid, body.id, body.updatedAt);
    const key = { userId: uid, subjectKind: body.kind, subjectId: body.id };
    const [moved] = await tx
      .insert(seenMarks)
      .values({ ...key, seenUpTo: upTo })
      .onConflictDoUpdate({
        target: [seenMarks.userId, seenMarks.subjectKind, seenMarks.subjectId],
        set: { seenUpTo: sql`excluded.seen_up_to` },
        // Only forward: an equal or later mark stays as it is.
        setWhere: sql`${seenMarks.seenUpTo} < excluded.seen_up_to`,
      })
      .returning();
    const [mark] = moved
      ? [moved]
      : await tx
          .select()
          .from(seenMarks)
          .where(and(eq(seenMarks.userId, uid), eq(seenMarks.subjectKind, body.kind), eq(seenMarks.subjectId, body.id)));
    const answer = { data: { kind: body.kind, id: body.id, seenUpTo: isoTime(mark.seenUpTo) } };
    await settleInTransaction(tx, request, 200, answer);
    return answer;
  });
}

/** The caller's thread, up to the reply shown (one of that thread's), or up to the thread's first message. */
async function threadSeenUpTo(tx: Db, uid: string, threadId: string, replyId: string | null): Promise<string> {
  const [thread] = await tx
    .select({ createdAt: contactRequests.createdAt })
    .from(contactRequests)
    .where(and(eq(contactRequests.id, threadId), eq(contactRequests.userId, uid)));
  if (!thread) throw notFound(`Thread ${threadId} not found`);
  if (replyId === null) return thread.createdAt;
  const [reply] = await tx
    .select({ createdAt: contactReplies.createdAt })
    .from(contactReplies)
    .where(and(eq(contactReplies.id, replyId), eq(contactReplies.threadId, threadId)));
  if (!reply) throw notFound(`Reply ${replyId} not found in thread ${threadId}`);
  return reply.createdAt;
}

/** The caller's request, up to the version the device showed, and never past the row as it is. */
async function requestSeenUpTo(tx: Db, uid: string, requestId: string, shownUpdatedAt: string): Promise<string> {
  const [row] = await tx
    .select({ upTo: sql<string>`least(${shownUpdatedAt}::timestamptz, ${productRequests.updatedAt})::text` })
    .from(productRequests)
    .where(and(eq(productRequests.id, requestId), eq(productRequests.userId, uid)));
  if (!row) throw notFound(`Request ${requestId} not found`);
  return row.upTo;
}
