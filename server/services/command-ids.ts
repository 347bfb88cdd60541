import { and, eq, lt, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema.ts';
import { HttpError } from '../platform/errors.ts';

/**
 * Command ids: the Idempotency-Key a client sends with each outbox command, once the idempotency plugin
 * (server/plugins/idempotency.ts) has claimed it for the request. A write route stores it as its row's
 * client_key, creates that row once per command id, and settles the claim in the transaction of its change.
 * The TypeScript calls it commandId everywhere (Drizzle's `commandId` is the column client_key): the SQL name stays,
 * since renaming seven columns and their unique indexes would change no behaviour and every migration and backup
 * already says client_key.
 */

/** How long a command id's claim and stored answer are kept before pruneIdempotencyKeys deletes them. */
export const KEY_TTL_DAYS = 30;
/** The Idempotency-Key's accepted form: 8 to 128 letters, digits, '-' or '_'. */
export const KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

export const keyReused = () => new HttpError(422, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for a different request');

/** The request's Idempotency-Key once claimed: what a route stores as the row's client_key. */
export function commandIdOf(request: FastifyRequest): string | null {
  return request.commandClaim?.commandId ?? null;
}

/**
 * Marks the claim done with this answer inside the handler's transaction, so the change and its
 * record commit together: no crash can leave a committed change under a claim still "running" that
 * a later attempt would take over and run again. onSend then finds the claim done and leaves it.
 * Call it last in the transaction, with the answer the route sends.
 */
export async function settleInTransaction(tx: Db, request: FastifyRequest, status: number, body: unknown): Promise<void> {
  const claim = request.commandClaim;
  if (!claim) return;
  await tx
    .update(idempotencyKeys)
    .set({ state: 'done', responseStatus: status, responseBody: body })
    .where(and(eq(idempotencyKeys.userId, claim.userId), eq(idempotencyKeys.commandId, claim.commandId), eq(idempotencyKeys.state, 'running')));
  claim.settledStatus = status;
}

/**
 * The row a keyed command created: the one its key already stored (a rerun of a crashed attempt
 * whose claim was taken over), else the one `insert` stores now. `insert` must be ON CONFLICT DO
 * NOTHING on the table's client-key unique index, so attempts racing past `find` store one row and
 * all answer it. Without a key, `insert` simply runs.
 */
export async function insertOnce<T>(
  commandId: string | null,
  find: (commandId: string) => Promise<T | undefined>,
  insert: () => Promise<T | undefined>,
): Promise<{ row: T; created: boolean }> {
  const first = commandId === null ? undefined : await find(commandId);
  if (first) return { row: first, created: false };
  const inserted = await insert();
  if (inserted) return { row: inserted, created: true };
  const raced = commandId === null ? undefined : await find(commandId);
  if (!raced) throw new Error('insert stored nothing and no row has its command id');
  return { row: raced, created: false };
}

/** ON CONFLICT target of a table's partial unique index on (owner, client_key) WHERE client_key IS NOT NULL. */
export function commandIdConflict(owner: PgColumn, commandId: PgColumn) {
  return { target: [owner, commandId], where: sql`client_key IS NOT NULL` };
}

/**
 * Whether this request's Idempotency-Key already holds a stored answer of its user: the request will
 * be answered from it (replayed, or 422 for another body) and changes nothing, so the write limits
 * (server/plugins/write-limits.ts) let it through even when the user is over a limit.
 */
export async function hasStoredAnswer(db: Db, request: FastifyRequest): Promise<boolean> {
  const key = request.headers['idempotency-key'];
  const user = request.userOrNull;
  if (typeof key !== 'string' || !KEY_PATTERN.test(key) || !user) return false;
  const [row] = await db
    .select({ state: idempotencyKeys.state })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, user.uid), eq(idempotencyKeys.commandId, key)));
  return row?.state === 'done';
}

/** Deletes the stored answers older than KEY_TTL_DAYS: main.ts runs it at start and then daily. */
export async function pruneIdempotencyKeys(db: Db): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, sql`now() - make_interval(days => ${KEY_TTL_DAYS})`));
}

