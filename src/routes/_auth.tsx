import { Outlet, createFileRoute, redirect } from '@tanstack/react-router';
import { loadFullSystem } from '../app/app-system.ts';
import { SignedInLayout } from '../app/signed-in-layout.tsx';
import { SecondFactorGate } from '../features/auth/second-factor-gate.tsx';

/** Pathless guard (TanStack's authenticated-routes pattern): unauthenticated users go to /login. */
export const Route = createFileRoute('/_auth')({
  beforeLoad: async ({ context }) => {
    if (!context.auth.isAuthenticated) throw redirect({ to: '/login' });
    // The signed-in screens draw with recipes the sign-in screen does without (app-system.ts).
    await loadFullSystem();
  },
  component: AuthenticatedLayout,
});

function AuthenticatedLayout() {
  const { auth } = Route.useRouteContext();
  if (!auth.userId) return null;
  return (
    <SignedInLayout key={auth.userId} uid={auth.userId}>
      {/* An account with a second factor verifies it in every session: the server refuses its calls until then. */}
      <SecondFactorGate>
        <Outlet />
      </SecondFactorGate>
    </SignedInLayout>
  );
}
