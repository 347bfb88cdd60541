import { texts } from '../../../../domain/texts.ts';
import { useLiveQuery } from '../../../lib/use-live-query.ts';
import type { LocalRefund } from '../../../lib/db.ts';
import { useReplica } from '../../../lib/replica.ts';

/** The text the server answers a second refund with (409 REFUND_PENDING); the dialog says it before asking. */
export const refundPendingText = texts.refundPending;

/** Oldest first; a refund still in the outbox has the device's time, so it sorts as the newest. */
function byCreatedAt(a: LocalRefund, b: LocalRefund): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0;
}

/** A refund not decided yet, whether sent or still in the outbox: the server refuses another one meanwhile. */
export function undecidedRefund(refunds: readonly LocalRefund[]): LocalRefund | undefined {
  return refunds.find((r) => r.status === 'requested');
}

const empty = new Map<string, LocalRefund>();

/**
 * The latest refund of each request on a table page, by request id: one index query for the page, live,
 * so a refund queued in the dialog or decided by staff shows on its row at once.
 */
export function useLatestRefunds(requestIds: readonly string[] | undefined): Map<string, LocalRefund> {
  const db = useReplica();
  const key = requestIds?.join('|') ?? '';
  const latest = useLiveQuery(async () => {
    const map = new Map<string, LocalRefund>();
    if (!key) return map;
    const refunds = await db.refunds.where('processId').anyOf(key.split('|')).toArray();
    for (const refund of refunds.sort(byCreatedAt)) map.set(refund.processId, refund);
    return map;
  }, [db, key]);
  return latest ?? empty;
}

/** Every refund of one request, oldest first; undefined while the replica answers, [] with no request. */
export function useRequestRefunds(requestId: string | null): LocalRefund[] | undefined {
  const db = useReplica();
  return useLiveQuery(async () => (requestId ? (await db.refunds.where('processId').equals(requestId).toArray()).sort(byCreatedAt) : []), [db, requestId]);
}
