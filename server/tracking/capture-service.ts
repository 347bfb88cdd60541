import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import type { Events } from '../platform/events.ts';
import { loadIpLookup } from './ip-lookup.ts';
import { type CachedLink, createLinkCache, DEFAULT_LINK_CACHE, type LinkCacheOptions } from './link-cache.ts';
import { takeHits } from '../platform/rate-counters.ts';
import { type CaptureLimits, createCaptureLimiter, DEFAULT_CAPTURE_LIMITS, sharedCaptureLimits } from './rate-limit.ts';
import { findLinkBySlug, recordVisit } from './record-visit.ts';
import { createWorkQueue } from './capture-queue.ts';
import type { CapturedRequest } from './visit-details.ts';

/** Visits waiting to be written at most; beyond, new ones are dropped with a warning (capture-queue.ts). */
export const CAPTURE_QUEUE_CAPACITY = 1000;

export interface CaptureService {
  /** The link behind a slug, from the in-process cache (link-cache.ts). */
  link(slug: string): Promise<CachedLink | null>;
  /** Queues the visit for writing if the rate limits allow it; never waits on the database. */
  capture(link: CachedLink, request: CapturedRequest): 'queued' | 'limited' | 'dropped';
  /** Forgets a slug after staff changed its link, so this instance answers the change at once. */
  forget(slug: string): void;
  /** Resolves when every queued visit is written (tests). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export interface CaptureServiceOptions {
  db: Db;
  events: Events;
  log: FastifyBaseLogger;
  limits?: CaptureLimits;
  cache?: LinkCacheOptions;
  capacity?: number;
}

/**
 * The capture pipeline behind GET /t/:slug: cached slug lookup → answer → rate limit → bounded queue →
 * shared rate limit → one transaction (record-visit.ts) → poke. The poke reaches the client's streams and every staff
 * stream (platform/events.ts), whose pull then carries the link's new counts.
 */
export function createCaptureService(options: CaptureServiceOptions): CaptureService {
  const { db, events, log } = options;
  const cache = createLinkCache(options.cache ?? DEFAULT_LINK_CACHE);
  const limiter = createCaptureLimiter(options.limits ?? DEFAULT_CAPTURE_LIMITS);
  const queue = createWorkQueue<{ linkId: string; request: CapturedRequest }>({
    capacity: options.capacity ?? CAPTURE_QUEUE_CAPACITY,
    concurrency: 2,
    async worker({ linkId, request }) {
      // Every instance's visits count here, so together they record no more than the limits.
      if (await takeHits(db, sharedCaptureLimits(linkId, request.ip, options.limits), Date.now())) return;
      const visit = await recordVisit(db, await loadIpLookup(), linkId, request);
      if (visit) await events.poke(visit.userId);
    },
    onDrop: ({ linkId }) => log.warn({ linkId }, 'tracking capture queue full: visit dropped'),
    onError: (err, { linkId }) => log.error({ err, linkId }, 'recording a tracking visit failed'),
  });
  return {
    link: (slug) => cache.get(slug, (s) => findLinkBySlug(db, s)),
    capture(link, request) {
      if (!limiter.allow(link.id, request.ip)) return 'limited';
      return queue.push({ linkId: link.id, request }) ? 'queued' : 'dropped';
    },
    forget: (slug) => cache.forget(slug),
    idle: () => queue.idle(),
    close: () => queue.close(),
  };
}
