import { PushPublicKey } from '../../domain/push.ts';
import { NavigateMessage, SubscriptionChangedMessage } from '../../domain/push-messages.ts';
import { apiGet, apiRequest, toApiError } from './api.ts';
import { NetworkError } from './api-errors.ts';
import type { PortalDb } from './db.ts';
import { changePreferences } from './notification-preferences.ts';

/**
 * Web Push on this device. Subscribing is per device: the user turns it on here with a gesture (the only place
 * the browser's permission prompt may appear: never on page load), the device remembers that choice in the
 * replica's meta store (wiped at sign-out, so the next user starts with it off), and every signed-in start and
 * every return online subscribes again when the subscription is missing or was made with another server key, and
 * gives it to the server again (push services expire subscriptions silently; the server drops dead ones on
 * 404/410). Every browser object is injected (`PushEnv`), so the decisions are tested without a browser.
 */

/** What the browser allows: no Push API at all, the user refused (only the browser's settings can undo it), not asked yet, allowed. */
export type PushPermission = 'unsupported' | 'denied' | 'default' | 'granted';

/** The part of a PushSubscription used here. */
export interface DeviceSubscription {
  endpoint: string;
  options: { applicationServerKey: ArrayBuffer | null };
  toJSON(): unknown;
  unsubscribe(): Promise<boolean>;
}

/** The browser and the server, as push.ts uses them. */
export interface PushEnv {
  permission(): Promise<PushPermission>;
  /** The browser's prompt: only ever called from a user's gesture (enablePush). */
  requestPermission(): Promise<PushPermission>;
  getSubscription(): Promise<DeviceSubscription | null>;
  subscribe(applicationServerKey: Uint8Array<ArrayBuffer>): Promise<DeviceSubscription>;
  publicKey(): Promise<string>;
  /** POST /api/push/subscriptions (idempotent per endpoint). */
  save(subscription: unknown): Promise<void>;
  /** DELETE /api/push/subscriptions with { endpoint }. */
  forget(endpoint: string): Promise<void>;
}

/** The meta row holding this device's choice. */
export const PUSH_ON_DEVICE_KEY = 'pushOnThisDevice';

export async function isPushWanted(db: PortalDb): Promise<boolean> {
  return (await db.meta.get(PUSH_ON_DEVICE_KEY))?.value === true;
}

async function setPushWanted(db: PortalDb, wanted: boolean): Promise<void> {
  await db.meta.put({ key: PUSH_ON_DEVICE_KEY, value: wanted });
}

/** base64url (the server's VAPID public key) to bytes, as pushManager.subscribe takes it. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64url.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function sameKey(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.length) return false;
  const bytes = new Uint8Array(a);
  return bytes.every((v, i) => v === b[i]);
}

/** What syncPushSubscription did: nothing to do, not allowed, the subscription kept and given again, or a new one made. */
export type PushSyncResult = 'off' | 'blocked' | 'kept' | 'subscribed';

/**
 * Makes sure this device, when the user wants push here and the browser allows it, has a subscription made with
 * the server's current key, and that the server has it. Never prompts. A network failure rejects (NetworkError):
 * the next start or return online tries again.
 */
export async function syncPushSubscription(env: PushEnv, wanted: boolean): Promise<PushSyncResult> {
  if (!wanted) return 'off';
  if ((await env.permission()) !== 'granted') return 'blocked';
  const key = keyBytes(await env.publicKey());
  let subscription = await env.getSubscription();
  let result: PushSyncResult = 'kept';
  if (!subscription || !sameKey(subscription.options.applicationServerKey, key)) {
    // Made with another key (the server's keys changed): push services refuse it, so it goes.
    if (subscription) await subscription.unsubscribe().catch(() => false);
    subscription = await env.subscribe(key);
    result = 'subscribed';
  }
  await env.save(subscription.toJSON());
  return result;
}

/**
 * "Notify me on this device" turned on, from the user's gesture: asks the browser (its prompt appears now, if it
 * has not been answered), remembers the choice, and subscribes. Offline, the choice is kept and the subscription
 * is made when the connection returns (the rejection says so).
 */
export async function enablePush(env: PushEnv, db: PortalDb): Promise<PushSyncResult> {
  const before = await env.permission();
  if (before === 'unsupported' || before === 'denied') return 'blocked';
  const permission = before === 'granted' ? before : await env.requestPermission();
  if (permission !== 'granted') return 'blocked';
  await setPushWanted(db, true);
  return syncPushSubscription(env, true);
}

/**
 * "Notify me on this device" turned on (the Settings switch, the one-time offer): push for the account too, then
 * this device subscribed. 'offline': kept, subscribed when the connection returns; 'failed': nothing is subscribed
 * and the device's choice goes back to off, so no switch shows on for a device that gets nothing.
 */
export async function turnOnPushHere(env: PushEnv, db: PortalDb): Promise<PushSyncResult | 'offline' | 'failed'> {
  await changePreferences(db, { push: true });
  try {
    return await enablePush(env, db);
  } catch (err) {
    if (err instanceof NetworkError) return 'offline';
    console.error('push on this device', err);
    await setPushWanted(db, false);
    return 'failed';
  }
}

/** "Notify me on this device" turned off: the choice is kept, the server forgets the device, the browser drops the subscription. */
export async function disablePush(env: PushEnv, db: PortalDb): Promise<void> {
  await setPushWanted(db, false);
  await forgetDevice(env);
}

