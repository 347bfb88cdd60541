import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DeliveryItem, DeliveryQuery } from '../../domain/push.ts';
import { envelope } from '../../domain/schemas.ts';
import { listDeliveries, retryDelivery } from '../services/deliveries.ts';

/** Admin: the pushes and emails that did not go (failed after their retries, or unknown after a crash), and sending one again. */
export async function adminDeliveryRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const admin = { onRequest: app.requireAdmin };

  api.get('/admin/deliveries', { ...admin, schema: { tags: ['admin'], querystring: DeliveryQuery, response: { 200: envelope(z.array(DeliveryItem)) } } }, async (request) => ({
    data: await listDeliveries(app, request.query.state, request.query.limit),
  }));

  api.post(
    '/admin/deliveries/:id/retry',
    { ...admin, schema: { tags: ['admin'], params: z.object({ id: z.string().max(100) }), response: { 200: envelope(DeliveryItem) } } },
    async (request) => (await retryDelivery(app, request, request.params.id)).body,
  );
}
