import { createHash, randomInt } from 'node:crypto';
import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { PRODUCT_NAME } from '../../domain/notify-events.ts';
import {
  CODE_ALREADY_USED,
  type EnrolmentAnswer,
  LAST_FACTOR,
  RECOVERY_CODE_COUNT,
  SECOND_FACTOR_ATTEMPTS,
  SECOND_FACTOR_LOCKED,
  SECOND_FACTOR_WINDOW_MINUTES,
  type SecurityStatus,
  type TotpSetup,
  type VerifiedAnswer,
  type VerifyCodeBody,
  WRONG_CODE,
} from '../../domain/security.ts';
import type { Db } from '../db/client.ts';
import { passkeys, recoveryCodes, secondFactorFailures, sessions, totpFactors, users } from '../db/schema.ts';
import { conflict, HttpError, unauthorized } from '../platform/errors.ts';
import { isoTime } from '../platform/iso-time.ts';
import { writeAudit } from './audit.ts';

/**
 * The portal's own second factor, kept after the Firebase sign-in (docs/decisions/031-second-factor-and-sessions.md):
 * an authenticator app (TOTP, RFC 6238, SHA-1, 6 digits, 30 s) and one-time recovery codes here, passkeys in
 * passkeys.ts. A verification marks the caller's session (sessions.second_factor_at). Wrong codes are counted per
 * account in the database, so the limit holds across instances.
 */

const PERIOD = 30;
const DIGITS = 6;
/** One step either side: a phone's clock a little off, or a code typed as it turned. */
const WINDOW = 1;

export const actorOf = (request: FastifyRequest) => ({ uid: request.user.uid, email: request.user.email });
export const sessionOf = (request: FastifyRequest) => {
  if (!request.authSession) throw unauthorized();
  return request.authSession;
};

/** Staff and admins, and every account that has a factor, verify it in every session (server/plugins/auth.ts). */
export const factorRequired = (request: FastifyRequest) => request.user.isStaff || request.user.isAdmin || !!request.authSession?.accountHasFactor;

export function totpOf(secret: string, label: string): TOTP {
  return new TOTP({ issuer: PRODUCT_NAME, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD, secret: Secret.fromBase32(secret) });
}

/** The 30-second step a code belongs to, or null when it matches none within the window. */
export function totpStep(secret: string, code: string, now = Date.now()): number | null {
  const delta = totpOf(secret, '').validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? null : TOTP.counter({ period: PERIOD, timestamp: now }) + delta;
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A recovery code as shown: ten letters and digits in two groups ("k7p2m-x9q4t"), without look-alikes (0/o, 1/l/i). */
function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** The stored form of a recovery code (normalized as RecoveryCode parses it): a hash salted with the account. */
export function recoveryHash(uid: string, code: string): string {
  return createHash('sha256').update(`${uid}:${code.toLowerCase().replace(/[\s-]+/g, '')}`).digest('hex');
}

/** A new set of recovery codes for `uid`, replacing any earlier set; the codes as shown, once. */
export async function replaceRecoveryCodes(tx: Db, uid: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.uid, uid));
  await tx.insert(recoveryCodes).values(codes.map((code) => ({ uid, hash: recoveryHash(uid, code) })));
  return codes;
}

export async function markVerified(tx: Db, sessionId: string): Promise<string> {
  const [row] = await tx.update(sessions).set({ secondFactorAt: sql`now()` }).where(eq(sessions.id, sessionId)).returning({ at: sessions.secondFactorAt });
  return isoTime(row.at ?? new Date().toISOString());
}

/** What the account has: confirmed TOTP, passkeys, recovery codes left. */
export async function factorsOf(db: Db, uid: string): Promise<{ totp: boolean; passkeys: number; recoveryCodesLeft: number }> {
  const [totp] = await db.select({ confirmed: totpFactors.confirmedAt }).from(totpFactors).where(eq(totpFactors.uid, uid));
  const [keys] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.uid, uid));
  const [codes] = await db.select({ n: count() }).from(recoveryCodes).where(and(eq(recoveryCodes.uid, uid), isNull(recoveryCodes.usedAt)));
  return { totp: !!totp?.confirmed, passkeys: Number(keys.n), recoveryCodesLeft: Number(codes.n) };
}

export const hasFactor = (f: { totp: boolean; passkeys: number }) => f.totp || f.passkeys > 0;

/**
 * An account that already has a factor adds or changes one only from a session that verified it within the step-up
 * window: a stolen password alone must not be able to add the thief's own authenticator.
 */
export async function requireStepUpIfEnrolled(app: FastifyInstance, request: FastifyRequest, reply: Parameters<FastifyInstance['requireStepUp']>[1]) {
  if (hasFactor(await factorsOf(app.db, request.user.uid))) await app.requireStepUp(request, reply);
}

