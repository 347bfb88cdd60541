import { and, count, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { PRODUCT_NAME } from '../../domain/notify-events.ts';
import { type EnrolmentAnswer, MAX_PASSKEYS, type VerifiedAnswer, WRONG_CODE } from '../../domain/security.ts';
import type { Db } from '../db/client.ts';
import { passkeys, recoveryCodes, webauthnChallenges } from '../db/schema.ts';
import { conflict, HttpError, notFound } from '../platform/errors.ts';
import { isoTime } from '../platform/iso-time.ts';
import { writeAudit } from './audit.ts';
import { actorOf, factorRequired, factorsOf, hasFactor, lastFactor, limitedAttempt, markVerified, replaceRecoveryCodes, sessionOf } from './second-factor.ts';

/**
 * Passkeys (WebAuthn) with @simplewebauthn/server: registration and authentication, each a challenge stored per
 * session for CHALLENGE_MINUTES and used once. The relying party is the portal's public address (PUBLIC_URL, or
 * http://localhost:PORT locally); a local server also accepts a page on another localhost port (the Vite dev server).
 */

const CHALLENGE_MINUTES = 5;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function relyingParty(app: FastifyInstance, request: FastifyRequest): { rpID: string; origins: string[] } {
  const url = new URL(app.config.email.publicUrl);
  const origins = [url.origin];
  const origin = request.headers.origin;
  if (app.config.local && typeof origin === 'string' && /^http:\/\/localhost(:\d+)?$/.test(origin) && url.hostname === 'localhost') origins.push(origin);
  return { rpID: url.hostname, origins };
}

async function saveChallenge(db: Db, sessionId: string, purpose: 'register' | 'authenticate', challenge: string) {
  const expiresAt = sql`now() + make_interval(mins => ${CHALLENGE_MINUTES})`;
  await db
    .insert(webauthnChallenges)
    .values({ sessionId, purpose, challenge, expiresAt })
    .onConflictDoUpdate({ target: [webauthnChallenges.sessionId, webauthnChallenges.purpose], set: { challenge, expiresAt } });
}

/** The session's pending challenge of this purpose, removed (a challenge is used once); null when none or expired. */
async function takeChallenge(db: Db, sessionId: string, purpose: 'register' | 'authenticate'): Promise<string | null> {
  const [row] = await db
    .delete(webauthnChallenges)
    .where(and(eq(webauthnChallenges.sessionId, sessionId), eq(webauthnChallenges.purpose, purpose)))
    .returning({ challenge: webauthnChallenges.challenge, live: sql<boolean>`${webauthnChallenges.expiresAt} > now()` });
  return row?.live ? row.challenge : null;
}

const noChallenge = () => conflict('NO_CHALLENGE', 'The passkey request expired: try again.');

/** POST /api/security/passkeys/options: what the browser's navigator.credentials.create needs. */
export async function registrationOptions(app: FastifyInstance, request: FastifyRequest): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { uid, email } = request.user;
  const existing = await app.db.select({ id: passkeys.credentialId, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.uid, uid));
  if (existing.length >= MAX_PASSKEYS) throw conflict('TOO_MANY_PASSKEYS', `At most ${MAX_PASSKEYS} passkeys: remove one first.`);
  const options = await generateRegistrationOptions({
    rpName: PRODUCT_NAME,
    rpID: relyingParty(app, request).rpID,
    userName: email || uid,
    userID: new TextEncoder().encode(uid),
    attestationType: 'none',
    excludeCredentials: existing.map((k) => ({ id: k.id, transports: k.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await saveChallenge(app.db, sessionOf(request).id, 'register', options.challenge);
  return options;
}

/** POST /api/security/passkeys: checks the browser's registration and keeps the passkey; the first factor ever brings recovery codes. */
export async function registerPasskey(app: FastifyInstance, request: FastifyRequest, body: { name: string; response: Record<string, unknown> }): Promise<EnrolmentAnswer> {
  const actor = actorOf(request);
  const session = sessionOf(request);
  const challenge = await takeChallenge(app.db, session.id, 'register');
  if (!challenge) throw noChallenge();
  const { rpID, origins } = relyingParty(app, request);
  const checked = await verifyRegistrationResponse({
    response: body.response as unknown as RegistrationResponseJSON,
    expectedChallenge: challenge,
    expectedOrigin: origins,
    expectedRPID: rpID,
    requireUserVerification: false,
  }).catch((err: unknown) => {
    throw new HttpError(400, 'PASSKEY_INVALID', `The passkey could not be registered: ${(err as Error).message}`);
  });
  if (!checked.verified) throw new HttpError(400, 'PASSKEY_INVALID', 'The passkey could not be registered.');
  const { credential } = checked.registrationInfo;
  return app.db.transaction(async (tx) => {
    const before = await factorsOf(tx, actor.uid);
    if (before.passkeys >= MAX_PASSKEYS) throw conflict('TOO_MANY_PASSKEYS', `At most ${MAX_PASSKEYS} passkeys: remove one first.`);
    const [row] = await tx
      .insert(passkeys)
      .values({
        uid: actor.uid,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? [],
        name: body.name,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw conflict('PASSKEY_EXISTS', 'This passkey is registered already.');
    await markVerified(tx, session.id);
    const recovery = hasFactor(before) ? undefined : await replaceRecoveryCodes(tx, actor.uid);
    await writeAudit(tx, { actor, action: 'second-factor', entityType: 'user', entityId: actor.uid, subjectUid: actor.uid, before: null, after: { passkeyAdded: row.id, name: row.name } });
    return {
      passkey: { id: row.id, name: row.name, createdAt: isoTime(row.createdAt), lastUsedAt: null },
      ...(recovery ? { recoveryCodes: recovery } : {}),
    };
  });
}

/** POST /api/security/passkeys/verify/options: a challenge for navigator.credentials.get, limited to the account's passkeys. */
export async function authenticationOptions(app: FastifyInstance, request: FastifyRequest): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const keys = await app.db.select({ id: passkeys.credentialId, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.uid, request.user.uid));
  if (keys.length === 0) throw conflict('NO_PASSKEY', 'This account has no passkey: use your authenticator app or a recovery code.');
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(app, request).rpID,
    allowCredentials: keys.map((k) => ({ id: k.id, transports: k.transports })),
    userVerification: 'preferred',
  });
  await saveChallenge(app.db, sessionOf(request).id, 'authenticate', options.challenge);
  return options;
}

/** POST /api/security/passkeys/verify: the passkey as this session's second factor. A failed assertion counts toward the limit. */
export async function verifyPasskey(app: FastifyInstance, request: FastifyRequest, response: Record<string, unknown>): Promise<VerifiedAnswer> {
  const actor = actorOf(request);
  const session = sessionOf(request);
  const challenge = await takeChallenge(app.db, session.id, 'authenticate');
  if (!challenge) throw noChallenge();
  const { rpID, origins } = relyingParty(app, request);
  return limitedAttempt(app, request, async (tx) => {
    const credentialId = typeof response.id === 'string' ? response.id : '';
    const [key] = await tx.select().from(passkeys).where(and(eq(passkeys.uid, actor.uid), eq(passkeys.credentialId, credentialId)));
    const refused = { ok: false as const, error: new HttpError(400, WRONG_CODE, 'This passkey was not accepted: use one registered for this account.') };
    if (!key) return refused;
    const checked = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: origins,
      expectedRPID: rpID,
      credential: { id: key.credentialId, publicKey: Buffer.from(key.publicKey, 'base64url'), counter: key.counter, transports: key.transports },
      requireUserVerification: false,
    }).catch(() => null);
    if (!checked?.verified) return refused;
    await tx.update(passkeys).set({ counter: checked.authenticationInfo.newCounter, lastUsedAt: sql`now()` }).where(eq(passkeys.id, key.id));
    const verifiedAt = await markVerified(tx, session.id);
    return { ok: true, value: { verifiedAt, recoveryCodesLeft: (await factorsOf(tx, actor.uid)).recoveryCodesLeft } };
  });
}

/** DELETE /api/security/passkeys/:id (step-up): refused when it is the last factor of an account that must have one. */
export async function removePasskey(app: FastifyInstance, request: FastifyRequest, id: string): Promise<void> {
  const actor = actorOf(request);
  if (!UUID.test(id)) throw notFound('Passkey not found');
  await app.db.transaction(async (tx) => {
    const [key] = await tx.select({ id: passkeys.id, name: passkeys.name }).from(passkeys).where(and(eq(passkeys.id, id), eq(passkeys.uid, actor.uid))).for('update');
    if (!key) throw notFound('Passkey not found');
    const factors = await factorsOf(tx, actor.uid);
    const [others] = await tx.select({ n: count() }).from(passkeys).where(and(eq(passkeys.uid, actor.uid), sql`${passkeys.id} <> ${id}`));
    if (factorRequired(request) && Number(others.n) === 0 && !factors.totp) throw lastFactor();
    await tx.delete(passkeys).where(eq(passkeys.id, id));
    // The account's last factor gone: its recovery codes, which stand in for a factor, go with it.
    if (Number(others.n) === 0 && !factors.totp) await tx.delete(recoveryCodes).where(eq(recoveryCodes.uid, actor.uid));
    await writeAudit(tx, { actor, action: 'second-factor', entityType: 'user', entityId: actor.uid, subjectUid: actor.uid, before: { passkey: key.id, name: key.name }, after: { passkeyRemoved: key.id } });
  });
}
