import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { HttpError } from '../platform/errors.ts';
import { type Limit, pruneRateCounters, takeHits } from '../platform/rate-counters.ts';
import { formatBytes } from '../files/storage.ts';
import type { AuthUser } from './auth.ts';
import { hasStoredAnswer } from '../services/command-ids.ts';
import { isMultipartRequest, isUploadedFile } from './uploads.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What a write without a token counts against, instead of the caller's address: a public route whose callers
     * share addresses (mail providers' servers posting one-click unsubscribes) names what each request is about.
     */
    anonymousWriteKey?: (request: FastifyRequest) => string;
  }
}

/** See docs/decisions/012-write-limits.md. */
export interface WriteLimits {
  /** Approved clients, staff and admins: writes per user per minute. */
  writesPerMinute: number;
  /** Accounts awaiting approval (leads): writes per minute and per day. */
  leadWritesPerMinute: number;
  leadWritesPerDay: number;
  /** Leads' upload quota per day: files, and bytes (as sent, counted before the body is read). */
  leadUploadFilesPerDay: number;
  leadUploadBytesPerDay: number;
  /** Writes without a token (POST /api/user/not-crm-exists) per client address per minute. */
  anonymousWritesPerMinute: number;
  /** Multipart requests one user may have in flight on one instance. */
  uploadsInFlight: number;
}

export interface WriteLimitOptions {
  /** Overrides of the limits the config sets. */
  limits?: Partial<WriteLimits>;
  /** The clock the windows are cut from: Date.now() by default, read on every request, so a test that freezes Date freezes the windows. */
  now?: () => number;
  /** How often this instance deletes windows that are over. */
  pruneEveryMs?: number;
}

