import { z } from 'zod';

/**
 * Web Push subscriptions as the browser gives them (PushSubscription.toJSON()) and the rules the server keeps for
 * them. Endpoints are capability URLs: whoever knows one can push to that device, so they travel in bodies only.
 */

/** The product's name and the neutral line a lock screen shows of any update (unless the person chose details). */
export const PUSH_TITLE = 'Recovery';
export const NEUTRAL_PUSH_BODY = 'You have a new update';

/** Push services' endpoints run to a few hundred characters; the cap keeps a row small. */
export const MAX_ENDPOINT_LENGTH = 2000;
/** Devices one user may subscribe: a phone, a laptop, a tablet and a few stale ones, not a thousand. */
export const MAX_SUBSCRIPTIONS_PER_USER = 10;

/** The bytes of a base64url string (padded or not), or null; atob, so the browser's code can use it too. */
function base64urlBytes(value: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(value)) return null;
  try {
    const binary = atob(value.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

const base64urlOf = (bytes: number, what: string) =>
  z
    .string()
    .max(200, `${what} must be ${bytes} bytes`)
    .refine((v) => base64urlBytes(v)?.length === bytes, `${what} must be ${bytes} bytes of base64url`);

const Endpoint = z
  .string()
  .max(MAX_ENDPOINT_LENGTH, `endpoint must be at most ${MAX_ENDPOINT_LENGTH} characters`)
  .refine((v) => URL.canParse(v) && ['https:', 'http:'].includes(new URL(v).protocol), 'endpoint must be an https: URL');

/** POST /api/push/subscriptions: the browser's PushSubscription JSON. */
export const PushSubscriptionBody = z.strictObject({
  endpoint: Endpoint,
  /** Milliseconds since the epoch, or null when the push service gives no end; at most a Date's range (year 275760). */
  expirationTime: z.number().nonnegative('expirationTime must be a time in milliseconds').max(8.64e15, 'expirationTime must be a time in milliseconds').nullable().optional(),
  keys: z.strictObject({
    /** The browser's uncompressed P-256 public key. */
    p256dh: base64urlOf(65, 'keys.p256dh').refine((v) => base64urlBytes(v)?.[0] === 4, 'keys.p256dh must be an uncompressed P-256 key'),
    /** The shared authentication secret. */
    auth: base64urlOf(16, 'keys.auth'),
  }),
});
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBody>;

/**
 * POST /api/push/subscriptions/rotate: the service worker's `pushsubscriptionchange`, with no page open and so no
 * sign-in. The old endpoint, a capability URL only that device and the server know, is the proof.
 */
export const PushRotateBody = z.strictObject({ oldEndpoint: Endpoint, subscription: PushSubscriptionBody });
export type PushRotateBody = z.infer<typeof PushRotateBody>;

/** DELETE /api/push/subscriptions: which device to forget. */
export const PushUnsubscribeBody = z.strictObject({ endpoint: Endpoint });
export type PushUnsubscribeBody = z.infer<typeof PushUnsubscribeBody>;

/** What the caller sees of a subscription: never the keys, and only their own. */
export const PushSubscriptionItem = z.object({
  id: z.string(),
  endpoint: z.string(),
  expirationTime: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PushSubscriptionItem = z.infer<typeof PushSubscriptionItem>;

export const PushPublicKey = z.object({ publicKey: z.string() });

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Why an endpoint is refused, or null. Outside the local stack: https: on a known push service's host (`pushHosts`,
 * a host or a subdomain of one), so the server never POSTs to an address a caller picked. The local stack takes any
 * https: URL and plain http on loopback, so tests and `npm start` can run a push receiver of their own.
 */
export function endpointProblem(endpoint: string, rules: { local: boolean; pushHosts: readonly string[] }): string | null {
  const url = new URL(endpoint);
  if (rules.local) {
    if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname))) return null;
    return 'endpoint must be an https: URL, or http: on 127.0.0.1 or localhost';
  }
  if (url.protocol !== 'https:') return 'endpoint must be an https: URL';
  const host = url.hostname.toLowerCase();
  if (!rules.pushHosts.some((h) => host === h || host.endsWith(`.${h}`))) return 'endpoint must be on a known push service';
  return null;
}

/**
 * What a push carries (encrypted end to end, RFC 8291), read by the service worker: the delivery's id (a repeat of
 * the same id replaces the shown notification instead of alerting again), the texts shown, the same-origin path a
 * click opens, and the tag that groups a subject's notifications. Neutral texts unless the user chose details.
 */
export const PushPayload = z.object({
  v: z.literal(1),
  id: z.string().max(100),
  title: z.string().max(200),
  body: z.string().max(1000),
  url: z.string().startsWith('/').max(500),
  tag: z.string().max(200),
});
export type PushPayload = z.infer<typeof PushPayload>;

/** PUT /api/seen: the newest thing of a thread or request the app showed (an email about it need not go). */
export const SeenBody = z.discriminatedUnion('kind', [
  /** The newest reply shown in a support thread. */
  z.strictObject({ kind: z.literal('thread'), id: z.uuid('id must be a thread id'), replyId: z.uuid('replyId must be a reply id').nullable() }),
  /** A request as shown: its updatedAt (the feed's, in milliseconds). */
  z.strictObject({ kind: z.literal('request'), id: z.uuid('id must be a request id'), updatedAt: z.iso.datetime({ offset: true }) }),
]);
export type SeenBody = z.infer<typeof SeenBody>;

/** A delivery as admins see it (GET /api/admin/deliveries): what it was, to whom, and why it did not go. */
export const DeliveryItem = z.object({
  id: z.string(),
  eventKind: z.string(),
  channel: z.enum(['push', 'email', 'fanout']),
  recipientUid: z.string().nullable(),
  recipientEmail: z.string().nullable(),
  state: z.enum(['queued', 'sending', 'sent', 'skipped', 'failed', 'unknown']),
  attempts: z.number().int(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  skipReason: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type DeliveryItem = z.infer<typeof DeliveryItem>;

export const DeliveryQuery = z.object({
  /** Comma-separated states; by default the ones an admin acts on. */
  state: z
    .string()
    .default('failed,unknown')
    .transform((v) => v.split(',').map((s) => s.trim()))
    .pipe(z.array(DeliveryItem.shape.state).min(1, 'state: name at least one state')),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
