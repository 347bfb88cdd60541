import { eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client.ts';
import { feedHead } from '../sync/change-heads.ts';
import { users } from '../db/schema.ts';
import { conflict, forbidden, unauthorized } from '../platform/errors.ts';
import { createTokenChecks, type TokenCheckOptions, type TokenChecks } from '../auth/token-checks.ts';

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
  }
  interface FastifyInstance {
    /** The caller, from a token checked in full within the last minute for reads; asked afresh for writes. */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** The same, always asking the identity provider: for a stream's connect, which then stays open. */
    authenticateFresh(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    requireStaff(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}

/** Methods that change nothing: they may use a recent check; every other method asks the provider. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Verifies the Firebase ID token and loads the caller's roles from the database on every call, so a
 * role granted or revoked by an admin takes effect on the user's next request, with no new sign-in.
 * The token's revocation, disabled and deleted state is asked of the identity provider on every write
 * and stream connect, and at most once a minute per token for reads (server/auth/token-checks.ts,
 * docs/decisions/011-token-checks.md). An account created on the external sign-up page has no row yet:
 * it gets one here, as a lead.
 */
export const authPlugin = fp<{ tokenChecks?: Partial<TokenCheckOptions> }>(
  async (app, options) => {
    const tokens = createTokenChecks(app.identity, options.tokenChecks);
    const roles = rolesOf(app.db);
    app.decorateRequest('userOrNull', null);
    app.decorateRequest('user', { getter: signedInUser });
    app.decorateRequest('tokenIssuedAt', 0);
    app.decorateRequest('feedHead', null);

    const signIn = async (request: FastifyRequest, fresh: boolean) => {
      const token = await verifyBearer(tokens, request.headers.authorization, fresh);
      request.tokenIssuedAt = token.issuedAt;
      const { user, head } = await loadOrCreateUser(app.db, roles, token);
      request.userOrNull = user;
      request.feedHead = head;
    };
    app.decorate('authenticate', (request: FastifyRequest) => signIn(request, !READS.has(request.method)));
    app.decorate('authenticateFresh', (request: FastifyRequest) => signIn(request, true));

    app.decorate('requireAdmin', async (request: FastifyRequest, reply: FastifyReply) => {
      await app.authenticate(request, reply);
      if (!request.user.isAdmin) throw forbidden();
    });

    app.decorate('requireStaff', async (request: FastifyRequest, reply: FastifyReply) => {
      await app.authenticate(request, reply);
      if (!request.user.isStaff) throw forbidden('Staff only');
    });
  },
  { name: 'auth', dependencies: ['database', 'identity'] },
);

function signedInUser(this: FastifyRequest): AuthUser {
  if (!this.userOrNull) throw unauthorized();
  return this.userOrNull;
}

async function verifyBearer(tokens: TokenChecks, header = '', fresh: boolean) {
  const match = /^Bearer ([A-Za-z0-9._-]+)$/.exec(header);
  if (!match) throw unauthorized();
  try {
    return await tokens.check(match[1], { fresh });
  } catch {
    throw unauthorized();
  }
}

/**
 * Only the columns a caller's roles need: every authenticated request runs this, and the profile's other columns
 * (the initial form among them) cost time to read and decode for nothing (docs/decisions/017).
 */
const roleColumns = { uid: users.uid, email: users.email, isAdmin: users.isAdmin, isStaff: users.isStaff, isClient: users.isClient };

type RoleRow = { uid: string; email: string; isAdmin: boolean; isStaff: boolean; isClient: boolean; feedHead: string | null };

/**
 * The role lookup as a statement prepared once per app: drizzle builds its text once, and node-postgres prepares it
 * once per connection instead of planning it on every request. It also reads the head of the caller's sync feed, a
 * primary-key lookup of two rows, so the pull with nothing new needs no statement of its own (docs/decisions/018).
 */
function rolesOf(db: Db): (uid: string) => Promise<RoleRow | undefined> {
  const query = db
    .select({ ...roleColumns, feedHead: feedHead(users.uid) })
    .from(users)
    .where(eq(users.uid, sql.placeholder('uid')))
    .limit(1)
    .prepare('auth_roles');
  return async (uid) => (await query.execute({ uid }))[0];
}

async function loadOrCreateUser(db: Db, roles: (uid: string) => Promise<RoleRow | undefined>, identity: { uid: string; email: string | null }): Promise<{ user: AuthUser; head: string | null }> {
  const row =
    (await roles(identity.uid)) ??
    (await db
      .insert(users)
      .values({ uid: identity.uid, email: identity.email ?? '', isClient: false, filledInitialForm: false })
      .onConflictDoNothing()
      // Just created: its feed's head is not known here, so the first pull takes the full query.
      .returning({ ...roleColumns, feedHead: sql<string | null>`null` })
      .then(async (rows) => rows[0] ?? (await roles(identity.uid))));
  // Inserted, or inserted by a concurrent first request: there is a row now, unless another user of the
  // portal has this email (users_email_unique), e.g. an account made again under a new uid.
  if (!row) {
    const [holder] = identity.email ? await db.select({ uid: users.uid }).from(users).where(sql`lower(${users.email}) = lower(${identity.email})`).limit(1) : [];
    if (holder) throw conflict('EMAIL_TAKEN', 'Another account of the portal already has this email address. Sign in with that account, or ask support to move it to this one.');
    throw new Error(`no profile row for ${identity.uid} after creating it`);
  }
  return { user: { uid: row.uid, email: row.email, isAdmin: row.isAdmin, isStaff: row.isStaff || row.isAdmin, isClient: row.isClient }, head: row.feedHead };
}
