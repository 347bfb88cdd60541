import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { NewTrackingLinkBody } from '../../domain/tracking.ts';
import { checkTrackingLinkRequest, createTrackingLink, lockTrackingLink, setTrackingLinkDisabled, toStaffTrackingLink } from '../tracking/links.ts';
import { commandIdOf } from './command-ids.ts';
import { lockRequest, staffWrite } from './staff-write.ts';

/**
 * Staff writes on Track Master tracking links (docs/api.md, "Tracking links"), each one staffWrite: the row is
 * locked, the change and its audit row commit in one transaction, and the client is poked after the commit (their
 * feed carries the link; the poke reaches staff streams too, platform/events.ts).
 */

/** A new link, stored once per Idempotency-Key, on a Track Master request that is In Progress. */
export function addTrackingLink(app: FastifyInstance, request: FastifyRequest, requestId: string, body: NewTrackingLinkBody) {
  return staffWrite(app, request, {
    lock: (tx) => lockRequest(tx, requestId),
    check: (_tx, row) => checkTrackingLinkRequest(row),
    change: (tx, row, actor) => createTrackingLink(tx, row, body, actor, commandIdOf(request)),
    status: 201,
    answer: (link) => ({ data: toStaffTrackingLink(link) }),
    poke: (link) => ({ client: link.userId }),
  });
}

/** A disabled link answers 404 and records nothing. */
export function switchTrackingLink(app: FastifyInstance, request: FastifyRequest, linkId: string, disabled: boolean) {
  return staffWrite(app, request, {
    lock: (tx) => lockTrackingLink(tx, linkId),
    change: (tx, row, actor) => setTrackingLinkDisabled(tx, row, disabled, actor),
    status: 200,
    answer: (link) => ({ data: toStaffTrackingLink(link) }),
    // This instance answers the change at once; others within the slug cache's TTL (tracking/link-cache.ts).
    afterCommit: (link) => app.tracking.forget(link.slug),
    poke: (link) => ({ client: link.userId }),
  });
}
