import { createFileRoute } from '@tanstack/react-router';
import { ClientFilePage } from '../../../../features/staff/client-file/client-file-page.tsx';

export const Route = createFileRoute('/_auth/_staff/staff/clients/$uid')({ component: ClientRoute });

function ClientRoute() {
  const { uid } = Route.useParams();
  // Keyed: another client's page starts with its own state, not the previous client's conflict or forms.
  return <ClientFilePage key={uid} uid={uid} />;
}
