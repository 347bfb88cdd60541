import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '../../domain/schemas.ts';
import { NewTrackingLinkBody, StaffTrackingLink, TrackingLinkPatch } from '../../domain/tracking.ts';
import { commandIdOf } from '../services/command-ids.ts';
import { lockRequest, staffWrite } from '../services/staff-write.ts';
import { checkTrackingLinkRequest, createTrackingLink, lockTrackingLink, setTrackingLinkDisabled, toStaffTrackingLink } from '../tracking/links.ts';

const RequestParams = z.strictObject({ requestId: z.string().max(100, 'requestId must be at most 100 characters') });
const LinkParams = z.strictObject({ linkId: z.string().max(100, 'linkId must be at most 100 characters') });

/**
 * Staff writes on Track Master tracking links (docs/api.md, "Tracking links"). As every staff write
 * (staffWrite): the row is locked, the change and its audit row commit in one transaction, and the client is poked
 * after the commit (their feed carries the link; the poke reaches staff streams too, events.ts).
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
      const { body } = await staffWrite(app, request, {
        lock: (tx) => lockRequest(tx, request.params.requestId),
        check: (_tx, row) => checkTrackingLinkRequest(row),
        change: (tx, row, actor) => createTrackingLink(tx, row, request.body, actor, commandIdOf(request)),
        status: 201,
        answer: (link) => ({ data: toStaffTrackingLink(link) }),
        poke: (link) => ({ client: link.userId }),
      });
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
      const { body } = await staffWrite(app, request, {
        lock: (tx) => lockTrackingLink(tx, request.params.linkId),
        change: (tx, row, actor) => setTrackingLinkDisabled(tx, row, request.body.disabled, actor),
        status: 200,
        answer: (link) => ({ data: toStaffTrackingLink(link) }),
        // This instance answers the change at once; others within the slug cache's TTL (link-cache.ts).
        afterCommit: (link) => app.tracking.forget(link.slug),
        poke: (link) => ({ client: link.userId }),
      });
      return body;
    },
  );
}
