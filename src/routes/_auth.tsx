import { Outlet, createFileRoute, redirect } from '@tanstack/react-router';
import { SignedInLayout } from '../app/signed-in-layout.tsx';

/** Pathless guard (TanStack's authenticated-routes pattern): unauthenticated users go to /login. */
export const Route = createFileRoute('/_auth')({
  beforeLoad: ({ context }) => {
    if (!context.auth.isAuthenticated) throw redirect({ to: '/login' });
  },
  component: AuthenticatedLayout,
});

function AuthenticatedLayout() {
  const { auth } = Route.useRouteContext();
  if (!auth.userId) return null;
  return (
    <SignedInLayout key={auth.userId} uid={auth.userId}>
      <Outlet />
    </SignedInLayout>
  );
}
