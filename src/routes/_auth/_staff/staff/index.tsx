import { createFileRoute } from '@tanstack/react-router';
import { readQueueSearch } from '../../../../../domain/queue-tabs.ts';
import { QueuePage } from '../../../../features/staff/queue/queue-page.tsx';

/** The tab and the search live in the URL, so a reload or a shared link opens the same list. A bad value falls back to the default. */
export const Route = createFileRoute('/_auth/_staff/staff/')({
  validateSearch: readQueueSearch,
  component: QueueRoute,
});

function QueueRoute() {
  const { tab = 'pending', q = '' } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <QueuePage
      tab={tab}
      q={q}
      onChange={(next) =>
        void navigate({
          search: { tab: next.tab, q: next.q || undefined },
          // Typing a search replaces the entry; switching tabs adds one, so Back returns to the previous tab.
          replace: next.tab === tab,
        })
      }
    />
  );
}
