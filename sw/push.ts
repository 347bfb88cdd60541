/// <reference lib="webworker" />
import { NEUTRAL_PUSH_BODY, PUSH_TITLE, PushPayload } from '../domain/push.ts';
import { ClickTestMessage, type NavigateMessage } from '../domain/push-messages.ts';

/**
 * Web Push in the service worker. Every push shows a notification (iOS revokes the subscription of an app whose
 * pushes show none), with neutral words when the payload is missing or unreadable; a click brings the app to the
 * payload's screen; a subscription the push service replaced is given to the server again.
 */

declare const self: ServiceWorkerGlobalScope;

/** What a push shows when its payload cannot be read: the product and nothing else. */
export const FALLBACK_TITLE = PUSH_TITLE;
export const FALLBACK_BODY = NEUTRAL_PUSH_BODY;
const FALLBACK_TAG = 'update';


interface Shown {
  title: string;
  options: NotificationOptions;
}

/** The payload as the server sent it, or the neutral fallback; the URL kept only if it is a path of this app. */
export function notificationOf(data: { json(): unknown } | null, origin: string): Shown {
  let payload: PushPayload | null = null;
  try {
    const parsed = PushPayload.safeParse(data?.json());
    payload = parsed.success ? parsed.data : null;
  } catch {
    payload = null;
  }
  const url = (payload && sameOriginPath(payload.url, origin)) ?? '/';
  return {
    title: payload?.title || FALLBACK_TITLE,
    options: {
      body: payload?.body || FALLBACK_BODY,
      tag: payload?.tag || FALLBACK_TAG,
      data: { url, id: payload?.id ?? null },
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-96.png',
    },
  };
}

/** `url` as a path of this origin ("/tool/x?request=1"), or null: a push never opens another site. */
export function sameOriginPath(url: unknown, origin: string): string | null {
  if (typeof url !== 'string' || !url.startsWith('/') || url.startsWith('//')) return null;
  try {
    const resolved = new URL(url, origin);
    return resolved.origin === origin ? `${resolved.pathname}${resolved.search}${resolved.hash}` : null;
  } catch {
    return null;
  }
}

async function show(event: PushEvent): Promise<void> {
  const { title, options } = notificationOf(event.data, self.location.origin);
  // A repeat of a delivery already shown (a retried send) replaces it quietly; a new one under the tag alerts again.
  const shown = await self.registration.getNotifications({ tag: options.tag });
  const id = (options.data as { id: string | null }).id;
  const repeat = id !== null && shown.some((n) => (n.data as { id?: unknown } | null)?.id === id);
  // `renotify` is not in TypeScript's DOM types yet (Chromium and Firefox take it).
  const withAlert: NotificationOptions = { ...options, renotify: !repeat && shown.length > 0 } as NotificationOptions;
  await self.registration.showNotification(title, withAlert);
}

/** Focuses a window of the app and has it open `url` with its router, or opens a new window there. */
export async function openFromNotification(url: unknown): Promise<void> {
  const path = sameOriginPath(url, self.location.origin) ?? '/';
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const mine = windows.find((w) => new URL(w.url).origin === self.location.origin);
  if (mine) {
    const focused = await mine.focus().catch(() => mine);
    focused.postMessage({ type: 'navigate', url: path } satisfies NavigateMessage);
    return;
  }
  await self.clients.openWindow(path);
}

/**
 * The push service replaced or dropped the subscription: subscribe again with the same server key, then have an
 * open page of the app give it to the server. The worker holds no user token, so with no page open the server
 * learns it at the app's next start (syncPushSubscription runs on every start). Best effort throughout.
 */
async function renew(event: Event & { oldSubscription?: PushSubscription | null; newSubscription?: PushSubscription | null }): Promise<void> {
  const key = event.oldSubscription?.options.applicationServerKey ?? (await serverKey());
  const renewed = event.newSubscription ?? (key ? await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }).catch(() => null) : null);
  // With no page open there is no sign-in: the old endpoint, which only this device and the server know, moves the
  // device to the new subscription. An open page also saves it again (below), signed in.
  const oldEndpoint = event.oldSubscription?.endpoint;
  if (renewed && oldEndpoint) {
    await fetch('/api/push/subscriptions/rotate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ oldEndpoint, subscription: renewed.toJSON() }),
    }).catch(() => undefined);
  }
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const client of windows) client.postMessage({ type: 'push-subscription-changed' });
}

async function serverKey(): Promise<ArrayBuffer | null> {
  try {
    const answer = (await (await fetch('/api/push/public-key')).json()) as { data?: { publicKey?: string } };
    const key = answer.data?.publicKey;
    if (!key) return null;
    const binary = atob(key.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0)).buffer;
  } catch {
    return null;
  }
}

export function listenForPush(): void {
  self.addEventListener('push', (event) => event.waitUntil(show(event)));

  self.addEventListener('notificationclick', (event) => {
    event.notification.close();
    event.waitUntil(openFromNotification((event.notification.data as { url?: unknown } | null)?.url));
  });

  self.addEventListener('pushsubscriptionchange', (event) => {
    (event as ExtendableEvent).waitUntil(renew(event as Event & { oldSubscription?: PushSubscription | null; newSubscription?: PushSubscription | null }));
  });

  self.addEventListener('message', (event) => {
    const message = ClickTestMessage.safeParse(event.data);
    if (!message.success) return;
    const { tag } = message.data;
    event.waitUntil(
      self.registration.getNotifications({ tag }).then(async (shown) => {
        const notification = shown.at(-1);
        if (!notification) return;
        notification.close();
        await openFromNotification((notification.data as { url?: unknown } | null)?.url);
      }),
    );
  });
}
