import { z } from 'zod';
import { NotificationRead, NotificationReadBody, isUnread, laterMarker } from '../../domain/notification-reads.ts';
import type { NotificationItem } from '../../domain/schemas.ts';
import type { CommandKindDef } from './sync/commands/kind.ts';
import type { PortalDb } from './db.ts';
import { queueCommand } from './sync/commands/outbox.ts';

/**
 * The user's notification read marker in the replica (docs/decisions/014-notification-read-state.md). It only
 * moves forward: a pull bringing an older marker than the one shown (the command is not sent yet) keeps the
 * device's, so the badge never comes back for notifications already seen.
 */
export async function putReadMarker(db: PortalDb, row: NotificationRead): Promise<void> {
  const known = await db.notificationReads.get(row.userId);
  const readUpTo = laterMarker(known?.readUpTo, row.readUpTo);
  await db.notificationReads.put(readUpTo === row.readUpTo ? row : { ...row, readUpTo });
}

const StoredRead = z.object({ notificationId: z.string() });
/** What the marker said before the command: Discard puts it back (null: there was none on the device). */
const MarkerBefore = z.object({ readUpTo: z.string().nullable() });

/** "I have seen up to this notification": sent as PUT /api/notifications/read, shown at once as a badge at 0. */
export const notificationsRead: CommandKindDef<NotificationReadBody> = {
  read(command) {
    const body = StoredRead.safeParse(command.json);
    return body.success ? body.data : null;
  },
  validate: (_command, body) => NotificationReadBody.safeParse(body),
  payload: (_command, body) => ({ json: body }),
  async show(db, { target }, { notificationId }) {
    const seen = await db.notifications.get(notificationId);
    if (seen) await putReadMarker(db, { userId: target.id, readUpTo: seen.createdAt, updatedAt: new Date().toISOString() });
  },
  /** Back to the marker before, unless another such command still waits (its own Discard will put it back). */
  async revert(db, command) {
    const before = MarkerBefore.safeParse(command.revert);
    const later = await db.outbox.filter((c) => c.kind === 'notificationsRead' && c.seq !== command.seq).count();
    if (!before.success || later > 0) return;
    const row = await db.notificationReads.get(command.target.id);
    if (before.data.readUpTo === null) await db.notificationReads.delete(command.target.id);
    else if (row) await db.notificationReads.put({ ...row, readUpTo: before.data.readUpTo });
  },
  answer: NotificationRead,
  confirm: (db, _command, data) => putReadMarker(db, NotificationRead.parse(data)),
};

/**
 * Marks `newest` (the newest notification the user was shown) and every older one read. Queued only when it is
 * unread, so opening the bell again with nothing new sends nothing; the command's id, or null when nothing was queued.
 */
export async function markNotificationsRead(db: PortalDb, newest: Pick<NotificationItem, 'id' | 'createdAt'>): Promise<string | null> {
  const marker = await db.notificationReads.get(db.uid);
  if (marker && !isUnread(newest, marker.readUpTo)) return null;
  const commandId = crypto.randomUUID();
  const command = {
    commandId,
    kind: 'notificationsRead' as const,
    label: 'Notifications marked as read',
    method: 'PUT' as const,
    path: '/notifications/read',
    target: { table: 'notificationReads' as const, id: db.uid },
    revert: { readUpTo: marker?.readUpTo ?? null },
  };
  await queueCommand(db, notificationsRead, command, { notificationId: newest.id });
  return commandId;
}
