import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '../../domain/schemas.ts';
import { NewTrackingLinkBody, StaffTrackingLink, TrackingLinkPatch } from '../../domain/tracking.ts';
import { addTrackingLink, switchTrackingLink } from '../services/tracking-links.ts';

const RequestParams = z.strictObject({ requestId: z.string().max(100, 'requestId must be at most 100 characters') });
const LinkParams = z.strictObject({ linkId: z.string().max(100, 'linkId must be at most 100 characters') });

/**
 * Staff writes on Track Master tracking links (docs/api.md, "Tracking links"); the workflows are
 * services/tracking-links.ts, each one staffWrite.
 */
export async function staffTrackingRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const staff = { onRequest: app.requireStaff };

  api.post(
    '/staff/requests/:requestId/tracking-links',
    {
      ...staff,
      schema: {
        tags: ['staff'],
        summary: 'Creates a tracking link (/t/{slug}) on a Track Master request that is In Progress. Send an Idempotency-Key',
        params: RequestParams,
        body: NewTrackingLinkBody,
        response: { 201: envelope(StaffTrackingLink) },
      },
    },
    async (request, reply) => {
      const { body } = await addTrackingLink(app, request, request.params.requestId, request.body);
      return reply.status(201).send(body);
    },
  );

  api.patch(
    '/staff/tracking-links/:linkId',
    {
      ...staff,
      schema: {
        tags: ['staff'],
        summary: 'Disables or enables a tracking link; a disabled link answers 404 and records nothing',
        params: LinkParams,
        body: TrackingLinkPatch,
        response: { 200: envelope(StaffTrackingLink) },
      },
    },
    async (request) => {
      const { body } = await switchTrackingLink(app, request, request.params.linkId, request.body.disabled);
      return body;
    },
  );
}
