import { useLiveQuery } from '../../../lib/use-live-query.ts';
import { useReplica } from '../../../lib/replica.ts';
import { type QueuedStaffWrite, readStaffCommand } from '../../../lib/sync/commands/staff-kinds.ts';

export type QueuedReply = Extract<QueuedStaffWrite, { kind: 'staffReply' }>;
export type QueuedNote = Extract<QueuedStaffWrite, { kind: 'staffNote' }>;

/**
 * Replies and notes written on this client's pages that the outbox has not sent yet, oldest first. They
 * have no row of their own: the page shows them from the outbox, and the server's answer replaces them.
 */
export function useQueuedStaffWrites(clientUid: string): { replies: QueuedReply[]; notes: QueuedNote[] } {
  const db = useReplica();
  const writes =
    useLiveQuery(
      async () =>
        (await db.outbox.orderBy('seq').filter((c) => (c.kind === 'staffReply' || c.kind === 'staffNote') && c.target.id === clientUid).toArray())
          .map(readStaffCommand)
          .filter((w): w is QueuedStaffWrite => w !== null),
      [db, clientUid],
    ) ?? [];
  return {
    replies: writes.filter((w): w is QueuedReply => w.kind === 'staffReply'),
    notes: writes.filter((w): w is QueuedNote => w.kind === 'staffNote'),
  };
}
