import { and, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import UAParser from 'ua-parser-js';
import type { SessionEndReason, SessionItem } from '../../domain/security.ts';
import type { Db } from '../db/client.ts';
import { notifications, sessions, users } from '../db/schema.ts';
import { forbidden, HttpError, notFound } from '../platform/errors.ts';
import { isoTime } from '../platform/iso-time.ts';
import { loadIpLookup } from '../tracking/ip-lookup.ts';
import { isReservedIp, parseIp } from '../tracking/ip-ranges.ts';
import { MAX_USER_AGENT } from '../tracking/user-agent.ts';
import { writeAudit } from './audit.ts';

/**
 * Sessions: one Firebase sign-in on one device, named by the user and the ID token's auth_time
 * (docs/decisions/031-second-factor-and-sessions.md). The per-request role lookup (server/plugins/auth.ts) reads the
 * caller's session; a sign-in's first call makes its row here, and tells the user when the device is new to them.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The browser and OS names of a user agent, without versions: a browser's update is not a new device. */
export function deviceOf(userAgent: string | null): { browser: string; os: string } {
  const ua = (userAgent ?? '').slice(0, MAX_USER_AGENT);
  const { browser, os } = ua ? new UAParser(ua).getResult() : { browser: { name: undefined }, os: { name: undefined } };
  return { browser: browser.name ?? 'Unknown browser', os: os.name ?? 'Unknown system' };
}

/** "Lagos, NG" (or the country alone) from the offline geo-IP; null for a private or unknown address. */
export async function placeOf(ip: string): Promise<string | null> {
  const parsed = parseIp(ip);
  // A private or loopback address needs no lookup, and the data (about 60 MB) is then not loaded for it.
  if (!parsed || isReservedIp(parsed)) return null;
  try {
    const where = (await loadIpLookup()).locate(ip);
    if (where.city && where.countryCode) return `${where.city}, ${where.countryCode}`;
    return where.countryName ?? where.countryCode;
  } catch {
    // The place is a convenience: a missing data file must not stop a sign-in.
    return null;
  }
}

/** The in-app text of a new-device alert. */
export function newSignInText(device: { browser: string; os: string; place: string | null }): string {
  return `New sign-in on ${device.browser} on ${device.os}${device.place ? ` near ${device.place}` : ''} — not you? Sign out all devices`;
}

/**
 * The session row of a sign-in's first call (or of a concurrent first call that made it). When the row is new and the
 * user signed in before, but never from this browser and OS, they get a notification and an essential delivery.
 */
export async function openSession(
  app: FastifyInstance,
  input: { uid: string; authTime: number; userAgent: string | null; ip: string },
): Promise<{ id: string; secondFactorAgeSeconds: number | null }> {
  const device = deviceOf(input.userAgent);
  const place = await placeOf(input.ip);
  const made = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(sessions)
      .values({ uid: input.uid, authTime: input.authTime, browser: device.browser, os: device.os, place })
      .onConflictDoNothing()
      .returning({ id: sessions.id });
    if (!row) return null;
    const earlier = await tx
      .select({ browser: sessions.browser, os: sessions.os })
      .from(sessions)
      .where(and(eq(sessions.uid, input.uid), ne(sessions.id, row.id)));
    const known = earlier.some((s) => s.browser === device.browser && s.os === device.os);
    let alerted = false;
    if (earlier.length > 0 && !known) {
      const [note] = await tx
        .insert(notifications)
        .values({ userId: input.uid, message: newSignInText({ ...device, place }) })
        .returning({ id: notifications.id });
      await app.deliveries.record(tx, { kind: 'newSignIn', key: `session:${row.id}`, to: { uid: input.uid }, facts: {}, notificationId: note.id });
      alerted = true;
    }
    return { id: row.id, alerted };
  });
  if (made) {
    if (made.alerted) await app.events.poke(input.uid);
    return { id: made.id, secondFactorAgeSeconds: null };
  }
  const [existing] = await app.db
    .select({ id: sessions.id, age: sql<number | string | null>`extract(epoch from now() - ${sessions.secondFactorAt})::float8` })
    .from(sessions)
    .where(and(eq(sessions.uid, input.uid), eq(sessions.authTime, input.authTime)));
  return { id: existing.id, secondFactorAgeSeconds: existing.age === null ? null : Number(existing.age) };
}

/** "Last seen" moved to now: the role lookup asks for it at most once a minute per session. */
export async function touchSession(db: Db, id: string): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: sql`now()` }).where(eq(sessions.id, id));
}

