import { z } from 'zod';
import type { NotificationItem } from './schemas.ts';

/**
 * How far a user has read their notifications (docs/decisions/014-notification-read-state.md): one marker per
 * user, the creation time of the newest notification they were shown. Everything created after it is unread.
 * A new account starts just before its own creation, so general notifications sent earlier are never unread.
 * The server only moves it forward, and so does the client's replica: the later of two markers always wins.
 */
export const NotificationRead = z.object({
  userId: z.string(),
  /** An ISO date: notifications created at or before it are read. */
  readUpTo: z.iso.datetime(),
  updatedAt: z.string(),
});
export type NotificationRead = z.infer<typeof NotificationRead>;

/** PUT /api/notifications/read: the newest notification the user was shown; it and every older one become read. */
export const NotificationReadBody = z.strictObject({ notificationId: z.uuid('notificationId must be a notification id') });
export type NotificationReadBody = z.infer<typeof NotificationReadBody>;

/** Unread: created after the marker. Without a marker (a server before read state) every notification counts. */
export function isUnread(item: Pick<NotificationItem, 'createdAt'>, readUpTo: string | undefined): boolean {
  if (readUpTo === undefined) return true;
  return Date.parse(item.createdAt) > Date.parse(readUpTo);
}

export function countUnread(items: readonly Pick<NotificationItem, 'createdAt'>[], readUpTo: string | undefined): number {
  return items.filter((item) => isUnread(item, readUpTo)).length;
}

/** The later of two markers (either may be missing): a marker never moves back. */
export function laterMarker(a: string | undefined, b: string): string {
  return a !== undefined && Date.parse(a) >= Date.parse(b) ? a : b;
}
