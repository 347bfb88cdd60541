import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client.ts';
import { feedHead } from '../sync/change-heads.ts';
import { passkeys, sessions, totpFactors, users } from '../db/schema.ts';
import { conflict, forbidden, HttpError, unauthorized } from '../platform/errors.ts';
import { createTokenChecks, type TokenCheckOptions, type TokenChecks } from '../auth/token-checks.ts';
import type { VerifiedToken } from '../auth/firebase.ts';
import { SECOND_FACTOR_REQUIRED, SESSION_ENDED, SESSION_END_TEXTS, STEP_UP_REQUIRED, STEP_UP_SECONDS, type SessionEndReason } from '../../domain/security.ts';
import { openSession, touchSession } from '../services/sessions.ts';

export interface AuthUser {
  uid: string;
  email: string;
  isAdmin: boolean;
  /** Support staff; every admin is staff too. */
  isStaff: boolean;
  isClient: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The signed-in caller, for handlers behind app.authenticate, requireStaff or requireAdmin. It is
     * never null: read on a route without a guard it throws 401, so a forgotten guard fails closed
     * and no handler needs a non-null assertion.
     */
    readonly user: AuthUser;
    /** The same, or null when no token was checked: for hooks that run on every route (idempotency, faults). */
    userOrNull: AuthUser | null;
    /** When the ID token was issued (seconds since epoch). */
    tokenIssuedAt: number;
    /** The newest seq of the caller's sync feed, read with their roles (server/sync/change-heads.ts); null when not known. */
    feedHead: string | null;
    /** The caller's session (one sign-in on one device), read with their roles; null when no token was checked. */
    authSession: AuthSession | null;
  }
  interface FastifyInstance {
    /**
     * The caller, from a token checked in full within the last minute for reads; asked afresh for writes. An account
     * with a second factor is 403 SECOND_FACTOR_REQUIRED until this session has verified it.
     */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** The same without the second factor: for the routes where a session verifies it (server/routes/security.ts). */
    authenticateBeforeSecondFactor(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** The caller, always asking the identity provider: for a stream's connect, which then stays open and carries no data. */
    authenticateFresh(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    requireStaff(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /**
     * After one of the guards above: the session verified its second factor within STEP_UP_SECONDS, else 403
     * STEP_UP_REQUIRED. For actions a stolen, still signed-in device must not take (roles, accounts, factors).
     */
    requireStepUp(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}

export interface AuthSession {
  id: string;
  authTime: number;
  /** Seconds since this session verified a second factor (by the database's clock), or null when it has not. */
  secondFactorAgeSeconds: number | null;
  /** The account has a second factor (a confirmed authenticator app or a passkey): every session must verify it. */
  accountHasFactor: boolean;
}

/** Methods that change nothing: they may use a recent check; every other method asks the provider. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Verifies the Firebase ID token and loads the caller's roles from the database on every call, so a
 * role granted or revoked by an admin takes effect on the user's next request, with no new sign-in.
 * The token's revocation, disabled and deleted state is asked of the identity provider on every write
 * and stream connect, and at most once a minute per token for reads (server/auth/token-checks.ts,
 * docs/decisions/011-token-checks.md). An account created on the external sign-up page has no row yet:
 * it gets one here, as a lead. The same lookup reads the caller's session (one sign-in on one device): a session
 * signed out, cut by a "sign out other devices" or of an account disabled through the portal is 401 SESSION_ENDED at
 * its next request; staff and admin routes, and every route of an account that has a second factor, want the
 * session's second factor (docs/decisions/031, 033). A sign-in's
 * first call makes its session row; later calls add a write at most once a minute ("last seen").
 */
export const authPlugin = fp<{ tokenChecks?: Partial<TokenCheckOptions> }>(
  async (app, options) => {
    const tokens = createTokenChecks(app.identity, options.tokenChecks);
    const roles = rolesOf(app.db);
    app.decorateRequest('userOrNull', null);
    app.decorateRequest('user', { getter: signedInUser });
    app.decorateRequest('tokenIssuedAt', 0);
    app.decorateRequest('feedHead', null);
    app.decorateRequest('authSession', null);

    const signIn = async (request: FastifyRequest, fresh: boolean) => {
      const token = await verifyBearer(tokens, request.headers.authorization, fresh);
      request.tokenIssuedAt = token.issuedAt;
      const { user, row } = await loadOrCreateUser(app.db, roles, token);
      if (row.ended) throw sessionEnded(row.ended);
      let session: AuthSession;
      if (row.sessionId === null) {
        const opened = await openSession(app, { uid: user.uid, authTime: token.authTime, userAgent: header(request.headers['user-agent']), ip: request.ip });
        session = { id: opened.id, authTime: token.authTime, secondFactorAgeSeconds: opened.secondFactorAgeSeconds, accountHasFactor: row.accountHasFactor };
      } else {
        session = {
          id: row.sessionId,
          authTime: token.authTime,
          secondFactorAgeSeconds: row.secondFactorAgeSeconds === null ? null : Number(row.secondFactorAgeSeconds),
          accountHasFactor: row.accountHasFactor,
        };
        // At most one write a minute per session for "last seen": the lookup says when it is due.
        if (row.lastSeenDue) await touchSession(app.db, row.sessionId);
      }
      request.userOrNull = user;
      request.feedHead = row.feedHead;
      request.authSession = session;
    };
    // Reads may use a recent token check; writes ask the identity provider.
    const signInFor = (request: FastifyRequest) => signIn(request, !READS.has(request.method));
    app.decorate('authenticate', async (request: FastifyRequest) => {
      await signInFor(request);
      if (request.authSession?.accountHasFactor) requireSecondFactor(request, ACCOUNT_FACTOR_TEXT);
    });
    app.decorate('authenticateBeforeSecondFactor', signInFor);
    app.decorate('authenticateFresh', (request: FastifyRequest) => signIn(request, true));

    app.decorate('requireAdmin', async (request: FastifyRequest) => {
      await signInFor(request);
      if (!request.user.isAdmin) throw forbidden();
      requireSecondFactor(request, STAFF_FACTOR_TEXT);
    });

    app.decorate('requireStaff', async (request: FastifyRequest) => {
      await signInFor(request);
      if (!request.user.isStaff) throw forbidden('Staff only');
      requireSecondFactor(request, STAFF_FACTOR_TEXT);
    });

    app.decorate('requireStepUp', async (request: FastifyRequest) => {
      const age = request.authSession?.secondFactorAgeSeconds;
      if (!request.userOrNull || !request.authSession) throw unauthorized();
      if (age === null || age === undefined || age > STEP_UP_SECONDS) {
        throw new HttpError(403, STEP_UP_REQUIRED, `Confirm it is you: verify your second factor again (required within ${STEP_UP_SECONDS / 60} minutes of this action).`);
      }
    });
  },
  { name: 'auth', dependencies: ['database', 'identity'] },
);

const STAFF_FACTOR_TEXT = 'Verify your second factor (passkey or authenticator app) to use the staff workspace.';
const ACCOUNT_FACTOR_TEXT = 'Your account has a second factor: confirm this sign-in with your passkey or authenticator app to continue.';

/**
 * This session verified a second factor: wanted by staff and admin routes (docs/decisions/031) and by every route of
 * an account that has a factor (docs/decisions/033).
 */
function requireSecondFactor(request: FastifyRequest, text: string) {
  if (request.authSession?.secondFactorAgeSeconds === null || !request.authSession) throw new HttpError(403, SECOND_FACTOR_REQUIRED, text);
}

function sessionEnded(reason: SessionEndReason): HttpError {
  return new HttpError(401, SESSION_ENDED, SESSION_END_TEXTS[reason], { reason });
}

function header(value: string | string[] | undefined): string | null {
  if (Array.isArray(value)) return value[0] ?? null;
  return value ?? null;
}

function signedInUser(this: FastifyRequest): AuthUser {
  if (!this.userOrNull) throw unauthorized();
  return this.userOrNull;
}

async function verifyBearer(tokens: TokenChecks, header = '', fresh: boolean) {
  const match = /^Bearer ([A-Za-z0-9._-]+)$/.exec(header);
  if (!match) throw unauthorized();
  try {
    return await tokens.check(match[1], { fresh });
  } catch (err) {
    // A genuine token of a disabled account (the provider checked its signature first): the app says why.
    if ((err as { code?: string }).code === 'auth/user-disabled') throw sessionEnded('account-disabled');
    throw unauthorized();
  }
}

/**
 * Only the columns a caller's roles need: every authenticated request runs this, and the profile's other columns
 * (the initial form among them) cost time to read and decode for nothing (docs/decisions/017).
 */
const roleColumns = { uid: users.uid, email: users.email, isAdmin: users.isAdmin, isStaff: users.isStaff, isClient: users.isClient };

type RoleRow = {
  uid: string;
  email: string;
  isAdmin: boolean;
  isStaff: boolean;
  isClient: boolean;
  feedHead: string | null;
  /** Why this session is refused, or null: ended, signed in before the user's sessions_valid_after, or the account disabled. */
  ended: SessionEndReason | null;
  sessionId: string | null;
  secondFactorAgeSeconds: number | string | null;
  accountHasFactor: boolean;
  lastSeenDue: boolean;
};

/**
 * The role lookup as a statement prepared once per app: drizzle builds its text once, and node-postgres prepares it
 * once per connection instead of planning it on every request. It also reads the head of the caller's sync feed, a
 * primary-key lookup of two rows, so the pull with nothing new needs no statement of its own (docs/decisions/018),
 * and the caller's session by its unique (uid, auth_time), so a signed-out or disabled session is refused at its very
 * next request with no statement of its own (docs/decisions/031), and whether the account has a second factor.
 */
function rolesOf(db: Db): (token: VerifiedToken) => Promise<RoleRow | undefined> {
  const authTime = sql.placeholder('authTime');
  const cut = sql`(${users.sessionsValidAfter} IS NOT NULL AND to_timestamp(${authTime}::bigint) < ${users.sessionsValidAfter}
    AND (${sessions.keptAt} IS NULL OR ${sessions.keptAt} < ${users.sessionsValidAfter}))`;
  const query = db
    .select({
      ...roleColumns,
      feedHead: feedHead(users.uid),
      ended: sql<SessionEndReason | null>`CASE WHEN ${users.disabledAt} IS NOT NULL THEN 'account-disabled'
        WHEN ${sessions.endedAt} IS NOT NULL THEN ${sessions.endReason}
        WHEN ${cut} THEN 'signed-out-elsewhere' END`,
      sessionId: sessions.id,
      secondFactorAgeSeconds: sql<number | string | null>`extract(epoch from now() - ${sessions.secondFactorAt})::float8`,
      // Two primary-key or index probes: a confirmed authenticator app, or any passkey.
      accountHasFactor: sql<boolean>`(EXISTS (SELECT 1 FROM ${totpFactors} WHERE ${totpFactors.uid} = ${users.uid} AND ${totpFactors.confirmedAt} IS NOT NULL)
        OR EXISTS (SELECT 1 FROM ${passkeys} WHERE ${passkeys.uid} = ${users.uid}))`,
      lastSeenDue: sql<boolean>`coalesce(${sessions.lastSeenAt} < now() - interval '1 minute', false)`,
    })
    .from(users)
    .leftJoin(sessions, and(eq(sessions.uid, users.uid), eq(sessions.authTime, sql`${authTime}::bigint`)))
    .where(eq(users.uid, sql.placeholder('uid')))
    .limit(1)
    .prepare('auth_roles');
  return async (token) => (await query.execute({ uid: token.uid, authTime: token.authTime }))[0];
}

async function loadOrCreateUser(db: Db, roles: (token: VerifiedToken) => Promise<RoleRow | undefined>, identity: VerifiedToken): Promise<{ user: AuthUser; row: RoleRow }> {
  const row =
    (await roles(identity)) ??
    (await db
      .insert(users)
      .values({ uid: identity.uid, email: identity.email ?? '', isClient: false, filledInitialForm: false })
      .onConflictDoNothing()
      .returning({ uid: users.uid })
      .then(async () => await roles(identity)));
  // Inserted, or inserted by a concurrent first request: there is a row now, unless another user of the
  // portal has this email (users_email_unique), e.g. an account made again under a new uid.
  if (!row) {
    const [holder] = identity.email ? await db.select({ uid: users.uid }).from(users).where(sql`lower(${users.email}) = lower(${identity.email})`).limit(1) : [];
    if (holder) throw conflict('EMAIL_TAKEN', 'Another account of the portal already has this email address. Sign in with that account, or ask support to move it to this one.');
    throw new Error(`no profile row for ${identity.uid} after creating it`);
  }
  return { user: { uid: row.uid, email: row.email, isAdmin: row.isAdmin, isStaff: row.isStaff || row.isAdmin, isClient: row.isClient }, row };
}
