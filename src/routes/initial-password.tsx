import { createFileRoute, redirect } from '@tanstack/react-router';
import { loadFullSystem } from '../app/app-system.ts';
import { InitialPasswordPage } from '../features/auth/initial-password-page.tsx';

/**
 * Firebase's reset link: only the two strings are kept, anything else is dropped. Checked by hand rather than with
 * zod to keep zod off every screen's first load (see readQueueSearch); the code itself is checked by Firebase.
 */
function readResetLink(search: Record<string, unknown>): { mode?: string; oobCode?: string } {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return { mode: text(search.mode), oobCode: text(search.oobCode) };
}

/** Only the password-reset mode belongs here; any other mode goes to /. */
export const Route = createFileRoute('/initial-password')({
  validateSearch: readResetLink,
  beforeLoad: async ({ search }) => {
    if (search.mode !== 'resetPassword') throw redirect({ to: '/' });
    // Its checklist draws with a recipe the sign-in screen does without (app-system.ts).
    await loadFullSystem();
  },
  component: InitialPasswordPage,
});