/** The account's signed-in devices, newest first: sessions not ended and not cut by sessions_valid_after. */
export async function listSessions(db: Db, uid: string, currentId: string): Promise<SessionItem[]> {
  const rows = await db
    .select({ id: sessions.id, browser: sessions.browser, os: sessions.os, place: sessions.place, firstSeenAt: sessions.firstSeenAt, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .innerJoin(users, eq(users.uid, sessions.uid))
    .where(
      and(
        eq(sessions.uid, uid),
        isNull(sessions.endedAt),
        sql`(${users.sessionsValidAfter} IS NULL OR to_timestamp(${sessions.authTime}) >= ${users.sessionsValidAfter} OR ${sessions.keptAt} >= ${users.sessionsValidAfter})`,
      ),
    )
    .orderBy(desc(sessions.lastSeenAt));
  return rows.map((r) => ({ ...r, firstSeenAt: isoTime(r.firstSeenAt), lastSeenAt: isoTime(r.lastSeenAt), current: r.id === currentId }));
}

const actorOf = (request: FastifyRequest) => ({ uid: request.user.uid, email: request.user.email });

/** Ends one of the caller's other sessions: refused at its next request, on every route. */
export async function signOutSession(app: FastifyInstance, request: FastifyRequest, id: string): Promise<void> {
  const uid = request.user.uid;
  if (!UUID.test(id)) throw notFound('Session not found');
  if (id === request.authSession?.id) throw new HttpError(400, 'CURRENT_SESSION', 'This is the device you are using: sign out from the menu instead.');
  await app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(sessions)
      .set({ endedAt: sql`now()`, endReason: 'signed-out-elsewhere' })
      .where(and(eq(sessions.id, id), eq(sessions.uid, uid), isNull(sessions.endedAt)))
      .returning({ id: sessions.id, browser: sessions.browser, os: sessions.os });
    if (!row) throw notFound('Session not found');
    await writeAudit(tx, { actor: actorOf(request), action: 'session', entityType: 'session', entityId: row.id, subjectUid: uid, before: null, after: { signedOut: true, browser: row.browser, os: row.os } });
  });
}

/**
 * Ends every session of the caller but this one: those seen so far by their rows, and any sign-in made before now that
 * has not called yet by the user's sessions_valid_after, which this session is kept from (kept_at).
 */
export async function signOutOtherSessions(app: FastifyInstance, request: FastifyRequest): Promise<{ ended: number }> {
  const uid = request.user.uid;
  const current = request.authSession?.id;
  if (!current) throw forbidden();
  return app.db.transaction(async (tx) => {
    const ended = await tx
      .update(sessions)
      .set({ endedAt: sql`now()`, endReason: 'signed-out-elsewhere' })
      .where(and(eq(sessions.uid, uid), ne(sessions.id, current), isNull(sessions.endedAt)))
      .returning({ id: sessions.id });
    await tx.update(users).set({ sessionsValidAfter: sql`now()` }).where(eq(users.uid, uid));
    await tx.update(sessions).set({ keptAt: sql`now()` }).where(eq(sessions.id, current));
    await writeAudit(tx, { actor: actorOf(request), action: 'session', entityType: 'session', entityId: current, subjectUid: uid, before: null, after: { signedOutOthers: ended.length } });
    return { ended: ended.length };
  });
}

/** "Sign out all devices" (the sign-in alert's advice): every session of the caller ends, this one too. */
export async function signOutEverywhere(app: FastifyInstance, request: FastifyRequest): Promise<void> {
  const uid = request.user.uid;
  await app.db.transaction(async (tx) => {
    await endAllSessions(tx, uid, 'signed-out-everywhere');
    await writeAudit(tx, { actor: actorOf(request), action: 'session', entityType: 'session', entityId: request.authSession?.id ?? uid, subjectUid: uid, before: null, after: { signedOutEverywhere: true } });
  });
  await app.events.poke(uid);
}

/** Every session of `uid` ends now with `reason` (the account disabled): rows and not-yet-seen sign-ins alike. */
export async function endAllSessions(tx: Db, uid: string, reason: SessionEndReason): Promise<void> {
  await tx.update(sessions).set({ endedAt: sql`now()`, endReason: reason }).where(and(eq(sessions.uid, uid), isNull(sessions.endedAt)));
  await tx.update(users).set({ sessionsValidAfter: sql`now()` }).where(eq(users.uid, uid));
}

/**
 * Disables (or enables again) an account through the portal: every session is refused at its next request, and the
 * identity provider refuses new sign-ins and token refreshes. Admins only, with step-up; never one's own account.
 */
export async function setAccountDisabled(app: FastifyInstance, request: FastifyRequest, uid: string, disabled: boolean): Promise<{ uid: string; disabled: boolean }> {
  const actor = actorOf(request);
  if (uid === actor.uid) throw new HttpError(400, 'OWN_ACCOUNT', 'You cannot disable your own account.');
  await app.db.transaction(async (tx) => {
    const [row] = await tx.select({ uid: users.uid, disabledAt: users.disabledAt }).from(users).where(eq(users.uid, uid)).for('update');
    if (!row) throw notFound('User not found');
    if ((row.disabledAt !== null) === disabled) return;
    if (disabled) {
      await tx.update(users).set({ disabledAt: sql`now()`, disabledBy: actor.uid }).where(eq(users.uid, uid));
      await endAllSessions(tx, uid, 'account-disabled');
    } else {
      await tx.update(users).set({ disabledAt: null, disabledBy: null }).where(eq(users.uid, uid));
    }
    await writeAudit(tx, { actor, action: 'account-disabled', entityType: 'user', entityId: uid, subjectUid: uid, before: { disabled: !disabled }, after: { disabled } });
    // The provider's state follows in the transaction: if it cannot be changed, neither is the portal's.
    await app.identity.setDisabled(uid, disabled);
  });
  await app.events.poke(uid);
  return { uid, disabled };
}
