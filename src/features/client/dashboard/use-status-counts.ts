import { useLiveQuery } from '../../../lib/use-live-query.ts';
import type { StatusCounts } from '../../../../domain/schemas.ts';
import type { LocalRequest } from '../../../lib/db.ts';
import { useReplica } from '../../../lib/replica.ts';

/** Counted on the device rather than fetched, so the cards agree with the tables, offline too; index-only counts. */
export function useStatusCounts(): StatusCounts | undefined {
  const db = useReplica();
  return useLiveQuery(async () => {
    const count = (status: LocalRequest['status']) => db.requests.where('status').equals(status).count();
    const [done, inProgress, pending, waitingForActions] = await Promise.all([count('Done'), count('In Progress'), count('Pending'), count('Waiting for actions')]);
    return { done, inProgress, pending, waitingForActions };
  }, [db]);
}
