import { useLiveQuery } from 'dexie-react-hooks';
import type { NotificationItem } from '../../../../domain/schemas.ts';
import { useReplica } from '../../../lib/replica.ts';

/**
 * The user's notifications (general plus their own) as the replica holds them, newest first.
 * Undefined while Dexie is still answering, so callers can tell "loading" from "none".
 */
export function useNotifications(): NotificationItem[] | undefined {
  const db = useReplica();
  return useLiveQuery(() => db.notifications.orderBy('createdAt').reverse().toArray(), [db]);
}

/** Spec section 9: the popup lists the first four and offers "See all" only above five. */
export const popupItemCount = 4;
export const seeAllThreshold = 5;
