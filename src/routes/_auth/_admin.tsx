import { Outlet, createFileRoute } from '@tanstack/react-router';
import { AccessRefused, AccessRefusedPanel } from '../../components/access-refused.tsx';
import { hasRole } from '../../../domain/roles.ts';
import { SecondFactorGate } from '../../features/auth/second-factor-gate.tsx';

/**
 * Pathless guard of the administrators' pages (Create Notification, Create User, Team). A non-admin is told
 * so on the page they opened; the server refuses their calls with 403 too.
 */
export const Route = createFileRoute('/_auth/_admin')({
  beforeLoad: async ({ context }) => {
    if (!hasRole(await context.profile(), 'admin')) throw new AccessRefused('This page is for administrators only.');
  },
  errorComponent: AccessRefusedPanel,
  // The server refuses every staff and admin call of a session without its second factor: the gate asks for it first.
  component: () => (
    <SecondFactorGate check>
      <Outlet />
    </SecondFactorGate>
  ),
});
