import { createFileRoute, redirect } from '@tanstack/react-router';
import { z } from 'zod';
import { InitialPasswordPage } from '../features/auth/initial-password-page.tsx';

const Search = z.object({ mode: z.string().optional().catch(undefined), oobCode: z.string().optional().catch(undefined) });

/** Only the password-reset mode belongs here; any other mode goes to /. */
export const Route = createFileRoute('/initial-password')({
  validateSearch: Search,
  beforeLoad: ({ search }) => {
    if (search.mode !== 'resetPassword') throw redirect({ to: '/' });
  },
  component: InitialPasswordPage,
});
