import { createRouter } from '@tanstack/react-router';
import type { Profile } from '../domain/schemas.ts';
import { NotFoundPage } from './app/not-found-page.tsx';
import { RouteLoadError } from './app/route-load-error.tsx';
import { getAuthState } from './lib/session.ts';
import { routeTree } from './route-tree.gen.ts';

/**
 * The router sits beside the generated route tree rather than in app/: the routes import the shell from
 * app/, so app/ importing the tree back would make the two folders depend on each other.
 */
/**
 * The profile comes from the replica (Dexie, zod, the sync code): loaded only when a guard asks, so the sign-in
 * screen does not download it.
 */
export async function signedInProfile(): Promise<Profile | null> {
  const { signedInProfile: fromReplica } = await import('./lib/load-profile.ts');
  return fromReplica();
}

export const router = createRouter({
  routeTree,
  // main.tsx passes the live auth state on every render; this is the state before the first one.
  context: { auth: getAuthState(), profile: signedInProfile },
  defaultNotFoundComponent: NotFoundPage,
  defaultErrorComponent: RouteLoadError,
  defaultPreload: 'intent',
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  /** Types every Link, navigate and redirect by the route tree, so renaming a route breaks the build. */
  interface Register {
    router: typeof router;
  }
  /** The spec passes the tool as navigation state as well as in the path (the carousel's Learn more). */
  interface HistoryState {
    toolId?: string;
  }
}
