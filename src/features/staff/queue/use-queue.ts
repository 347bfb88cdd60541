import { useState } from 'react';
import { QueuePage, type QueueItem, type QueueTab } from '../../../../domain/staff.ts';
import { apiGet } from '../../../lib/api.ts';
import { showMessage } from '../../../lib/ui-state.ts';
import { failureText, useOnlineAction } from '../../../lib/use-online-action.ts';
import { useStaffQuery } from '../shared/use-staff-query.ts';

export function queueItemKey(item: QueueItem): string {
  return item.kind === 'lead' ? `lead:${item.uid}` : `request:${item.id}`;
}

/** Later pages, tied to the first page they continue: a reload of the first page starts the list over. */
interface MorePages {
  after: QueuePage;
  items: QueueItem[];
  nextCursor: string | null;
}

/** One queue tab, searched: the first page from the server, then "Load more" pages appended by cursor. */
export function useQueue(tab: QueueTab, q: string) {
  const params = new URLSearchParams({ tab });
  if (q) params.set('q', q);
  const path = `/staff/queue?${params.toString()}`;
  const first = useStaffQuery(path, QueuePage);
  const [more, setMore] = useState<MorePages | null>(null);
  const { running: loadingMore, run } = useOnlineAction();

  const extra = more && first.data && more.after === first.data ? more : null;
  const items = first.data ? dedupe([...first.data.items, ...(extra?.items ?? [])]) : undefined;
  const nextCursor = extra ? extra.nextCursor : (first.data?.nextCursor ?? null);

  async function loadMore() {
    const base = first.data;
    if (!base || !nextCursor) return;
    const outcome = await run(() => apiGet(`${path}&cursor=${encodeURIComponent(nextCursor)}`, QueuePage));
    if (!outcome) return;
    if (outcome.ok) {
      const page = outcome.value;
      setMore((prev) => ({ after: base, items: [...(prev && prev.after === base ? prev.items : []), ...page.items], nextCursor: page.nextCursor }));
    } else if (!outcome.offline) {
      showMessage(failureText(outcome.error), 'error');
    }
  }

  return { query: first, counts: first.data?.counts, items, nextCursor, loadMore, loadingMore };
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