export async function securityStatus(db: Db, request: FastifyRequest): Promise<SecurityStatus> {
  const uid = request.user.uid;
  const session = sessionOf(request);
  const [row] = await db.select({ at: sessions.secondFactorAt }).from(sessions).where(eq(sessions.id, session.id));
  const keys = await db
    .select({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt })
    .from(passkeys)
    .where(eq(passkeys.uid, uid))
    .orderBy(asc(passkeys.createdAt));
  const factors = await factorsOf(db, uid);
  return {
    required: factorRequired(request),
    verifiedAt: row?.at ? isoTime(row.at) : null,
    passkeys: keys.map((k) => ({ id: k.id, name: k.name, createdAt: isoTime(k.createdAt), lastUsedAt: k.lastUsedAt ? isoTime(k.lastUsedAt) : null })),
    totp: factors.totp,
    recoveryCodesLeft: factors.recoveryCodesLeft,
  };
}

/** A verification's outcome inside the limited transaction: a failure is recorded and committed before it is answered. */
export type Attempt<T> = { ok: true; value: T } | { ok: false; error: HttpError };

export class LockedError extends HttpError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super(429, SECOND_FACTOR_LOCKED, `Too many wrong codes. Try again in ${Math.ceil(retryAfterSeconds / 60)} minutes.`, { retryAfterSeconds });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * Runs one second-factor check under the account's limit: at most SECOND_FACTOR_ATTEMPTS wrong ones in
 * SECOND_FACTOR_WINDOW_MINUTES, counted in the database under a lock on the user's row, so concurrent attempts on
 * several instances are counted one after the other. A wrong attempt is recorded (and committed) before the error.
 */
export async function limitedAttempt<T>(app: FastifyInstance, request: FastifyRequest, check: (tx: Db) => Promise<Attempt<T>>): Promise<T> {
  const actor = actorOf(request);
  const outcome = await app.db.transaction(async (tx) => {
    await tx.select({ uid: users.uid }).from(users).where(eq(users.uid, actor.uid)).for('update');
    const [recent] = await tx
      .select({
        n: count(),
        retryAfter: sql<string | number | null>`extract(epoch from min(${secondFactorFailures.at}) + make_interval(mins => ${SECOND_FACTOR_WINDOW_MINUTES}) - now())::float8`,
      })
      .from(secondFactorFailures)
      .where(and(eq(secondFactorFailures.uid, actor.uid), sql`${secondFactorFailures.at} > now() - make_interval(mins => ${SECOND_FACTOR_WINDOW_MINUTES})`));
    if (Number(recent.n) >= SECOND_FACTOR_ATTEMPTS) return { locked: Math.max(1, Math.ceil(Number(recent.retryAfter ?? 60))), result: null };
    const result = await check(tx);
    if (result.ok) return { locked: null, result };
    if (result.error.code === WRONG_CODE) {
      await tx.insert(secondFactorFailures).values({ uid: actor.uid });
      // Failures older than the window count for nothing: the account's own are dropped here, so the table stays small.
      await tx.delete(secondFactorFailures).where(and(eq(secondFactorFailures.uid, actor.uid), sql`${secondFactorFailures.at} < now() - make_interval(mins => ${SECOND_FACTOR_WINDOW_MINUTES})`));
      if (Number(recent.n) + 1 === SECOND_FACTOR_ATTEMPTS) {
        await writeAudit(tx, { actor, action: 'second-factor', entityType: 'user', entityId: actor.uid, subjectUid: actor.uid, before: null, after: { locked: true, minutes: SECOND_FACTOR_WINDOW_MINUTES } });
      }
    }
    return { locked: null, result };
  });
  if (outcome.locked !== null || !outcome.result) throw new LockedError(outcome.locked ?? 60);
  if (!outcome.result.ok) throw outcome.result.error;
  return outcome.result.value;
}

const wrongCode = (message: string) => ({ ok: false as const, error: new HttpError(400, WRONG_CODE, message) });

/** POST /api/security/totp: a new pending secret (replacing an earlier pending one); the confirmed one stays until confirmed. */
export async function setupTotp(app: FastifyInstance, request: FastifyRequest): Promise<TotpSetup> {
  const uid = request.user.uid;
  const secret = new Secret({ size: 20 }).base32;
  await app.db
    .insert(totpFactors)
    .values({ uid, pendingSecret: secret, pendingCreatedAt: sql`now()` })
    .onConflictDoUpdate({ target: totpFactors.uid, set: { pendingSecret: secret, pendingCreatedAt: sql`now()` } });
  return { secret, uri: totpOf(secret, request.user.email || uid).toString() };
}

