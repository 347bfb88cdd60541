import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import { NotFoundPage } from '../app/not-found-page.tsx';
import type { RouterContext } from '../app/router-context.ts';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFoundPage,
});