/** The server forgets this device's subscription and the browser drops it; what fails is only logged (sign-out must go on). */
export async function forgetDevice(env: PushEnv): Promise<void> {
  if ((await env.permission()) === 'unsupported') return;
  const subscription = await env.getSubscription();
  if (!subscription) return;
  try {
    await env.forget(subscription.endpoint);
  } finally {
    await subscription.unsubscribe().catch(() => false);
  }
}

// ---- the browser's objects ----

function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window && 'PushManager' in window && 'serviceWorker' in navigator;
}

/**
 * The Permissions API's answer, which is the one the service worker's showNotification obeys; Notification.permission
 * where the browser cannot say (some embedded and headless Chromium builds report "denied" there while the
 * permission is granted).
 */
async function browserPermission(): Promise<PushPermission> {
  if (!pushSupported()) return 'unsupported';
  try {
    const state = (await navigator.permissions.query({ name: 'notifications' })).state;
    return state === 'prompt' ? 'default' : state;
  } catch {
    return Notification.permission;
  }
}

/** The worker's registration, waited for when subscribing (the page may have just registered it). */
async function registration(): Promise<ServiceWorkerRegistration> {
  return navigator.serviceWorker.ready;
}

async function sendOrThrow(path: string, method: 'POST' | 'DELETE', json: unknown): Promise<void> {
  const response = await apiRequest(path, { method, json });
  if (!response.ok) throw toApiError(response.status, await response.json().catch(() => null));
}

/** This browser's Push API and the portal's push routes. */
export function browserPushEnv(): PushEnv {
  return {
    permission: browserPermission,
    requestPermission: async () => {
      if (!pushSupported()) return 'unsupported';
      await Notification.requestPermission();
      return browserPermission();
    },
    // Not waited for: with no worker registered (the dev server) there is no subscription either.
    getSubscription: async () => (await navigator.serviceWorker.getRegistration())?.pushManager.getSubscription() ?? null,
    subscribe: async (applicationServerKey) => (await registration()).pushManager.subscribe({ userVisibleOnly: true, applicationServerKey }),
    publicKey: async () => (await apiGet('/push/public-key', PushPublicKey)).publicKey,
    save: (subscription) => sendOrThrow('/push/subscriptions', 'POST', subscription),
    forget: (endpoint) => sendOrThrow('/push/subscriptions', 'DELETE', { endpoint }),
  };
}

/** Runs `work`, giving up waiting after `ms` (the work itself goes on): sign-out never waits long for the network. */
export function atMost(ms: number, work: Promise<unknown>): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void work
      .catch((err: unknown) => console.warn('push: best effort step failed', err))
      .finally(() => {
        clearTimeout(timer);
        resolve();
      });
  });
}

/** On every signed-in start and every return online: the device's subscription, renewed and given again if wanted. */
export async function syncThisDevice(db: PortalDb, env: PushEnv = browserPushEnv()): Promise<PushSyncResult | 'offline'> {
  try {
    return await syncPushSubscription(env, await isPushWanted(db));
  } catch (err) {
    if (err instanceof NetworkError) return 'offline';
    throw err;
  }
}

// ---- the one-time offer ----

/**
 * The offer ("Get notified on this device when your case moves") is due after an order placed on this device or
 * when the app runs installed, and shows until the user turns push on or dismisses it; the device remembers that
 * (localStorage: it outlives a sign-out, as the offer is about the device).
 */
export const PUSH_OFFER_KEY = 'portal.pushOffer';
export type PushOfferState = 'due' | 'done' | null;

export function readPushOffer(storage: Pick<Storage, 'getItem'> = localStorage): PushOfferState {
  const value = storage.getItem(PUSH_OFFER_KEY);
  return value === 'due' || value === 'done' ? value : null;
}

/** An order was placed: the offer shows next (unless it was already answered). */
export function markPushOfferDue(storage: Pick<Storage, 'getItem' | 'setItem'> = localStorage): void {
  if (readPushOffer(storage) !== 'done') storage.setItem(PUSH_OFFER_KEY, 'due');
}

/** Dismissed, or push turned on: the offer never shows again on this device. */
export function answerPushOffer(storage: Pick<Storage, 'setItem'> = localStorage): void {
  storage.setItem(PUSH_OFFER_KEY, 'done');
}

/** Whether the offer shows: due (an order) or installed, not answered, push possible here and not already on. */
export function showsPushOffer(state: { offer: PushOfferState; standalone: boolean; permission: PushPermission; wanted: boolean }): boolean {
  if (state.offer === 'done' || state.wanted) return false;
  if (state.permission === 'unsupported' || state.permission === 'denied') return false;
  return state.offer === 'due' || state.standalone;
}

/** The app runs installed (from the home screen), not in a browser tab. */
export function runsInstalled(): boolean {
  return typeof window !== 'undefined' && (window.matchMedia?.('(display-mode: standalone)').matches === true || (navigator as { standalone?: boolean }).standalone === true);
}

// ---- the page's side of the service worker's messages ----

/** Notification clicks (open this path) and renewed subscriptions (give it to the server), from the service worker. */
export function watchPushMessages(on: { navigate(url: string): void; subscriptionChanged(): void }): () => void {
  if (typeof navigator === 'undefined' || !navigator.serviceWorker) return () => undefined;
  const listener = (event: MessageEvent) => {
    const navigate = NavigateMessage.safeParse(event.data);
    if (navigate.success) on.navigate(navigate.data.url);
    else if (SubscriptionChangedMessage.safeParse(event.data).success) on.subscriptionChanged();
  };
  navigator.serviceWorker.addEventListener('message', listener);
  return () => navigator.serviceWorker.removeEventListener('message', listener);
}
