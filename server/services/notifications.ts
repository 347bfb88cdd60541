import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { NotificationRead } from '../../domain/notification-reads.ts';
import type { Db } from '../db/client.ts';
import { notificationReads, notifications, users } from '../db/schema.ts';
import { notFound } from '../platform/errors.ts';
import { toNotification, toNotificationRead } from '../serialize/messages.ts';
import type { AuditRecord } from './audit.ts';
import { settleInTransaction } from './command-ids.ts';
import { staffWrite } from './staff-write.ts';
import type { DeliveryEvent } from '../notify/record.ts';

/** Notifications: what a user reads, how far they have read (docs/decisions/014-notification-read-state.md), and staff sending one. */

/** General notifications (userId null) plus the user's own, newest first. */
export function notificationsOf(db: Db, uid: string) {
  return db
    .select()
    .from(notifications)
    .where(or(isNull(notifications.userId), eq(notifications.userId, uid)))
    .orderBy(desc(notifications.createdAt), desc(notifications.seq));
}

/**
 * The marker moves to the notification's own creation time, never back, so a replay, an older device's late
 * command or two tabs racing all leave the newest. Another user's notification is 404, like any other object.
 */
export async function markReadUpTo(app: FastifyInstance, request: FastifyRequest, uid: string, notificationId: string): Promise<{ data: NotificationRead }> {
  const { row, answer } = await app.db.transaction(async (tx) => {
    const [seen] = await tx
      .select({ createdAt: notifications.createdAt })
      .from(notifications)
      .where(and(eq(notifications.id, notificationId), or(isNull(notifications.userId), eq(notifications.userId, uid))));
    if (!seen) throw notFound(`Notification ${notificationId} not found`);
    // Every user has a marker (a trigger on users makes it); the insert covers a row lost by hand.
    const [moved] = await tx
      .insert(notificationReads)
      .values({ userId: uid, readUpTo: seen.createdAt })
      .onConflictDoUpdate({
        target: notificationReads.userId,
        // Only forward: setWhere leaves an equal or later marker as it is.
        set: { readUpTo: sql`excluded.read_up_to`, updatedAt: sql`now()` },
        setWhere: sql`${notificationReads.readUpTo} < excluded.read_up_to`,
      })
      .returning();
    // Nothing moved (already read that far): the row as it is, and no poke.
    const [marker] = moved ? [moved] : await tx.select().from(notificationReads).where(eq(notificationReads.userId, uid));
    const settled = { data: toNotificationRead(marker) };
    await settleInTransaction(tx, request, 200, settled);
    return { row: moved, answer: settled };
  });
  if (row) await app.events.poke(uid);
  return answer;
}

/**
 * A notification sent by staff is a staff write: it, its audit row and its Idempotency-Key's answer commit
 * together; then its reader (everyone for a general one, userId null) is poked. A user who does not exist is 404.
 */
export async function sendNotification(app: FastifyInstance, request: FastifyRequest, userId: string | null, message: string) {
  if (userId !== null) {
    const [target] = await app.db.select({ uid: users.uid }).from(users).where(eq(users.uid, userId));
    if (!target) throw notFound(`User ${userId} not found`);
  }
  return staffWrite(app, request, {
    // A new notification changes no existing row: there is nothing to lock.
    lock: async () => undefined,
    change: async (tx, _none, actor) => {
      const [row] = await tx.insert(notifications).values({ userId, message }).returning();
      const audit: AuditRecord = {
        actor,
        action: 'notification',
        entityType: 'notification',
        entityId: row.id,
        subjectUid: userId,
        before: null,
        after: { message, to: userId ?? 'everyone' },
      };
      const deliver: DeliveryEvent =
        userId === null
          ? { kind: 'generalNotification', key: `notification:${row.id}`, to: 'everyone', facts: {}, notificationId: row.id }
          : { kind: 'notification', key: `notification:${row.id}`, to: { uid: userId }, facts: {}, notificationId: row.id };
      return { done: row, audit, deliver };
    },
    status: 201,
    answer: (row) => ({ data: toNotification(row) }),
    poke: () => (userId === null ? 'everyone' : { client: userId }),
  });
}
