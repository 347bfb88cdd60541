import { createFileRoute } from '@tanstack/react-router';
import { RequestPage } from '../../../../features/staff/request/request-page.tsx';

export const Route = createFileRoute('/_auth/_staff/staff/requests/$requestId')({ component: RequestRoute });

function RequestRoute() {
  const { requestId } = Route.useParams();
  // Keyed: another request's page starts with empty forms and no conflict of the previous one.
  return <RequestPage key={requestId} requestId={requestId} />;
}
