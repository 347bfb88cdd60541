import { Outlet, createFileRoute, redirect } from '@tanstack/react-router';
import { hasRole } from '../../../domain/roles.ts';
import { SecondFactorGate } from '../../features/auth/second-factor-gate.tsx';

/**
 * Pathless guard of the staff workspace (/staff/*): support staff and admins only. Anyone else goes home;
 * the server refuses their calls with 403 too. Roles come from the profile on the device, which every sync refreshes.
 */
export const Route = createFileRoute('/_auth/_staff')({
  beforeLoad: async ({ context }) => {
    if (!hasRole(await context.profile(), 'staff')) throw redirect({ to: '/', replace: true });
  },
  // The server refuses every staff and admin call of a session without its second factor: the gate asks for it first.
  component: () => (
    <SecondFactorGate check>
      <Outlet />
    </SecondFactorGate>
  ),
});
