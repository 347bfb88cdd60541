import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ExistingUserBody, NewUserBody } from '../../domain/schemas.ts';
import { users } from '../db/schema.ts';
import { HttpError, notFound } from '../platform/errors.ts';
import { toProfile } from '../serialize/rows.ts';
import type { AuditRecord } from './audit.ts';
import { settleInTransaction } from './command-ids.ts';
import { staffWrite } from './staff-write.ts';

/**
 * Admin: Create User makes a new lead (identity account + profile) and emails the set-password link; linking an
 * existing user approves (contacts) or withdraws approval (leads). Roles are read from the database on every
 * request, so the change applies at once.
 */

export async function createLead(app: FastifyInstance, request: FastifyRequest, body: z.infer<typeof NewUserBody>) {
  const { firstName, lastName, phone, country } = body;
  const email = body.email.trim().toLowerCase();
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
  return answer;
}

export function linkUser(app: FastifyInstance, request: FastifyRequest, body: z.infer<typeof ExistingUserBody>) {
  const { recordId, recordModule } = body;
  const isClient = recordModule === 'contacts';
  return staffWrite(app, request, {
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
