/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

import { FINAL_FILES_CACHE, finalFileCacheKey } from '../domain/downloads.ts';
import { listenForPush } from './push.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

/**
 * The static routes of Chromium 123+ (InstallEvent.addRoutes; elsewhere absent, and nothing changes): the API's
 * requests go to the network without waking this worker. Its fetch listener (workbox's router) handles no /api
 * request but the final-file downloads, yet every request the page made was first dispatched to it: about a third
 * of a direct write's time in the browser (docs/decisions/018). The downloads keep
 * the fetch event; rules are matched in order, the first that matches decides.
 */
type StaticRoute = { condition: { urlPattern: { pathname: string } }; source: 'network' | 'fetch-event' };
const API_ROUTES: StaticRoute[] = [
  { condition: { urlPattern: { pathname: '/api/download/*' } }, source: 'fetch-event' },
  { condition: { urlPattern: { pathname: '/api/*' } }, source: 'network' },
];
self.addEventListener('install', (event) => {
  const install = event as ExtendableEvent & { addRoutes?: (rules: StaticRoute[]) => Promise<void> };
  // A browser that refuses the rules still has the fetch listener, which passes /api through as before.
  if (install.addRoutes) install.waitUntil(install.addRoutes(API_ROUTES).catch((err: unknown) => console.warn('static routes refused', err)));
});

// Take control of the page on the very first visit, so offline navigation works without a reload first.
// Updates still wait for the user's Reload (registerType 'prompt'): a waiting worker is never claimed early.
clientsClaim();
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

// Every route of the app opens from the precached shell when offline; /api is never served from here.
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [/^\/api\//] }));

// Final files the user downloaded are kept (by file, not by the expiring link), so a report opens offline.
// No other API answer is cached: data lives in the page's replica.
registerRoute(
  ({ url, request }) => request.method === 'GET' && url.pathname.startsWith('/api/download/'),
  async ({ request, url }) => {
    const key = finalFileCacheKey(url.pathname);
    const cache = await caches.open(FINAL_FILES_CACHE);
    const saved = key ? await cache.match(key) : undefined;
    if (saved) return saved;
    const response = await fetch(request);
    if (key && response.ok) await cache.put(key, response.clone());
    return response;
  },
);

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// Web Push: every push shows a notification, a click opens its screen (sw/push.ts).
listenForPush();

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
