import { createFileRoute } from '@tanstack/react-router';
import { ContactRequestsPage } from '../../features/client/contact/contact-requests-page.tsx';
import { readContactRequestsSearch } from '../../lib/deep-links.ts';

/** ?thread=<id> opens that conversation (a notification's link). */
export const Route = createFileRoute('/_auth/contact-requests')({ validateSearch: readContactRequestsSearch, component: ContactRequestsRoute });

function ContactRequestsRoute() {
  const { thread } = Route.useSearch();
  return <ContactRequestsPage openThreadId={thread} />;
}
