import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isUploadedFile } from './uploads.ts';
import type { Db } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema.ts';
import { HttpError } from '../platform/errors.ts';
import { KEY_PATTERN, keyReused } from '../services/command-ids.ts';

/** A claim still "running" after this long belongs to a crashed attempt and may be taken over. */
const STALE_CLAIM_MS = 2 * 60 * 1000;
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyRequest {
    /** The command id (the Idempotency-Key header) this request holds for its user while it runs. */
    commandClaim: { userId: string; commandId: string; settledStatus?: number } | null;
  }
}

/**
 * Same user, same Idempotency-Key: same request (method, path with its parameters, body) replays the
 * stored first answer (nothing new is stored), a different one is 422, and a first attempt still
 * running is 409. The claim is one INSERT … ON CONFLICT DO NOTHING on (user, command id), so concurrent
 * replays cannot both run. Every write route settles the claim inside the transaction of its change
 * (settleInTransaction), so a crash leaves both or neither; onSend settles answers that commit nothing
 * (a refusal, an error) and frees the command id after a retryable one.
 * Its hooks sit on the root, so they wrap every route; a request without a checked token has no
 * user and passes through.
 */
export const idempotencyPlugin = fp(
  async (app) => {
    app.decorateRequest('commandClaim', null);
    app.addHook('preHandler', async (request, reply) => claimOrReplay(app.db, request, reply));
    app.addHook('onSend', async (request, reply, payload) => {
      await settleClaim(app.db, request, reply.statusCode, payload);
      return payload;
    });
  },
  { name: 'idempotency', dependencies: ['database', 'auth'] },
);

async function claimOrReplay(db: Db, request: FastifyRequest, reply: FastifyReply) {
  const commandId = request.headers['idempotency-key'];
  if (!MUTATING.has(request.method) || commandId === undefined || !request.userOrNull) return;
  if (typeof commandId !== 'string' || !KEY_PATTERN.test(commandId)) {
    throw new HttpError(400, 'BAD_IDEMPOTENCY_KEY', 'Idempotency-Key must be 8 to 128 letters, digits, - or _');
  }
  const userId = request.userOrNull.uid;
  const path = requestPath(request);
  const bodyHash = hashRequest(request, path);
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ userId, commandId, method: request.method, path, bodyHash, state: 'running' })
    .onConflictDoNothing()
    .returning({ commandId: idempotencyKeys.commandId });
  if (claimed.length === 1) {
    request.commandClaim = { userId, commandId };
    return;
  }
  const [existing] = await db.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.commandId, commandId)));
  if (!existing) throw new HttpError(409, 'IDEMPOTENCY_RETRY', 'Please retry this request');
  if (existing.bodyHash !== bodyHash || existing.method !== request.method || existing.path !== path) throw keyReused();
  if (existing.state === 'running') {
    await takeOverStaleClaim(db, userId, commandId, existing.createdAt);
    request.commandClaim = { userId, commandId };
    return;
  }
  reply.header('idempotent-replayed', 'true');
  return reply.status(existing.responseStatus ?? 200).send(existing.responseBody);
}

/** A running claim younger than STALE_CLAIM_MS is 409; an older one belongs to a crashed attempt and is taken over. */
async function takeOverStaleClaim(db: Db, userId: string, commandId: string, createdAt: string) {
  const inProgress = () => new HttpError(409, 'IDEMPOTENCY_IN_PROGRESS', 'The first request with this Idempotency-Key is still being processed');
  if (Date.now() - Date.parse(createdAt) < STALE_CLAIM_MS) throw inProgress();
  const retaken = await db
    .update(idempotencyKeys)
    .set({ createdAt: sql`now()` })
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.commandId, commandId), eq(idempotencyKeys.createdAt, createdAt)))
    .returning({ commandId: idempotencyKeys.commandId });
  if (retaken.length !== 1) throw inProgress();
}

async function settleClaim(db: Db, request: FastifyRequest, status: number, payload: unknown) {
  const claim = request.commandClaim;
  if (!claim) return;
  request.commandClaim = null;
  // The handler's transaction stored this very answer: the claim is done, and the UPDATE below would change
  // nothing. Any other answer (the transaction failed after settling, at COMMIT say) still goes below.
  if (claim.settledStatus === status) return;
  // Still running only: a claim the handler settled in its transaction is final, whatever happened after commit.
  const where = and(eq(idempotencyKeys.userId, claim.userId), eq(idempotencyKeys.commandId, claim.commandId), eq(idempotencyKeys.state, 'running'));
  if (isRetryable(status)) {
    // Nothing was committed that the client may rely on, and the client will send the same command id
    // again (docs/decisions/001-delta-sync-and-idempotency.md): free it, or the retry would get this
    // failure replayed forever. When the database itself is what failed, the claim cannot be freed now: it
    // stays running until its takeover time, and the client's retries meanwhile hear that it still runs. The
    // answer goes out as it is (the 503 in words), never replaced by this hook's own failure.
    await db.delete(idempotencyKeys).where(where).catch((err: unknown) => request.log.warn({ err }, 'idempotency claim not freed'));
    return;
  }
  const body = typeof payload === 'string' ? safeJson(payload) : null;
  await db.update(idempotencyKeys).set({ state: 'done', responseStatus: status, responseBody: body }).where(where);
}

/**
 * Answers after which the outbox sends the same command again: 5xx, 429 and 408 (back off, retry) and
 * 401 (a fresh token, then retry). Authentication and rate limits normally answer before the claim
 * is taken; this covers any that answer after it. Other 4xx are final and are replayed.
 */
export function isRetryable(status: number): boolean {
  return status >= 500 || status === 401 || status === 408 || status === 429;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The path as sent, with its parameters and without the query string: the same key and body to
 * /contact/A/replies and then /contact/B/replies are two different requests, not a replay.
 */
function requestPath(request: FastifyRequest): string {
  const query = request.url.indexOf('?');
  return query === -1 ? request.url : request.url.slice(0, query);
}

/**
 * Hash of method, path (with its parameters) and body; file parts contribute their bytes' hash, not
 * their buffers. For a route without parameters the path is its pattern, as hashed before parameters
 * were, so claims stored then still match.
 */
function hashRequest(request: FastifyRequest, path: string): string {
  const normalised = JSON.stringify(request.body ?? null, (_key, value) => {
    if (isUploadedFile(value)) return { filename: value.filename, sha256: value.stored.sha256 };
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)));
    }
    return value;
  });
  return createHash('sha256').update(`${request.method} ${path}\n${normalised}`).digest('hex');
}
