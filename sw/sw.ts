/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

/** Cache of final files the user downloaded, so a report opens offline. API answers are never cached. */
export const FINAL_FILES_CACHE = 'final-files';

// Take control of the page on the very first visit, so offline navigation works without a reload first.
// Updates still wait for the user's Reload (registerType 'prompt'): a waiting worker is never claimed early.
clientsClaim();
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

// Every route of the app opens from the precached shell when offline; /api is never served from here.
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [/^\/api\//] }));

// Signed download links are unique per file and immutable: the first download is kept for offline use.
registerRoute(({ url, request }) => request.method === 'GET' && url.pathname.startsWith('/api/download/'), new CacheFirst({ cacheName: FINAL_FILES_CACHE }));

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// Background Sync: the browser wakes us when connectivity returns; the page's outbox sender does the sending
// (it holds the user's session), so we only wake it.
self.addEventListener('sync', (event: Event) => {
  const syncEvent = event as Event & { tag: string; waitUntil(p: Promise<unknown>): void };
  if (syncEvent.tag === 'outbox') syncEvent.waitUntil(wakeClients());
});

async function wakeClients(): Promise<void> {
  const clients = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const client of clients) client.postMessage({ type: 'outbox-sync' });
}
