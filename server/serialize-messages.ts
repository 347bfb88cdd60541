import type { ContactRequest, NotificationItem, UserFile } from '../domain/schemas.ts';
import type { contactRequests, files, notifications } from './db/schema.ts';

/**
 * Row → API shape for notifications, contact requests and files. The REST routes and the sync feed
 * both use these, so the two can never disagree on a field.
 */
export function toNotification(row: typeof notifications.$inferSelect): NotificationItem {
  return { id: row.id, message: row.message, createdAt: iso(row.createdAt), userId: row.userId ?? null };
}

export function toContactRequest(row: typeof contactRequests.$inferSelect): ContactRequest {
  return { id: row.id, subject: row.subject, message: row.message, createdAt: iso(row.createdAt), ...(row.clientKey ? { commandId: row.clientKey } : {}) };
}

export function toUserFile(row: typeof files.$inferSelect): UserFile {
  return { id: row.id, name: row.originalName, size: row.size, contentType: row.contentType, sha256: row.sha256, createdAt: iso(row.createdAt) };
}

const iso = (value: string) => new Date(value).toISOString();
