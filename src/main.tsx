import './lib/zod-config.ts';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, startTransition, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { loadFullSystem, prepareAppSystem } from './app/app-system.ts';
import { AppProvider } from './app/provider.tsx';
import { UpdatePrompt } from './features/offline/update-prompt.tsx';
import { ChunkWaitingBanner } from './app/chunk-waiting-banner.tsx';
import { connectionLostText, installChunkLoader, onChunkWaitingChange } from './lib/lazy-import.ts';
import { registerServiceWorker } from './lib/pwa.ts';
import { leaveIfTabWasExited } from './lib/quick-exit.ts';
import { getAuthState, maybeSignedIn, startSession, useAuth } from './lib/session.ts';
import { router, signedInProfile } from './router.tsx';

function App() {
  const auth = useAuth();
  useEffect(() => {
    void router.invalidate();
  }, [auth.userId]);
  return <RouterProvider router={router} context={{ auth, profile: signedInProfile }} />;
}

/**
 * Before React draws, the static sign-in card or the splash is what the page shows: while a part the first screen
 * needs waits for the connection, it says so there (the static card's status line, or under the splash's name).
 */
function sayConnectionLostBeforeFirstRender(): () => void {
  return onChunkWaitingChange((waiting) => {
    const alertLine = document.querySelector('[data-first-paint] .fp-alert');
    const splashName = document.querySelector('#root .splash-name');
    const host = alertLine ?? splashName?.parentElement;
    if (!host) return;
    let note = host.querySelector<HTMLElement>('[data-connection-lost]');
    if (!note) {
      note = document.createElement('span');
      note.dataset.connectionLost = '';
      note.setAttribute('role', 'status');
      note.style.color = '#c2410c';
      // In the static card's empty status line (no shift of the card), or under the splash's name.
      host.append(note);
    }
    note.textContent = waiting ? connectionLostText : '';
  });
}

// First of all: a portal page reached by Back/Forward after a quick exit in this tab draws nothing and leaves.
if (!leaveIfTabWasExited()) {
  // Before anything loads lazily: every dynamic import goes through it (src/lib/lazy-import.ts).
  installChunkLoader();
  const stopNotingBeforeRender = sayConnectionLostBeforeFirstRender();
  registerServiceWorker();

  // Firebase restores the session from IndexedDB (no network needed) before the first route decision, where
  // someone was signed in last time (src/lib/session.ts).
  const session = startSession();
  // Where someone is probably signed in, the signed-in screens' theme and the replica load meanwhile, not after.
  if (maybeSignedIn()) {
    // A failure here is met again, and reported, where a route guard needs them.
    loadFullSystem().catch(() => undefined);
    import('./lib/load-profile.ts').catch(() => undefined);
  }
  await session;
  // The first screen's route is resolved (guards run, its code loaded) before React draws: the splash in
  // index.html stays until the screen replaces it, instead of giving way to an empty page in between.
  router.update({ ...router.options, context: { auth: getAuthState(), profile: signedInProfile } });
  await router.load();
  await prepareAppSystem();
  stopNotingBeforeRender();
  const root = createRoot(document.getElementById('root')!);
  // As a transition, the first render yields to the browser every few milliseconds instead of holding the main
  // thread for its whole length (a slow phone stays responsive; the splash or static card stays until it commits).
  startTransition(() =>
    root.render(
      <StrictMode>
        <AppProvider>
          <App />
          <UpdatePrompt />
          <ChunkWaitingBanner />
        </AppProvider>
      </StrictMode>,
    ),
  );
}
