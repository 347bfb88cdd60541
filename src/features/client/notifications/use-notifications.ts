import { useLiveQuery } from '../../../lib/use-live-query.ts';
import { useEffect, useState } from 'react';
import { countUnread, isUnread } from '../../../../domain/notification-reads.ts';
import type { NotificationItem } from '../../../../domain/schemas.ts';
import { markNotificationsRead } from '../../../lib/notification-reads.ts';
import { useReplica } from '../../../lib/replica.ts';

/**
 * The user's notifications (general plus their own) as the replica holds them, newest first.
 * Undefined while Dexie is still answering, so callers can tell "loading" from "none".
 */
export function useNotifications(): NotificationItem[] | undefined {
  const db = useReplica();
  return useLiveQuery(() => db.notifications.orderBy('createdAt').reverse().toArray(), [db]);
}

/** The read marker as the replica holds it: undefined while Dexie answers, `{ readUpTo: undefined }` when there is none. */
function useReadMarker(): { readUpTo: string | undefined } | undefined {
  const db = useReplica();
  return useLiveQuery(async () => ({ readUpTo: (await db.notificationReads.get(db.uid))?.readUpTo }), [db]);
}

/** The bell's badge: notifications created after the marker; undefined until both are read from the device. */
export function useUnreadCount(items: NotificationItem[] | undefined): number | undefined {
  const marker = useReadMarker();
  return items === undefined || marker === undefined ? undefined : countUnread(items, marker.readUpTo);
}

/**
 * For a list that is on screen (the open popup, the notifications page): marks what it shows as read, and tells
 * which items were unread when it opened, so they stay labelled "New" while it is open although they are read now.
 * The marker is taken before anything is marked, so the labels never depend on which query answered first.
 */
export function useShownAsRead(items: NotificationItem[] | undefined): (item: NotificationItem) => boolean {
  const db = useReplica();
  const marker = useReadMarker();
  const [atOpen, setAtOpen] = useState<{ readUpTo: string | undefined }>();
  if (atOpen === undefined && marker !== undefined) setAtOpen(marker);
  // By value: the live query gives a new array (and objects) on every change of the table.
  const newestId = items?.[0]?.id;
  const newestAt = items?.[0]?.createdAt;
  useEffect(() => {
    if (atOpen !== undefined && newestId && newestAt) void markNotificationsRead(db, { id: newestId, createdAt: newestAt });
  }, [db, atOpen, newestId, newestAt]);
  return (item) => atOpen !== undefined && isUnread(item, atOpen.readUpTo);
}

/** Spec section 9: the popup lists the first four and offers "See all" only above five. */
export const popupItemCount = 4;
export const seeAllThreshold = 5;
