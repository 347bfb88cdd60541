import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SeenBody } from '../../domain/push.ts';
import { envelope } from '../../domain/schemas.ts';
import { markSeen } from '../services/seen-marks.ts';

const SeenMark = z.object({ kind: z.enum(['thread', 'request']), id: z.string(), seenUpTo: z.iso.datetime() });

/**
 * PUT /api/seen: how far the caller has seen a support thread or a request in the app; an email about what they have
 * seen is not sent (services/seen-marks.ts). An outbox command like the read marker, so it takes an Idempotency-Key.
 */
export async function seenRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.put(
    '/seen',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['notifications'],
        summary: 'Marks a thread (up to a reply) or a request (up to the version shown) as seen in the app; only forward',
        body: SeenBody,
        response: { 200: envelope(SeenMark) },
      },
    },
    async (request) => markSeen(app, request, request.user.uid, request.body),
  );
}
