import { createFileRoute } from '@tanstack/react-router';
import { GatingBanners } from '../../features/profile/gating-banners.tsx';
import { DashboardPage } from '../../features/requests/dashboard-page.tsx';

export const Route = createFileRoute('/_auth/')({ component: Dashboard });

function Dashboard() {
  return (
    <>
      <GatingBanners />
      <DashboardPage />
    </>
  );
}
