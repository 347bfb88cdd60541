import { useLiveQuery } from '../../../lib/use-live-query.ts';
import { SearchX } from 'lucide-react';
import { texts } from '../../../../domain/texts.ts';
import { ListCard } from '../../../components/list-card.tsx';
import { useReplica } from '../../../lib/replica.ts';
import { ContactSupportLink } from '../shared/contact-support-link.tsx';
import { iconSize } from '../../../components/theme-tokens.ts';
import { ContactThread } from './contact-thread.tsx';
import { useThreadReplies } from './use-thread-replies.ts';

/**
 * Earlier messages to support, newest first, each the start of a thread with support; ones still in the outbox are
 * badged. `openThreadId` (a notification's link) opens that conversation and brings it into view.
 */
export function ContactRequestsPage({ openThreadId }: { openThreadId?: string } = {}) {
  const db = useReplica();
  const rows = useLiveQuery(() => db.contactRequests.orderBy('createdAt').reverse().toArray(), [db]);
  const replies = useThreadReplies();
  return (
    <ListCard
      title="Contact Requests"
      // Threads wait for their replies too, so a thread never shows "no replies" for a moment.
      items={replies === undefined ? undefined : rows}
      loadingLabel="Loading contact requests"
      maxWidth="550px"
      itemTestId="contact-request"
      empty={{
        icon: <SearchX size={iconSize} />,
        text: texts.nothingFound,
        action: <ContactSupportLink />,
      }}
      renderItem={(row) => <ContactThread thread={row} replies={replies?.get(row.id) ?? noReplies} linked={row.id === openThreadId} />}
    />
  );
}

const noReplies: never[] = [];
