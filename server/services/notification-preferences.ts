import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type NotificationPreferences, type NotificationPreferencesBody, STAFF_PREFERENCE_FIELDS } from '../../domain/notification-preferences.ts';
import type { Db } from '../db/client.ts';
import { notificationPreferences } from '../db/schema.ts';
import { HttpError } from '../platform/errors.ts';
import { toNotificationPreferences } from '../serialize/messages.ts';
import { settleInTransaction } from './command-ids.ts';

/** Each user's notification choices (domain/notification-preferences.ts): read by the delivery worker, changed by their owner. */

/** The user's row; a trigger on users makes it, and the insert covers a row lost by hand. */
export async function preferencesOf(db: Db, uid: string): Promise<typeof notificationPreferences.$inferSelect> {
  const [row] = await db.insert(notificationPreferences).values({ userId: uid }).onConflictDoNothing().returning();
  if (row) return row;
  const [kept] = await db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, uid));
  return kept;
}

/**
 * Changes only the switches the body names, so two devices changing different switches offline both keep theirs.
 * The staff switches belong to staff: a client naming one is refused.
 */
export async function updatePreferences(
  app: FastifyInstance,
  request: FastifyRequest,
  body: NotificationPreferencesBody,
): Promise<{ data: NotificationPreferences }> {
  const { uid, isStaff } = request.user;
  const staffOnly = STAFF_PREFERENCE_FIELDS.find((field) => body[field] !== undefined);
  if (staffOnly && !isStaff) throw new HttpError(403, 'FORBIDDEN', `${staffOnly}: only staff have this switch`);
  const changed = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  const answer = await app.db.transaction(async (tx) => {
    await preferencesOf(tx, uid);
    const [row] = await tx
      .update(notificationPreferences)
      .set({ ...changed, updatedAt: sql`now()` })
      .where(eq(notificationPreferences.userId, uid))
      .returning();
    const settled = { data: toNotificationPreferences(row) };
    await settleInTransaction(tx, request, 200, settled);
    return settled;
  });
  await app.events.poke(uid);
  return answer;
}