/** POST /api/security/totp/confirm: the pending secret becomes the account's; the first factor ever brings recovery codes. */
export async function confirmTotp(app: FastifyInstance, request: FastifyRequest, code: string): Promise<EnrolmentAnswer> {
  const actor = actorOf(request);
  const session = sessionOf(request);
  return limitedAttempt(app, request, async (tx) => {
    const [row] = await tx.select().from(totpFactors).where(eq(totpFactors.uid, actor.uid));
    if (!row?.pendingSecret) return { ok: false, error: conflict('NO_PENDING_TOTP', 'Start the authenticator setup first.') };
    const step = totpStep(row.pendingSecret, code);
    if (step === null) return wrongCode('That code does not match: check the time on your phone and enter the newest code.');
    const before = await factorsOf(tx, actor.uid);
    await tx
      .update(totpFactors)
      .set({ secret: row.pendingSecret, confirmedAt: sql`now()`, pendingSecret: null, pendingCreatedAt: null, lastStep: step })
      .where(eq(totpFactors.uid, actor.uid));
    await markVerified(tx, session.id);
    const recovery = hasFactor(before) ? undefined : await replaceRecoveryCodes(tx, actor.uid);
    await writeAudit(tx, { actor, action: 'second-factor', entityType: 'user', entityId: actor.uid, subjectUid: actor.uid, before: { totp: before.totp }, after: { totp: true, replaced: before.totp } });
    return { ok: true, value: recovery ? { recoveryCodes: recovery } : {} };
  });
}

/** POST /api/security/verify: an authenticator code or a recovery code (used up) as this session's second factor. */
export async function verifyCode(app: FastifyInstance, request: FastifyRequest, body: VerifyCodeBody): Promise<VerifiedAnswer> {
  const actor = actorOf(request);
  const session = sessionOf(request);
  return limitedAttempt(app, request, async (tx) => {
    if (body.method === 'totp') {
      const [row] = await tx.select().from(totpFactors).where(eq(totpFactors.uid, actor.uid));
      if (!row?.secret) return { ok: false, error: conflict('NO_TOTP', 'This account has no authenticator app: use a passkey or a recovery code.') };
      const step = totpStep(row.secret, body.code);
      if (step === null) return wrongCode('That code does not match: check the time on your phone and enter the newest code.');
      if (row.lastStep !== null && step <= row.lastStep) {
        return { ok: false, error: new HttpError(400, CODE_ALREADY_USED, 'This code was just used: wait for the next one in your authenticator app.') };
      }
      await tx.update(totpFactors).set({ lastStep: step }).where(eq(totpFactors.uid, actor.uid));
    } else {
      const [used] = await tx
        .update(recoveryCodes)
        .set({ usedAt: sql`now()` })
        .where(and(eq(recoveryCodes.uid, actor.uid), eq(recoveryCodes.hash, recoveryHash(actor.uid, body.code)), isNull(recoveryCodes.usedAt)))
        .returning({ id: recoveryCodes.id });
      if (!used) return wrongCode('That recovery code is not valid, or was used already.');
      await writeAudit(tx, { actor, action: 'second-factor', entityType: 'user', entityId: actor.uid, subjectUid: actor.uid, before: null, after: { recoveryCodeUsed: true } });
    }
    const verifiedAt = await markVerified(tx, session.id);
    return { ok: true, value: { verifiedAt, recoveryCodesLeft: (await factorsOf(tx, actor.uid)).recoveryCodesLeft } };
  });
}

/** DELETE /api/security/totp (step-up): refused when it is the last factor of an account that must have one. */
export async function removeTotp(app: FastifyInstance, request: FastifyRequest): Promise<void> {
  const actor = actorOf(request);
  await app.db.transaction(async (tx) => {
    await tx.select({ uid: users.uid }).from(users).where(eq(users.uid, actor.uid)).for('update');
    const factors = await factorsOf(tx, actor.uid);
    if (!factors.totp) return;
    if (factorRequired(request) && factors.passkeys === 0) throw lastFactor();
    await tx.delete(totpFactors).where(eq(totpFactors.uid, actor.uid));
    if (factors.passkeys === 0) await tx.delete(recoveryCodes).where(eq(recoveryCodes.uid, actor.uid));
    await writeAudit(tx, { actor, action: 'second-factor', entityType: 'user', entityId: actor.uid, subjectUid: actor.uid, before: { totp: true }, after: { totp: false } });
  });
}

/** POST /api/security/recovery-codes (step-up): a new set; the earlier codes stop working. */
export async function renewRecoveryCodes(app: FastifyInstance, request: FastifyRequest): Promise<string[]> {
  const actor = actorOf(request);
  return app.db.transaction(async (tx) => {
    if (!hasFactor(await factorsOf(tx, actor.uid))) throw conflict('NO_FACTOR', 'Add a passkey or an authenticator app first: recovery codes stand in for them.');
    const codes = await replaceRecoveryCodes(tx, actor.uid);
    await writeAudit(tx, { actor, action: 'second-factor', entityType: 'user', entityId: actor.uid, subjectUid: actor.uid, before: null, after: { recoveryCodesRenewed: true } });
    return codes;
  });
}

export const lastFactor = () => conflict(LAST_FACTOR, 'Staff accounts must keep a second factor: add another passkey or an authenticator app before removing this one.');
