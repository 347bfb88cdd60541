import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ExistingUserBody, NewUserBody, Profile } from '../../domain/schemas.ts';
import type { AuditRecord } from '../services/audit.ts';
import { users } from '../db/schema.ts';
import { HttpError, notFound } from '../platform/errors.ts';
import { settleInTransaction } from '../services/command-ids.ts';
import { staffWrite } from '../services/staff-write.ts';
import { toProfile } from '../serialize/rows.ts';

/**
 * Admin: Create User. POST /admin/users makes a new lead (Firebase account + profile) and emails the
 * set-password link; POST /admin/users/link approves (contacts) or withdraws approval (leads) of an
 * existing user. Roles are read from the database on every request, so the change applies at once.
 */
export async function adminRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const admin = { onRequest: app.requireAdmin };

  api.post(
    '/admin/users',
    { ...admin, schema: { tags: ['admin'], body: NewUserBody, response: { 201: envelope(z.object({ uid: z.string(), email: z.string() })) } } },
    async (request, reply) => {
      const { firstName, lastName, phone, country } = request.body;
      const email = request.body.email.trim().toLowerCase();
      // Everything that can be checked is checked before the account exists: a refusal leaves nothing behind.
      const [taken] = await app.db.select({ uid: users.uid }).from(users).where(eq(users.email, email)).limit(1);
      if (taken) throw emailExists(email);
      const uid = await createAccount(app, email, `${firstName} ${lastName}`, phone);
      const answer = { data: { uid, email } };
      try {
        // The profile and the Idempotency-Key's answer commit together, and only once the email is sent:
        // a profile that cannot be stored sends no email, an email that cannot be sent keeps no profile.
        await app.db.transaction(async (tx) => {
          await tx.insert(users).values({ uid, email, firstName, lastName, phone, country, isClient: false, filledInitialForm: false });
          await app.identity.sendPasswordSetupEmail(email);
          await settleInTransaction(tx, request, 201, answer);
        });
      } catch (err) {
        // Nothing half-made: without this, the account would stay without a profile (or without its
        // set-password email) and the corrected retry would get 409 EMAIL_EXISTS.
        await undoCreate(app, uid, request.log);
        request.log.error({ err, uid }, 'create user failed after the account was made; undone');
        throw new HttpError(502, 'USER_NOT_CREATED', 'The user could not be created (the set-password email could not be sent). Nothing was saved: try again.');
      }
      return reply.status(201).send(answer);
    },
  );

  api.post(
    '/admin/users/link',
    { ...admin, schema: { tags: ['admin'], body: ExistingUserBody, response: { 201: envelope(Profile) } } },
    async (request, reply) => {
      const { recordId, recordModule } = request.body;
      const isClient = recordModule === 'contacts';
      const { body } = await staffWrite(app, request, {
        lock: async (tx) => {
          const [before] = await tx.select({ isClient: users.isClient }).from(users).where(eq(users.uid, recordId)).for('update');
          if (!before) throw notFound(`User ${recordId} not found`);
          return before;
        },
        change: async (tx, before, actor) => {
          const [after] = await tx
            .update(users)
            .set({ isClient, version: sql`${users.version} + 1` })
            .where(eq(users.uid, recordId))
            .returning();
          const audit: AuditRecord = {
            actor,
            action: 'approve',
            entityType: 'user',
            entityId: recordId,
            subjectUid: recordId,
            before: { isClient: before.isClient },
            after: { isClient },
          };
          return { done: after, audit };
        },
        status: 201,
        answer: (after) => ({ data: toProfile(after) }),
        poke: () => ({ client: recordId }),
      });
      return reply.status(201).send(body);
    },
  );
}

function firebaseCode(err: unknown): string | undefined {
  if (err && typeof err === 'object' && 'code' in err && typeof err.code === 'string') return err.code;
  return undefined;
}

function emailExists(email: string): HttpError {
  return new HttpError(409, 'EMAIL_EXISTS', `An account with the email ${email} already exists`);
}

async function createAccount(app: FastifyInstance, email: string, displayName: string, phone: string): Promise<string> {
  try {
    return (await app.identity.createUser({ email, displayName, phone })).uid;
  } catch (err) {
    if (firebaseCode(err) === 'auth/email-already-exists') throw emailExists(email);
    if (firebaseCode(err) === 'auth/invalid-email') throw new HttpError(400, 'BAD_REQUEST', 'email must be a valid email address');
    throw err;
  }
}

/** Removes what a failed Create User made: the profile row (if it was written) and the identity account. */
async function undoCreate(app: FastifyInstance, uid: string, log: FastifyBaseLogger): Promise<void> {
  try {
    await app.db.delete(users).where(eq(users.uid, uid));
    await app.identity.deleteUser(uid);
  } catch (err) {
    log.error({ err, uid }, 'could not undo a failed create user: remove this account by hand');
  }
}
