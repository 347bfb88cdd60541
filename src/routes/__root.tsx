import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import { NotFoundPage } from '../app/not-found-page.tsx';
import type { RouterContext } from '../app/router-context.ts';
import { QuickExitButton } from '../app/shell/quick-exit-button.tsx';

/** Every screen, signed in or not, has the quick exit. */
function Root() {
  return (
    <>
      <Outlet />
      <QuickExitButton />
    </>
  );
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Root,
  notFoundComponent: NotFoundPage,
});
