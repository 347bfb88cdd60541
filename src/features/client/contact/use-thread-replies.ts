import { useLiveQuery } from '../../../lib/use-live-query.ts';
import type { LocalContactReply } from '../../../lib/db.ts';
import { useReplica } from '../../../lib/replica.ts';

/**
 * Every reply of the user's support threads, by thread id, oldest first: one live query for the page, so a
 * reply queued here or a staff reply pulled by the sync shows in its thread at once.
 */
export function useThreadReplies(): Map<string, LocalContactReply[]> | undefined {
  const db = useReplica();
  return useLiveQuery(async () => {
    const byThread = new Map<string, LocalContactReply[]>();
    for (const reply of await db.contactReplies.orderBy('createdAt').toArray()) {
      const thread = byThread.get(reply.threadId);
      if (thread) thread.push(reply);
      else byThread.set(reply.threadId, [reply]);
    }
    return byThread;
  }, [db]);
}
