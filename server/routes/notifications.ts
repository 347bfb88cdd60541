import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotificationRead, NotificationReadBody } from '../../domain/notification-reads.ts';
import { envelope, NotificationBody, NotificationItem } from '../../domain/schemas.ts';
import { toNotification } from '../serialize/messages.ts';
import { markReadUpTo, notificationsOf, sendNotification } from '../services/notifications.ts';

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
    async (request) => ({ data: (await notificationsOf(app.db, request.user.uid)).map(toNotification) }),
  );

  /*
   * Not under /notification/: an admin's POST /notification/:userId must stay free for every user id.
   */
  api.put(
    '/notifications/read',
    { onRequest: app.authenticate, schema: { tags: ['notifications'], body: NotificationReadBody, response: { 200: envelope(NotificationRead) } } },
    async (request) => markReadUpTo(app, request, request.user.uid, request.body.notificationId),
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
      const { body } = await sendNotification(app, request, request.params.userId, request.body.notification.message);
      return reply.status(201).send(body);
    },
  );
}
