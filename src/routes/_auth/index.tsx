import { Navigate, createFileRoute } from '@tanstack/react-router';
import { GatingBanners } from '../../features/profile/gating-banners.tsx';
import { DashboardPage } from '../../features/requests/dashboard-page.tsx';
import { useProfile } from '../../lib/replica.ts';

export const Route = createFileRoute('/_auth/')({ component: Dashboard });

function Dashboard() {
  const profile = useProfile();
  // Staff have no case of their own: their home is the workspace queue.
  if (profile?.isStaff && !profile.isClient) return <Navigate to="/staff" replace />;
  return (
    <>
      <GatingBanners />
      <DashboardPage />
    </>
  );
}
