import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StaffThread, ThreadStatusBody } from '../../domain/staff.ts';
import type { Db } from '../db/client.ts';
import { contactReplies, contactRequests } from '../db/schema.ts';
import { UUID } from '../files/storage.ts';
import { conflict, notFound } from '../platform/errors.ts';
import { commandIdConflict, commandIdOf, insertOnce, keyReused } from './command-ids.ts';
import { staffThread } from './staff-pages.ts';
import { type Actor, type StaffChange, staffWrite } from './staff-write.ts';

type ThreadRow = typeof contactRequests.$inferSelect;

/**
 * Staff on a client's support thread: a reply (an outbox command, stored once per command id) and closing or
 * reopening it. Each is one staffWrite on the locked thread; the client is notified of a reply and poked.
 */

export function replyToThreadAsStaff(app: FastifyInstance, request: FastifyRequest, threadId: string, message: string) {
  return staffWrite(app, request, {
    lock: (tx) => lockThread(tx, threadId),
    change: (tx, row, actor) => replyToThread(tx, row, { message, commandId: commandIdOf(request) }, actor),
    status: 201,
    answer: (replied) => ({ data: replied.thread }),
    poke: (replied) => ({ client: replied.owner }),
  });
}

export function changeThreadStatus(app: FastifyInstance, request: FastifyRequest, threadId: string, body: ThreadStatusBody) {
  return staffWrite(app, request, {
    lock: (tx) => lockThread(tx, threadId),
    check: (tx, row) => checkThreadStatus(tx, row, body),
    change: (tx, row, actor) => setThreadStatus(tx, row, body, actor),
    status: 200,
    answer: (changed) => ({ data: changed.thread }),
    poke: (changed) => ({ client: changed.owner }),
  });
}

/** How much of a reply the audit row keeps: enough to recognise it; the reply itself is in contact_replies. */
const AUDIT_EXCERPT = 200;

/** The thread, locked until the transaction ends, so two staff writes on it run one after the other. */
async function lockThread(tx: Db, threadId: string): Promise<ThreadRow> {
  if (!UUID.test(threadId)) throw notFound('Conversation not found');
  const [row] = await tx.select().from(contactRequests).where(eq(contactRequests.id, threadId)).for('update');
  if (!row) throw notFound('Conversation not found');
  return row;
}

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
    deliver: { kind: 'reply', key: `reply:${written.id}`, to: { uid: row.userId }, facts: { threadId: row.id } },
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
