import { Outlet, createFileRoute } from '@tanstack/react-router';
import { RoleGate } from '../../features/staff/shared/staff-gate.tsx';

/** The staff workspace: every /staff page is for support staff (and admins); the server refuses others with 403 too. */
export const Route = createFileRoute('/_auth/staff')({ component: StaffLayout });

function StaffLayout() {
  return (
    <RoleGate role="staff">
      <Outlet />
    </RoleGate>
  );
}
