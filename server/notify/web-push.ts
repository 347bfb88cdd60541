import webpush from 'web-push';
import type { VapidKeys } from '../config.ts';
import type { Db } from '../db/client.ts';
import { dropGoneSubscription, type PushSubscriptionRow } from '../services/push-subscriptions.ts';

/**
 * Sends one Web Push message (RFC 8030), encrypted for the browser (RFC 8291, aes128gcm) and signed with our VAPID
 * key (RFC 8292) by the web-push library, and says what to do next. web-push builds the request; our own fetch sends
 * it, because web-push's sendNotification insists on https and the local stack's receivers are plain http on loopback.
 */

export type Urgency = 'very-low' | 'low' | 'normal' | 'high';

export interface PushOptions {
  /** The delivery's Topic (see topicFor): a push service replaces a queued message of the same Topic with the new one. */
  topic: string;
  /** Seconds the push service keeps the message for a device that is offline. */
  ttl: number;
  urgency: Urgency;
  /** How long to wait for the push service's answer. */
  timeoutMs?: number;
}

export type PushResult =
  /** The push service took the message (2xx). */
  | { outcome: 'sent'; status: number }
  /** The subscription is dead (404/410): it was deleted, and nothing is sent to it again. */
  | { outcome: 'gone'; status: number }
  /** Worth another try later: 429, 5xx, a timeout or a network error; `retryAfterSeconds` when the service said (capped at an hour). */
  | { outcome: 'retry'; status: number | null; retryAfterSeconds: number | null; error: string }
  /** Refused for good (another 4xx, e.g. 400 bad request, 403 a JWT the service rejects, 413 too big); the subscription is kept. */
  | { outcome: 'failed'; status: number; error: string };

const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_RETRY_AFTER_SECONDS = 3600;

/**
 * The Topic of a delivery: its UUID without dashes, 32 hex characters. Topics are at most 32 base64url characters
 * (web-push refuses longer), so the dashed UUID does not fit; the same delivery always has the same Topic, so a
 * retried send replaces rather than repeats a message still queued at the push service.
 */
export function topicFor(deliveryId: string): string {
  const hex = deliveryId.replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new Error(`not a delivery id: ${deliveryId}`);
  return hex;
}

export async function sendPush(
  deps: { db: Db; vapid: VapidKeys },
  subscription: Pick<PushSubscriptionRow, 'id' | 'endpoint' | 'p256dh' | 'auth'>,
  payload: string | object,
  options: PushOptions,
): Promise<PushResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const request = webpush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    typeof payload === 'string' ? payload : JSON.stringify(payload),
    {
      headers: { Authorization: vapidAuthorization(deps.vapid, new URL(subscription.endpoint).origin) },
      TTL: options.ttl,
      urgency: options.urgency,
      topic: options.topic,
      contentEncoding: 'aes128gcm',
    },
  );
  const headers: Record<string, string> = {};
  // fetch sets the length itself from the body.
  for (const [name, value] of Object.entries(request.headers)) if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
  let response: Response;
  try {
    response = await fetch(request.endpoint, {
      method: request.method,
      headers,
      body: request.body ? new Uint8Array(request.body) : null,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
  } catch (err) {
    const timedOut = err instanceof DOMException && err.name === 'TimeoutError';
    return { outcome: 'retry', status: null, retryAfterSeconds: null, error: timedOut ? `no answer within ${timeoutMs} ms` : `network error: ${(err as Error).message}` };
  }
  const text = await response.text().catch(() => '');
  const status = response.status;
  if (status >= 200 && status < 300) return { outcome: 'sent', status };
  if (status === 404 || status === 410) {
    await dropGoneSubscription(deps.db, subscription.id);
    return { outcome: 'gone', status };
  }
  const error = `push service answered ${status}${text ? `: ${text.slice(0, 200)}` : ''}`;
  if (status === 429 || status >= 500) return { outcome: 'retry', status, retryAfterSeconds: retryAfterSeconds(response.headers.get('retry-after')), error };
  return { outcome: 'failed', status, error };
}

/** A signed VAPID JWT is good for up to 24 hours (RFC 8292); ours live 12 and are replaced an hour before they end. */
const VAPID_JWT_SECONDS = 12 * 3600;
const vapidCache = new Map<string, { authorization: string; renewAt: number }>();

/**
 * The `Authorization: vapid t=…, k=…` header for one push service (the JWT's audience is its origin), signed once
 * and reused until near its end: signing ES256 for every push costs a third of a send's CPU, which a fan-out to
 * thousands of devices takes from the API's requests.
 */
export function vapidAuthorization(vapid: VapidKeys, audience: string, now = Date.now()): string {
  const key = `${vapid.publicKey}|${vapid.subject}|${audience}`;
  const cached = vapidCache.get(key);
  if (cached && cached.renewAt > now) return cached.authorization;
  const expiration = Math.floor(now / 1000) + VAPID_JWT_SECONDS;
  const headers = webpush.getVapidHeaders(audience, vapid.subject, vapid.publicKey, vapid.privateKey, 'aes128gcm', expiration);
  vapidCache.set(key, { authorization: headers.Authorization, renewAt: now + (VAPID_JWT_SECONDS - 3600) * 1000 });
  return headers.Authorization;
}

/** Retry-After as seconds (a number of seconds or an HTTP date), at most an hour; null when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header.trim()) : Math.ceil((Date.parse(header) - now) / 1000);
  if (!Number.isFinite(seconds)) return null;
  return Math.min(Math.max(seconds, 0), MAX_RETRY_AFTER_SECONDS);
}
