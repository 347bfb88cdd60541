import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { notificationPreferences, users } from '../db/schema.ts';
import { preferencesOf } from './notification-preferences.ts';

/**
 * One-click unsubscribe (POST /api/unsubscribe/:token, RFC 8058): turns the person's email switch off and nothing
 * else, as PUT /api/user/notification-preferences with `{ email: false }` would; their devices pull the row after
 * the poke. Already off, or an account since deleted: nothing changes and the answer is the same (the mail stops
 * either way). `changed` says whether a row moved.
 */
export async function turnEmailOff(app: FastifyInstance, uid: string): Promise<{ changed: boolean }> {
  const changed = await app.db.transaction(async (tx) => {
    // Gone for a deleted account; held (key share) until the commit, so a deletion meanwhile waits instead of failing the insert below.
    const [user] = await tx.select({ uid: users.uid }).from(users).where(eq(users.uid, uid)).for('key share');
    if (!user) return false;
    await preferencesOf(tx, uid);
    const moved = await tx
      .update(notificationPreferences)
      .set({ email: false, updatedAt: sql`now()` })
      .where(and(eq(notificationPreferences.userId, uid), eq(notificationPreferences.email, true)))
      .returning({ userId: notificationPreferences.userId });
    return moved.length > 0;
  });
  if (changed) await app.events.poke(uid);
  return { changed };
}
