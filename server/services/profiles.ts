import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ActiveStatusBody, InitialFormBody, Profile } from '../../domain/schemas.ts';
import type { Db } from '../db/client.ts';
import { userPresence, users } from '../db/schema.ts';
import { notFound } from '../platform/errors.ts';
import { toProfile } from '../serialize/rows.ts';
import { settleInTransaction } from './command-ids.ts';

/** The signed-in user's own profile: reading it, the initial form (an outbox command) and the presence report. */

/** The authenticate hook made the row if it was missing; presence is beside it, absent until the first report. */
export async function ownProfile(db: Db, uid: string) {
  const [row] = await db
    .select({ user: users, presence: userPresence.status })
    .from(users)
    .leftJoin(userPresence, eq(userPresence.uid, users.uid))
    .where(eq(users.uid, uid));
  return row;
}

export async function saveInitialForm(app: FastifyInstance, request: FastifyRequest, uid: string, body: z.infer<typeof InitialFormBody>) {
  const { name, ...form } = body.initialForm;
  const [first, ...rest] = name.split(/\s+/);
  const answer = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({
        initialForm: { ...form, name },
        filledInitialForm: true,
        // The spec sends the display name with the form; it fills the profile's name when unset.
        firstName: sql`coalesce(${users.firstName}, ${first})`,
        lastName: sql`coalesce(${users.lastName}, ${rest.join(' ') || null})`,
        // Staff acting on this profile from an older view get a conflict that shows the new answers.
        version: sql`${users.version} + 1`,
      })
      .where(eq(users.uid, uid))
      .returning();
    if (!row) throw notFound('Profile not found');
    // A lead's form is what staff approve: they hear of it once (the key names the account).
    if (!row.isClient && !row.isStaff && !row.isAdmin) {
      await app.deliveries.record(tx, { kind: 'newLead', key: `lead:${uid}`, to: 'staff', facts: { clientUid: uid, clientName: [row.firstName, row.lastName].filter(Boolean).join(' ') || undefined } });
    }
    const profile: { data: Profile } = { data: toProfile(row, await presenceOf(tx, row.uid)) };
    await settleInTransaction(tx, request, 201, profile);
    return profile;
  });
  await app.events.poke(uid);
  return answer;
}

/**
 * user_presence, not users: this is sent on every tab shown or hidden, and a users write would take
 * the global change_seq lock and re-send the whole profile to every device (schema.ts userPresence).
 * The authenticate hook has made the users row, so the foreign key holds even on a first call.
 */
export async function reportPresence(app: FastifyInstance, request: FastifyRequest, uid: string, status: z.infer<typeof ActiveStatusBody>['status']) {
  const answer = { data: { status } };
  await app.db.transaction(async (tx) => {
    await tx
      .insert(userPresence)
      .values({ uid, status })
      .onConflictDoUpdate({
        target: userPresence.uid,
        set: {
          status: sql`excluded.status`,
          lastSeenAt: sql`now()`,
          // "Since when": a repeated report of the same status keeps the time it began.
          updatedAt: sql`CASE WHEN ${userPresence.status} IS DISTINCT FROM excluded.status THEN now() ELSE ${userPresence.updatedAt} END`,
        },
      });
    await settleInTransaction(tx, request, 200, answer);
  });
  return answer;
}

async function presenceOf(db: Db, uid: string): Promise<string | null> {
  const [row] = await db.select({ status: userPresence.status }).from(userPresence).where(eq(userPresence.uid, uid));
  return row?.status ?? null;
}
