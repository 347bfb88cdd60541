import { eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { forbidden, unauthorized } from '../errors.ts';
import type { IdentityProvider } from '../firebase.ts';

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
  }
  interface FastifyInstance {
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    requireStaff(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}

/**
 * Verifies the Firebase ID token and loads the caller's roles from the database on every call, so a
 * role granted or revoked by an admin takes effect on the user's next request, with no new sign-in.
 * An account created on the external sign-up page has no row yet: it gets one here, as a lead.
 */
export const authPlugin = fp(
  async (app) => {
    app.decorateRequest('userOrNull', null);
    app.decorateRequest('user', { getter: signedInUser });
    app.decorateRequest('tokenIssuedAt', 0);

    app.decorate('authenticate', async (request: FastifyRequest) => {
      const token = await verifyBearer(app.identity, request.headers.authorization);
      request.tokenIssuedAt = token.issuedAt;
      request.userOrNull = await loadOrCreateUser(app.db, token);
    });

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

async function verifyBearer(identity: IdentityProvider, header = '') {
  const match = /^Bearer ([A-Za-z0-9._-]+)$/.exec(header);
  if (!match) throw unauthorized();
  try {
    return await identity.verifyIdToken(match[1]);
  } catch {
    throw unauthorized();
  }
}

async function loadOrCreateUser(db: Db, identity: { uid: string; email: string | null }): Promise<AuthUser> {
  const existing = await db.select().from(users).where(eq(users.uid, identity.uid)).limit(1);
  const row =
    existing[0] ??
    (await db
      .insert(users)
      .values({ uid: identity.uid, email: identity.email ?? '', isClient: false, filledInitialForm: false })
      .onConflictDoNothing()
      .returning()
      .then(async (rows) => rows[0] ?? (await db.select().from(users).where(eq(users.uid, identity.uid)))[0]));
  return { uid: row.uid, email: row.email, isAdmin: row.isAdmin, isStaff: row.isStaff || row.isAdmin, isClient: row.isClient };
}
