import { useLiveQuery } from '../../../lib/use-live-query.ts';
import { useState } from 'react';
import { QueuePage, type QueueItem, type QueueTab } from '../../../../domain/staff.ts';
import { apiGet } from '../../../lib/api.ts';
import { useReplica } from '../../../lib/replica.ts';
import { STAFF_COUNTS_KEY, type StaffCounts } from '../../../lib/sync/staff-pull.ts';
import { showMessage } from '../../../lib/ui-state.ts';
import { failureText, useOnlineAction } from '../../../lib/use-online-action.ts';
import { useStaffQuery } from '../shared/use-staff-query.ts';

export function queueItemKey(item: QueueItem): string {
  return item.kind === 'lead' ? `lead:${item.uid}` : `${item.kind}:${item.id}`;
}

/** Where a tab's first page is kept on the device, per search: later pages are not kept. */
export function queueCopyKey(tab: QueueTab, q: string): string {
  return `${tab}|${q}|`;
}

/** The freshest counts the device knows: a queue page's, or the staff feed's that came after it. */
function useStoredCounts(): StaffCounts | undefined {
  const db = useReplica();
  return useLiveQuery(async () => (await db.meta.get(STAFF_COUNTS_KEY))?.value as StaffCounts | undefined, [db]);
}

/** Later pages, tied to the first page they continue: a reload of the first page starts the list over. */
interface MorePages {
  /** The first page's path and fetch time: the same answer read back from the device is the same page. */
  after: string;
  items: QueueItem[];
  nextCursor: string | null;
}

/**
 * One queue tab, searched: the first page (from the device at once, then from the server), then "Load
 * more" pages appended by cursor, online only.
 */
export function useQueue(tab: QueueTab, q: string) {
  const params = new URLSearchParams({ tab });
  if (q) params.set('q', q);
  const path = `/staff/queue?${params.toString()}`;
  const first = useStaffQuery(path, QueuePage, { table: 'staffQueue', key: queueCopyKey(tab, q) });
  const storedCounts = useStoredCounts();
  const [more, setMore] = useState<MorePages | null>(null);
  const { running: loadingMore, run } = useOnlineAction();

  const stamp = `${path}@${first.fetchedAt ?? ''}`;
  const extra = more && first.data && more.after === stamp ? more : null;
  const items = first.data ? dedupe([...first.data.items, ...(extra?.items ?? [])]) : undefined;
  const nextCursor = extra ? extra.nextCursor : (first.data?.nextCursor ?? null);

  async function loadMore() {
    const base = stamp;
    if (!first.data || !nextCursor) return;
    const outcome = await run(() => apiGet(`${path}&cursor=${encodeURIComponent(nextCursor)}`, QueuePage));
    if (!outcome) return;
    if (outcome.ok) {
      const page = outcome.value;
      setMore((prev) => ({ after: base, items: [...(prev && prev.after === base ? prev.items : []), ...page.items], nextCursor: page.nextCursor }));
    } else if (!outcome.offline) {
      showMessage(failureText(outcome.error), 'error');
    }
  }

  // Older replicas' counts may lack a tab added since: the page's own counts fill it in.
  const counts = storedCounts || first.data ? { ...first.data?.counts, ...storedCounts } : undefined;
  return { query: first, counts, items, nextCursor, loadMore, loadingMore };
}

/** A row that moved while paging (someone acted on it) could come twice; show it once. */
function dedupe(items: QueueItem[]): QueueItem[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = queueItemKey(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
