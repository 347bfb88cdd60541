import { createFileRoute, redirect } from '@tanstack/react-router';
import { LoginPage } from '../features/auth/login-page.tsx';

/** A signed-in user has nothing to do here: the dashboard. */
export const Route = createFileRoute('/login')({
  beforeLoad: ({ context }) => {
    if (context.auth.isAuthenticated) throw redirect({ to: '/', replace: true });
  },
  component: LoginPage,
});
