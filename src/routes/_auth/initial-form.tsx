import { createFileRoute, redirect } from '@tanstack/react-router';
import { InitialFormPage } from '../../features/client/profile/initial-form-page.tsx';

/** The form is filled once: a user who has filled it (on this device or another) goes to the dashboard. */
export const Route = createFileRoute('/_auth/initial-form')({
  beforeLoad: async ({ context }) => {
    if ((await context.profile())?.filledInitialForm) throw redirect({ to: '/', replace: true });
  },
  component: InitialFormPage,
});
