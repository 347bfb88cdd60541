import { createRouter } from '@tanstack/react-router';
import { routeTree } from '../route-tree.gen.ts';
import type { AuthState } from '../lib/session.ts';
import { NotFoundPage } from './not-found-page.tsx';

export interface RouterContext {
  auth: AuthState;
}

export const router = createRouter({
  routeTree,
  context: { auth: undefined! as AuthState },
  defaultNotFoundComponent: NotFoundPage,
  defaultPreload: 'intent',
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
