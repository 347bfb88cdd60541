import { desc, eq, isNull, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, NotificationBody, NotificationItem } from '../../domain/schemas.ts';
import { writeAudit } from '../audit.ts';
import type { Db } from '../db/client.ts';
import { notifications, users } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { toNotification } from '../serialize-messages.ts';

const UserIdParams = z.strictObject({
  userId: z.string().trim().min(1, 'userId is required').max(128, 'userId must be at most 128 characters'),
});

/**
 * GET /notification: general notifications (userId null) plus the caller's own, newest first.
 * POST /notification (admin): a general one, poked to everyone. POST /notification/:userId (admin):
 * one for that user only, poked to them alone.
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

  api.post(
    '/notification',
    { onRequest: app.requireAdmin, schema: { tags: ['notifications', 'admin'], body: NotificationBody, response: { 201: envelope(NotificationItem) } } },
    async (request, reply) => {
      const row = await insertAudited(app.db, request.user, null, request.body.notification.message);
      await app.events.poke(null);
      return reply.status(201).send({ data: toNotification(row) });
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
      const row = await insertAudited(app.db, request.user, userId, request.body.notification.message);
      await app.events.poke(userId);
      return reply.status(201).send({ data: toNotification(row) });
    },
  );
}

/** A notification sent by staff is a staff action: it and its audit row commit together. */
async function insertAudited(db: Db, actor: { uid: string; email: string }, userId: string | null, message: string) {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(notifications).values({ userId, message }).returning();
    await writeAudit(tx, {
      actor,
      action: 'notification',
      entityType: 'notification',
      entityId: row.id,
      subjectUid: userId,
      before: null,
      after: { message, to: userId ?? 'everyone' },
    });
    return row;
  });
}
