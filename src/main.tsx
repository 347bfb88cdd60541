import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './app/provider.tsx';
import { router } from './app/router.tsx';
import { UpdatePrompt } from './features/offline/update-prompt.tsx';
import { registerServiceWorker } from './lib/pwa.ts';
import { startSession, useAuth } from './lib/session.ts';

function App() {
  const auth = useAuth();
  useEffect(() => {
    void router.invalidate();
  }, [auth.userId]);
  return <RouterProvider router={router} context={{ auth }} />;
}

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
