import { createFileRoute, redirect } from '@tanstack/react-router';
import { DashboardPage } from '../../features/client/dashboard/dashboard-page.tsx';
import { RefreshRequestsButton } from '../../features/client/requests/refresh-requests-button.tsx';
import { RequestsTable } from '../../features/client/requests/requests-table.tsx';
import { ToolsCarousel } from '../../features/client/tools/tools-carousel.tsx';

export const Route = createFileRoute('/_auth/')({
  beforeLoad: async ({ context }) => {
    const profile = await context.profile();
    // Staff have no case of their own: their home is the workspace queue.
    if (profile?.isStaff && !profile.isClient) throw redirect({ to: '/staff', replace: true });
  },
  component: Dashboard,
});

function Dashboard() {
  return (
    <DashboardPage
      tools={<ToolsCarousel />}
      requests={<RequestsTable title="Tools requests" showAmount actions={<RefreshRequestsButton />} />}
    />
  );
}
