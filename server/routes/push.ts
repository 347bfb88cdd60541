import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { endpointProblem, PushPublicKey, PushRotateBody, PushSubscriptionBody, PushSubscriptionItem, PushUnsubscribeBody } from '../../domain/push.ts';
import { envelope } from '../../domain/schemas.ts';
import { HttpError } from '../platform/errors.ts';
import { deleteSubscription, rotateSubscription, saveSubscription, toPushSubscriptionItem } from '../services/push-subscriptions.ts';
import { notFound } from '../platform/errors.ts';

/**
 * Web Push: GET /push/public-key (public: the app needs it to subscribe), POST /push/subscriptions (the browser's
 * PushSubscription JSON, one row per endpoint) and DELETE /push/subscriptions with `{ endpoint }` in the body, never
 * in the URL, where logs and proxies would keep a capability URL. The workflow is services/push-subscriptions.ts.
 */
export async function pushRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/push/public-key',
    { schema: { tags: ['push'], summary: 'The VAPID public key the browser subscribes with (applicationServerKey)', response: { 200: envelope(PushPublicKey) } } },
    async () => ({ data: { publicKey: app.config.vapid.publicKey } }),
  );

  api.post(
    '/push/subscriptions',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['push'],
        summary: "Saves this device's push subscription for the caller (idempotent per endpoint; 201 when new to the caller)",
        body: PushSubscriptionBody,
        response: { 200: envelope(PushSubscriptionItem), 201: envelope(PushSubscriptionItem) },
      },
    },
    async (request, reply) => {
      checkEndpoint(request.body.endpoint, { local: app.config.local, pushHosts: app.config.PUSH_ENDPOINT_HOSTS });
      const { row, created } = await saveSubscription(app.db, request.user.uid, request.body);
      return reply.code(created ? 201 : 200).send({ data: toPushSubscriptionItem(row) });
    },
  );

  api.post(
    '/push/subscriptions/rotate',
    {
      // No sign-in: the service worker renews with no page open (counted per address, like every anonymous write).
      schema: {
        tags: ['push'],
        summary: 'Moves a device to the subscription its browser renewed (pushsubscriptionchange); the old endpoint is the proof',
        body: PushRotateBody,
        response: { 200: envelope(PushSubscriptionItem) },
      },
    },
    async (request) => {
      checkEndpoint(request.body.subscription.endpoint, { local: app.config.local, pushHosts: app.config.PUSH_ENDPOINT_HOSTS });
      const row = await rotateSubscription(app.db, request.body);
      if (!row) throw notFound('No device has that subscription');
      return { data: toPushSubscriptionItem(row) };
    },
  );

  api.delete(
    '/push/subscriptions',
    {
      onRequest: app.authenticate,
      schema: { tags: ['push'], summary: "Forgets this device's push subscription (the same answer whether or not it was saved)", body: PushUnsubscribeBody, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await deleteSubscription(app.db, request.user.uid, request.body.endpoint);
      return reply.code(204).send(null);
    },
  );
}

function checkEndpoint(endpoint: string, rules: { local: boolean; pushHosts: readonly string[] }) {
  const problem = endpointProblem(endpoint, rules);
  if (problem) throw new HttpError(400, 'BAD_PUSH_ENDPOINT', problem);
}
