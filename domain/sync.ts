import { z } from 'zod';
import { ContactReply, ContactRequest, Deal, NotificationItem, ProductRequest, Profile, RefundRequest, UserFile } from './schemas.ts';

/** Cursor of the delta feed: the highest change sequence number the client has applied. */
export const SyncCursor = z.string().regex(/^\d{1,18}$/, 'cursor must be a non-negative integer');
export const SyncQuery = z.object({ cursor: SyncCursor.default('0'), limit: z.coerce.number().int().min(1).max(5000).default(2000) });

/**
 * One page of GET /api/sync: every row of the user's that changed after `cursor`, oldest first.
 * `hasMore` means the client should pull again at once with the returned cursor.
 */
export const SyncPage = z.object({
  cursor: SyncCursor,
  hasMore: z.boolean(),
  profile: Profile.nullable(),
  requests: z.array(ProductRequest),
  deals: z.array(Deal),
  refunds: z.array(RefundRequest),
  notifications: z.array(NotificationItem),
  contactRequests: z.array(ContactRequest),
  /** Replies in the user's support threads, from either side. Absent from servers before threads. */
  contactReplies: z.array(ContactReply).default([]),
  files: z.array(UserFile),
});
export type SyncPage = z.infer<typeof SyncPage>;

/** A page with no changes: where a pull starts filling, and the whole answer when nothing changed. */
export function emptySyncPage(cursor: string, hasMore = false): SyncPage {
  return { cursor, hasMore, profile: null, requests: [], deals: [], refunds: [], notifications: [], contactRequests: [], contactReplies: [], files: [] };
}
