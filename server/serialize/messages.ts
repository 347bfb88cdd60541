import type { ContactReply, ContactRequest, NotificationItem, ThreadStatus, UserFile } from '../../domain/schemas.ts';
import type { StaffNote, StaffThread } from '../../domain/staff.ts';
import type { NotificationRead } from '../../domain/notification-reads.ts';
import type { NotificationPreferences } from '../../domain/notification-preferences.ts';
import type { contactReplies, contactRequests, files, notificationPreferences, notificationReads, notifications, staffNotes } from '../db/schema.ts';

/**
 * Row → API shape for notifications, contact requests and files. The REST routes and the sync feed
 * both use these, so the two can never disagree on a field.
 */
export function toNotification(row: typeof notifications.$inferSelect): NotificationItem {
  return { id: row.id, message: row.message, createdAt: iso(row.createdAt), userId: row.userId ?? null };
}

/** The user's notification choices as the feed and PUT /api/user/notification-preferences send them. */
export function toNotificationPreferences(row: typeof notificationPreferences.$inferSelect): NotificationPreferences {
  const { seq: _seq, updatedAt, ...switches } = row;
  return { ...switches, updatedAt: iso(updatedAt) };
}

export function toNotificationRead(row: typeof notificationReads.$inferSelect): NotificationRead {
  return { userId: row.userId, readUpTo: iso(row.readUpTo), updatedAt: iso(row.updatedAt) };
}

export function toContactRequest(row: typeof contactRequests.$inferSelect): ContactRequest {
  return {
    id: row.id,
    subject: row.subject,
    message: row.message,
    createdAt: iso(row.createdAt),
    status: row.status as ThreadStatus,
    ...(row.commandId ? { commandId: row.commandId } : {}),
  };
}

/** The client sees who wrote a reply (they or support), never which staff member. */
export function toContactReply(row: typeof contactReplies.$inferSelect): ContactReply {
  return {
    id: row.id,
    threadId: row.threadId,
    author: row.author as ContactReply['author'],
    message: row.message,
    createdAt: iso(row.createdAt),
    ...(row.commandId ? { commandId: row.commandId } : {}),
  };
}

/** A thread as staff see it; `replies` are the thread's, oldest first. */
export function toStaffThread(row: typeof contactRequests.$inferSelect, replies: (typeof contactReplies.$inferSelect)[]): StaffThread {
  return {
    ...toContactRequest(row),
    version: row.version,
    awaitingSince: row.awaitingSince ? iso(row.awaitingSince) : null,
    replies: replies.map(toContactReply),
  };
}

export function toStaffNote(row: typeof staffNotes.$inferSelect): StaffNote {
  return {
    id: row.id,
    clientUid: row.subjectUid,
    requestId: row.requestId,
    author: { uid: row.authorUid, email: row.authorEmail },
    body: row.body,
    createdAt: iso(row.createdAt),
    ...(row.commandId ? { commandId: row.commandId } : {}),
  };
}

export function toUserFile(row: typeof files.$inferSelect): UserFile {
  return { id: row.id, name: row.originalName, size: row.size, contentType: row.contentType, sha256: row.sha256, createdAt: iso(row.createdAt) };
}

/** A timestamp as the API sends it (ISO 8601, UTC, milliseconds). */
export const iso = (value: string) => new Date(value).toISOString();
