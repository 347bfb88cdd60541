import { useSyncExternalStore } from 'react';
import type { Workbox } from 'workbox-window';
import { FINAL_FILES_CACHE, finalFileCacheKey } from '../../domain/downloads.ts';
import { createStore } from './create-store.ts';
import { waitForConnection } from './lazy-import.ts';

/** The one wrapper around workbox-window and the browser's install/storage APIs. */
interface PwaState {
  updateReady: boolean;
  canInstall: boolean;
  registered: boolean;
}

const store = createStore<PwaState>({ updateReady: false, canInstall: false, registered: false });
let workbox: Workbox | null = null;
/** Set when the user pressed Reload: the next change of controller reloads the page. */
let reloadRequested = false;
let installEvent: (Event & { prompt(): Promise<void>; userChoice: Promise<{ outcome: string }> }) | null = null;

export function usePwa(): PwaState {
  return store.useSelect((s) => s);
}

/**
 * Registers the service worker. A waiting worker only exists when an older one controls the page,
 * so the update prompt never shows on a first visit.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  // workbox-window loads after the first screen's code: registering can wait, drawing cannot. Its module arrives
  // through the chunk loader, which waits for the connection (lazy-import.ts). Registering is tried again until a
  // worker is installed: fetching sw.js can fail, and so can the first install (it fetches every file of the app),
  // after which the browser drops the registration and would not try again before the next visit.
  void import('workbox-window').then(async ({ Workbox }) => {
    for (let attempt = 0; ; attempt++) {
      const candidate = new Workbox('/sw.js', { scope: '/' });
      candidate.addEventListener('waiting', () => store.set({ updateReady: true }));
      // workbox-window marks `isUpdate` only when the page had a controller at registration, which a page
      // opened on the very first visit never has: rely on the user's request too, or Reload would do nothing.
      candidate.addEventListener('controlling', (event) => {
        if (event.isUpdate || reloadRequested) window.location.reload();
      });
      try {
        const registration = await candidate.register();
        if (registration && (await installOutcome(registration)) === 'installed') {
          workbox = candidate;
          store.set({ registered: true });
          return;
        }
      } catch {
        // sw.js did not arrive: below, as a failed install.
      }
      await waitForConnection(attempt);
    }
  });
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    installEvent = event as typeof installEvent;
    store.set({ canInstall: true });
  });
  window.addEventListener('appinstalled', () => {
    installEvent = null;
    store.set({ canInstall: false });
  });
}

/** Whether the worker being installed made it (installed or further), or became redundant (its install failed). */
function installOutcome(registration: ServiceWorkerRegistration): Promise<'installed' | 'failed'> {
  const worker = registration.installing;
  if (!worker) return Promise.resolve(registration.active || registration.waiting ? 'installed' : 'failed');
  return new Promise((resolve) => {
    const check = () => {
      if (worker.state === 'redundant') resolve(registration.active || registration.waiting ? 'installed' : 'failed');
      else if (worker.state !== 'installing') resolve('installed');
      else return;
      worker.removeEventListener('statechange', check);
    };
    worker.addEventListener('statechange', check);
    check();
  });
}

/** Reload into the new version: the waiting worker takes over, then `controlling` reloads the page. */
export function applyUpdate(): void {
  if (!workbox) return window.location.reload();
  reloadRequested = true;
  workbox.messageSkipWaiting();
  // Should the controller change go unnoticed, still bring the new version.
  setTimeout(() => window.location.reload(), 5_000);
}

export async function promptInstall(): Promise<void> {
  if (!installEvent) return;
  await installEvent.prompt();
  await installEvent.userChoice;
  installEvent = null;
  store.set({ canInstall: false });
}

/** Asks the browser not to evict the replica and the outbox under storage pressure. */
export async function requestPersistentStorage(): Promise<boolean> {
  if (!navigator.storage?.persist) return false;
  if (await navigator.storage.persisted()) return true;
  return navigator.storage.persist();
}

/** Background Sync: the browser wakes the service worker when connectivity returns, which wakes the sender. */
export async function requestBackgroundSync(): Promise<void> {
  try {
    const registration = (await navigator.serviceWorker?.getRegistration()) as (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | undefined;
    await registration?.sync?.register('outbox');
  } catch {
    // Not supported or not allowed: the online/visible/timer triggers still run the sender.
  }
}

/** Whether the service worker keeps a copy of the file behind this download link (it then opens offline). */
export async function hasSavedCopy(link: string): Promise<boolean> {
  const key = finalFileCacheKey(link);
  if (!key || typeof caches === 'undefined') return false;
  return !!(await (await caches.open(FINAL_FILES_CACHE)).match(key));
}

/** Online status as a hook, for indicators and for online-only actions. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    (l) => {
      window.addEventListener('online', l);
      window.addEventListener('offline', l);
      return () => {
        window.removeEventListener('online', l);
        window.removeEventListener('offline', l);
      };
    },
    () => navigator.onLine,
  );
}
