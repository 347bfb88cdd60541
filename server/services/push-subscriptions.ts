import { and, count, eq, sql } from 'drizzle-orm';
import { MAX_SUBSCRIPTIONS_PER_USER, type PushRotateBody, type PushSubscriptionBody, type PushSubscriptionItem } from '../../domain/push.ts';
import type { Db } from '../db/client.ts';
import { pushSubscriptions, users } from '../db/schema.ts';
import { HttpError } from '../platform/errors.ts';
import { isoTime } from '../platform/iso-time.ts';

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/**
 * Saves the caller's browser subscription, once per endpoint: the same endpoint again updates its keys and expiry;
 * an endpoint another account had moves to the caller (one browser, signed in to another account, must not keep
 * pushing the first one's news). `created` says whether the caller gained a device (201) or re-sent one (200).
 */
export async function saveSubscription(db: Db, uid: string, body: PushSubscriptionBody): Promise<{ row: PushSubscriptionRow; created: boolean }> {
  return db.transaction(async (tx) => {
    // One save per user at a time, so two devices subscribing at once cannot both pass the limit.
    await tx.select({ uid: users.uid }).from(users).where(eq(users.uid, uid)).for('update');
    const [existing] = await tx.select({ userId: pushSubscriptions.userId }).from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, body.endpoint));
    const created = existing?.userId !== uid;
    if (created) {
      const [{ n }] = await tx.select({ n: count() }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, uid));
      if (n >= MAX_SUBSCRIPTIONS_PER_USER) {
        throw new HttpError(409, 'TOO_MANY_PUSH_SUBSCRIPTIONS', `At most ${MAX_SUBSCRIPTIONS_PER_USER} devices can receive notifications: turn them off on a device you no longer use`);
      }
    }
    const fields = {
      userId: uid,
      p256dh: body.keys.p256dh,
      auth: body.keys.auth,
      expirationTime: body.expirationTime == null ? null : new Date(Math.round(body.expirationTime)).toISOString(),
    };
    const [row] = await tx
      .insert(pushSubscriptions)
      .values({ endpoint: body.endpoint, ...fields })
      .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { ...fields, updatedAt: sql`now()` } })
      .returning();
    return { row, created };
  });
}

/**
 * Moves a device's subscription to the endpoint and keys its browser renewed it with, keeping its owner; null when
 * the old endpoint is not ours (never saved, or dropped as gone). The new endpoint of another row is left alone.
 */
export async function rotateSubscription(db: Db, body: PushRotateBody): Promise<PushSubscriptionRow | null> {
  const fields = {
    endpoint: body.subscription.endpoint,
    p256dh: body.subscription.keys.p256dh,
    auth: body.subscription.keys.auth,
    expirationTime: body.subscription.expirationTime == null ? null : new Date(Math.round(body.subscription.expirationTime)).toISOString(),
    updatedAt: sql`now()`,
  };
  const [row] = await db
    .update(pushSubscriptions)
    .set(fields)
    .where(and(eq(pushSubscriptions.endpoint, body.oldEndpoint), sql`NOT EXISTS (SELECT 1 FROM push_subscriptions o WHERE o.endpoint = ${body.subscription.endpoint} AND o.endpoint <> ${body.oldEndpoint})`))
    .returning();
  return row ?? null;
}

/** Forgets the caller's subscription of this endpoint; another account's is left alone, and the answer is the same. */
export async function deleteSubscription(db: Db, uid: string, endpoint: string): Promise<void> {
  await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, uid), eq(pushSubscriptions.endpoint, endpoint)));
}

/** Drops a subscription its push service called gone (404/410). */
export async function dropGoneSubscription(db: Db, id: string): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}

export async function subscriptionsOf(db: Db, uid: string): Promise<PushSubscriptionRow[]> {
  return db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, uid)).orderBy(pushSubscriptions.createdAt, pushSubscriptions.id);
}

export function toPushSubscriptionItem(row: PushSubscriptionRow): PushSubscriptionItem {
  return {
    id: row.id,
    endpoint: row.endpoint,
    expirationTime: row.expirationTime === null ? null : isoTime(row.expirationTime),
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
  };
}