export function writeLimitsFromConfig(config: Config): WriteLimits {
  return {
    writesPerMinute: config.WRITE_LIMIT_PER_MINUTE,
    leadWritesPerMinute: config.LEAD_WRITE_LIMIT_PER_MINUTE,
    leadWritesPerDay: config.LEAD_WRITE_LIMIT_PER_DAY,
    leadUploadFilesPerDay: config.LEAD_UPLOAD_FILES_PER_DAY,
    leadUploadBytesPerDay: config.LEAD_UPLOAD_MB_PER_DAY * 1024 * 1024,
    anonymousWritesPerMinute: 5,
    uploadsInFlight: config.UPLOADS_IN_FLIGHT_PER_USER,
  };
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * Per-user write limits on every POST/PUT/PATCH/DELETE under /api (test-only /api/__test routes
 * aside). The counters are rows of rate_counters, bumped by one upsert per request, so every instance
 * on one database counts against the same limit. The in-flight upload cap is per instance: it bounds
 * this process's memory, which is what it is for.
 *
 * The checks run in preParsing, after the route's onRequest guard has identified the caller and
 * before the body is read, so a refused request costs one upsert and no buffered body. That is before
 * the idempotency plugin's preHandler, so a request over the limit whose Idempotency-Key already holds
 * a stored answer is let through to be replayed: the outbox's retry of a command that was done gets
 * its answer rather than a 429 it would retry forever.
 */
export const writeLimitsPlugin = fp<WriteLimitOptions>(
  async (app, options) => {
    const limits = { ...writeLimitsFromConfig(app.config), ...options.limits };
    const now = options.now ?? (() => Date.now());
    const uploads = uploadSlots(limits.uploadsInFlight);
    const slotOf = new WeakMap<FastifyRequest, () => void>();

    app.addHook('preParsing', async (request, reply, payload) => {
      if (!isLimitedWrite(request)) return payload;
      const releaseSlot = isMultipartRequest(request) ? await takeUploadSlot(app, request, reply, uploads) : undefined;
      // The slot is held until the answer is sent or the connection is gone, whichever comes first.
      if (releaseSlot) {
        reply.raw.once('close', releaseSlot);
        slotOf.set(request, releaseSlot);
      }
      try {
        await enforce(app, request, reply, writeHits(request, limits), now());
      } catch (err) {
        releaseSlot?.();
        throw err;
      }
      return payload;
    });
    // The files of a lead's upload are known once the body is parsed (a part is a file, not a field).
    app.addHook('preValidation', async (request, reply) => {
      const user = request.userOrNull;
      if (!isLimitedWrite(request) || !isMultipartRequest(request) || !user || !isLead(user)) return;
      const files = countFileParts(request.body);
      const hit = { key: `upload-files:${user.uid}`, window: '1d' as const, amount: files, max: limits.leadUploadFilesPerDay, refusal: uploadQuotaRefusal(limits) };
      if (files > 0) await enforce(app, request, reply, [hit], now());
    });
    app.addHook('onResponse', async (request) => slotOf.get(request)?.());

    let timer: NodeJS.Timeout | undefined;
    const prune = () => pruneRateCounters(app.db, now()).catch((err: unknown) => app.log.error(err, 'pruning rate counters failed'));
    app.addHook('onReady', async () => {
      timer = setInterval(prune, options.pruneEveryMs ?? PRUNE_EVERY_MS);
      timer.unref();
    });
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'write-limits', dependencies: ['config', 'database', 'auth'] },
);

/** A write under /api that the limits apply to: not a test-only route, not a path with no route. */
function isLimitedWrite(request: FastifyRequest): boolean {
  return MUTATING.has(request.method) && request.url.startsWith('/api/') && !request.url.startsWith('/api/__test') && !request.is404;
}

/** An account awaiting approval: neither an approved client nor staff (every admin is staff). */
function isLead(user: AuthUser): boolean {
  return !user.isClient && !user.isStaff && !user.isAdmin;
}

/** Each limit is a counter and its maximum, with the words the refusal uses. */
interface LimitedHit extends Limit {
  refusal: (retryIn: string) => string;
}

function writeHits(request: FastifyRequest, limits: WriteLimits): LimitedHit[] {
  const user = request.userOrNull;
  if (!user) {
    const key = request.routeOptions.config.anonymousWriteKey?.(request) ?? `anonymous:${request.ip}`;
    return [{ key, window: '1m', max: limits.anonymousWritesPerMinute, refusal: (after) => `Too many requests. Please try again in ${after}.` }];
  }
  if (!isLead(user)) {
    return [{ key: `writes:${user.uid}`, window: '1m', max: limits.writesPerMinute, refusal: (after) => `Too many requests: at most ${limits.writesPerMinute} changes a minute. Please try again in ${after}.` }];
  }
  const awaiting = 'an account awaiting approval can make at most';
  const hits: LimitedHit[] = [
    { key: `writes:${user.uid}`, window: '1m', max: limits.leadWritesPerMinute, refusal: (after) => `Too many requests: ${awaiting} ${limits.leadWritesPerMinute} changes a minute. Please try again in ${after}.` },
    { key: `writes:${user.uid}`, window: '1d', max: limits.leadWritesPerDay, refusal: (after) => `Too many requests: ${awaiting} ${limits.leadWritesPerDay} changes a day. Please try again in ${after}.` },
  ];
  if (isMultipartRequest(request)) hits.push({ key: `upload-bytes:${user.uid}`, window: '1d', amount: declaredLength(request), max: limits.leadUploadBytesPerDay, refusal: uploadQuotaRefusal(limits) });
  return hits;
}

function uploadQuotaRefusal(limits: WriteLimits) {
  return (after: string) =>
    `Upload quota reached: an account awaiting approval can upload at most ${limits.leadUploadFilesPerDay} files and ${formatBytes(limits.leadUploadBytesPerDay)} a day. Please try again in ${after}.`;
}

/**
 * The byte quota is charged what the request says it sends, before a byte is read; a lead's upload
 * that does not say (chunked) is refused rather than read without a bound on what it costs.
 */
function declaredLength(request: FastifyRequest): number {
  const length = Number(request.headers['content-length']);
  if (!Number.isSafeInteger(length) || length < 0) throw new HttpError(411, 'LENGTH_REQUIRED', 'Uploads from an account awaiting approval must state their Content-Length');
  return length;
}

/** Counts the request against its limits; over any of them it is refused with 429 and Retry-After, unless it is a replay. */
async function enforce(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, hits: LimitedHit[], now: number) {
  const over = await takeHits(app.db, hits, now);
  if (!over) return;
  if (await hasStoredAnswer(app.db, request)) return;
  // The refusal names the limit that frees up last: retrying sooner would be refused again.
  const last = over.reduce((a, b) => (b.resetInMs > a.resetInMs ? b : a));
  const seconds = retryAfter(reply, last.resetInMs);
  throw new HttpError(429, 'RATE_LIMITED', last.limit.refusal(humanDuration(seconds)));
}

/** Sets Retry-After (whole seconds, at least 1) and returns it. */
function retryAfter(reply: FastifyReply, ms: number): number {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  reply.header('retry-after', String(seconds));
  return seconds;
}

export function humanDuration(seconds: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (seconds < 60) return plural(seconds, 'second');
  if (seconds < 3600) return plural(Math.ceil(seconds / 60), 'minute');
  return plural(Math.ceil(seconds / 3600), 'hour');
}

/** Each file part (server/plugins/uploads.ts) counts as one file. */
function countFileParts(body: unknown): number {
  if (!body || typeof body !== 'object') return 0;
  let n = 0;
  for (const value of Object.values(body)) {
    for (const part of Array.isArray(value) ? value : [value]) {
      if (isUploadedFile(part)) n++;
    }
  }
  return n;
}

/** The uploads each user has in flight on this instance. */
function uploadSlots(max: number) {
  const inFlight = new Map<string, number>();
  return {
    /** A release function, or null when the user already has `max` uploads running. */
    take(uid: string): (() => void) | null {
      const n = inFlight.get(uid) ?? 0;
      if (n >= max) return null;
      inFlight.set(uid, n + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (inFlight.get(uid) ?? 1) - 1;
        if (left > 0) inFlight.set(uid, left);
        else inFlight.delete(uid);
      };
    },
    max,
  };
}

/** The third upload of a user while two are still being received is refused at once, before its body is read. */
async function takeUploadSlot(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, slots: ReturnType<typeof uploadSlots>): Promise<(() => void) | undefined> {
  const user = request.userOrNull;
  if (!user) return undefined;
  const release = slots.take(user.uid);
  if (release) return release;
  if (await hasStoredAnswer(app.db, request)) return undefined;
  retryAfter(reply, 1000);
  throw new HttpError(429, 'RATE_LIMITED', `Too many uploads at once: at most ${slots.max} can be sent at the same time. Please wait for one to finish and try again.`);
}
