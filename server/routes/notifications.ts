import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotificationRead, NotificationReadBody } from '../../domain/notification-reads.ts';
import { envelope, NotificationBody, NotificationItem } from '../../domain/schemas.ts';
import type { AuditRecord } from '../services/audit.ts';
import { notificationReads, notifications, users } from '../db/schema.ts';
import { notFound } from '../platform/errors.ts';
import { settleInTransaction } from '../services/command-ids.ts';
import { staffWrite } from '../services/staff-write.ts';
import { toNotification, toNotificationRead } from '../serialize/messages.ts';

const UserIdParams = z.strictObject({
  userId: z.string().trim().min(1, 'userId is required').max(128, 'userId must be at most 128 characters'),
});

/**
 * GET /notification: general notifications (userId null) plus the caller's own, newest first.
 * POST /notification (admin): a general one, poked to everyone. POST /notification/:userId (admin):
 * one for that user only, poked to them alone. PUT /notifications/read: the caller has seen up to this notification
 * (docs/decisions/014-notification-read-state.md).
 */
export async function notificationRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/notification',
    { onRequest: app.authenticate, schema: { tags: ['notifications'], response: { 200: envelope(z.array(NotificationItem)) } } },
    async (request) => {
      const rows = await app.db
        .select()
        .from(notifications)
        .where(or(isNull(notifications.userId), eq(notifications.userId, request.user.uid)))
        .orderBy(desc(notifications.createdAt), desc(notifications.seq));
      return { data: rows.map(toNotification) };
    },
  );

  /*
   * The marker moves to the notification's own creation time, never back, so a replay, an older device's late
   * command or two tabs racing all leave the newest. Another user's notification is 404, like any other object.
   * Not under /notification/: an admin's POST /notification/:userId must stay free for every user id.
   */
  api.put(
    '/notifications/read',
    { onRequest: app.authenticate, schema: { tags: ['notifications'], body: NotificationReadBody, response: { 200: envelope(NotificationRead) } } },
    async (request) => {
      const uid = request.user.uid;
      const { notificationId } = request.body;
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
    },
  );

  api.post(
    '/notification',
    { onRequest: app.requireAdmin, schema: { tags: ['notifications', 'admin'], body: NotificationBody, response: { 201: envelope(NotificationItem) } } },
    async (request, reply) => {
      const { body } = await sendNotification(app, request, null, request.body.notification.message);
      return reply.status(201).send(body);
    },
  );

  api.post(
    '/notification/:userId',
    {
      onRequest: app.requireAdmin,
      schema: { tags: ['notifications', 'admin'], params: UserIdParams, body: NotificationBody, response: { 201: envelope(NotificationItem) } },
    },
    async (request, reply) => {
      const { userId } = request.params;
      const [target] = await app.db.select({ uid: users.uid }).from(users).where(eq(users.uid, userId));
      if (!target) throw notFound(`User ${userId} not found`);
      const { body } = await sendNotification(app, request, userId, request.body.notification.message);
      return reply.status(201).send(body);
    },
  );
}

/**
 * A notification sent by staff is a staff write: it, its audit row and its Idempotency-Key's answer commit
 * together; then its reader (everyone for a general one) is poked.
 */
function sendNotification(app: FastifyInstance, request: FastifyRequest, userId: string | null, message: string) {
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
      return { done: row, audit };
    },
    status: 201,
    answer: (row) => ({ data: toNotification(row) }),
    poke: () => (userId === null ? 'everyone' : { client: userId }),
  });
}
