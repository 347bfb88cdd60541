import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isSlug } from '../tracking/links.ts';

const SlugParams = z.object({ slug: z.string() });

/**
 * The page of an unknown, malformed or disabled link: one body for all three, so a visitor cannot tell
 * which, nor that the portal tracks anything. No script, no style, no link back to the portal.
 */
export const NOT_FOUND_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Not found</title></head>' +
  '<body><h1>Not found</h1><p>The page you asked for does not exist.</p></body></html>';

/** Where a link without a destination sends the visitor: an ordinary "expired link" page that says nothing about tracking. */
export const NEUTRAL_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<meta name="robots" content="noindex"><title>Link expired</title></head>' +
  '<body><h1>This link has expired</h1><p>Please ask the person who sent it for a new one.</p></body></html>';

/**
 * GET /t/:slug, public, outside /api: Track Master's capture (docs/decisions/010-track-master-links.md).
 * Answers at once, from the in-process slug cache, with a 302 to the link's destination or the neutral
 * page; the visit is queued and written after the answer (server/tracking/capture-service.ts). Nothing
 * it sends depends on whether the visit was recorded or rate-limited. The visitor's address is
 * request.ip: X-Forwarded-For counts only from TRUST_PROXY (app.ts). A HEAD request is answered the
 * same way and records nothing.
 */
export async function trackingRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/t/:slug',
    {
      schema: {
        tags: ['tracking'],
        summary: 'Track Master link: records the visit after answering, then redirects (302) to the destination or shows a neutral page; 404 page for an unknown or disabled link',
        params: SlugParams,
      },
    },
    async (request, reply) => {
      noTrace(reply);
      const { slug } = request.params;
      const link = isSlug(slug) ? await app.tracking.link(slug) : null;
      if (!link || link.disabled) return reply.status(404).type('text/html; charset=utf-8').send(NOT_FOUND_PAGE);
      if (request.method === 'GET') {
        app.tracking.capture(link, {
          ip: request.ip,
          time: new Date().toISOString(),
          userAgent: header(request.headers['user-agent']),
          referrer: header(request.headers.referer),
          language: header(request.headers['accept-language']),
        });
      }
      if (link.destination) return reply.redirect(link.destination, 302);
      return reply.type('text/html; charset=utf-8').send(NEUTRAL_PAGE);
    },
  );
}

/** Not kept by any cache (a second visit must reach us), not passed on as a referrer, not indexed. */
function noTrace(reply: FastifyReply) {
  reply.header('cache-control', 'no-store');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-robots-tag', 'noindex, nofollow');
}

function header(value: string | string[] | undefined): string | null {
  if (Array.isArray(value)) return value[0] ?? null;
  return value ?? null;
}
