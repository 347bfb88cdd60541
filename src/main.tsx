import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './app/provider.tsx';
import { UpdatePrompt } from './features/offline/update-prompt.tsx';
import { registerServiceWorker } from './lib/pwa.ts';
import { leaveIfTabWasExited } from './lib/quick-exit.ts';
import { startSession, useAuth } from './lib/session.ts';
import { router, signedInProfile } from './router.tsx';

function App() {
  const auth = useAuth();
  useEffect(() => {
    void router.invalidate();
  }, [auth.userId]);
  return <RouterProvider router={router} context={{ auth, profile: signedInProfile }} />;
}

// First of all: a portal page reached by Back/Forward after a quick exit in this tab draws nothing and leaves.
if (!leaveIfTabWasExited()) {
  registerServiceWorker();

  // Firebase restores the session from IndexedDB (no network needed) before the first route decision.
  await startSession();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProvider>
        <App />
        <UpdatePrompt />
      </AppProvider>
    </StrictMode>,
  );
}
