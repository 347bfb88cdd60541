import { createECDH, createPublicKey, type ECDH, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import ece from 'http_ece';

/**
 * A push service for tests, on 127.0.0.1: it makes each subscription's keys itself (the P-256 pair and auth secret a
 * browser would make), so it can decrypt what the server sends (RFC 8291, aes128gcm, with http_ece) and check the
 * VAPID JWT (RFC 8292: ES256 over the server's public key, aud = this origin, exp within 24 hours, a mailto:/https:
 * sub). Each request is recorded; answers are 201 unless scripted (404/410 for a dead device, 5xx, 429).
 */

export interface ReceiverSubscription {
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedPush {
  endpoint: string;
  headers: IncomingHttpHeaders;
  /** The decrypted payload, or null when it could not be decrypted (see `problems`). */
  payload: string | null;
  /** The VAPID JWT's claims when its signature was verified. */
  claims: { aud: string; exp: number; sub: string } | null;
  /** Why the request was not a valid push (an empty list for a good one). */
  problems: string[];
  /** What the receiver answered. */
  status: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** Never answer (until close): a push service that hangs, for the sender's timeout. */
  hang?: boolean;
}

export interface PushReceiver {
  origin: string;
  received: ReceivedPush[];
  /** A new subscription, as a browser's PushSubscription.toJSON() gives it. */
  subscribe(): ReceiverSubscription;
  /** The next answers to this endpoint, in order; after them it answers 201 again. */
  script(endpoint: string, ...answers: (number | Answer)[]): void;
  /** Resolves when `n` requests have been recorded in all. */
  waitFor(n: number): Promise<ReceivedPush[]>;
  close(): Promise<void>;
}

const JWT_MAX_AGE_SECONDS = 24 * 3600;

export async function startPushReceiver(opts: { vapidPublicKey: string }): Promise<PushReceiver> {
  const devices = new Map<string, { ecdh: ECDH; auth: string }>();
  const scripts = new Map<string, Answer[]>();
  const received: ReceivedPush[] = [];
  const waiters: { n: number; resolve: (r: ReceivedPush[]) => void }[] = [];
  let origin = '';

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const endpoint = `${origin}${req.url ?? ''}`;
      const problems: string[] = [];
      const device = devices.get(endpoint);
      if (req.method !== 'POST') problems.push(`method ${req.method}`);
      const claims = checkVapid(req.headers.authorization, opts.vapidPublicKey, origin, problems);
      const jwtRefused = problems.length > 0;
      let payload: string | null = null;
      if (!device) problems.push('unknown endpoint');
      else if (req.headers['content-encoding'] !== 'aes128gcm') problems.push(`content-encoding ${req.headers['content-encoding']}`);
      else {
        try {
          payload = ece.decrypt(Buffer.concat(chunks), { version: 'aes128gcm', privateKey: device.ecdh, authSecret: device.auth }).toString('utf8');
        } catch (err) {
          problems.push(`cannot decrypt: ${(err as Error).message}`);
        }
      }
      // A real push service refuses a bad JWT (403), an unknown endpoint (404) or a body it cannot take (400).
      const scripted = scripts.get(endpoint)?.shift();
      const answer: Answer = problems.length
        ? { status: problems.includes('unknown endpoint') ? 404 : jwtRefused ? 403 : 400 }
        : (scripted ?? { status: 201 });
      received.push({ endpoint, headers: req.headers, payload, claims, problems, status: answer.status });
      if (!answer.hang) {
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(problems.join('; '));
      }
      for (const w of [...waiters]) {
        if (received.length >= w.n) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(received.slice());
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    received,
    subscribe() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16).toString('base64url');
      const endpoint = `${origin}/push/${randomBytes(16).toString('hex')}`;
      devices.set(endpoint, { ecdh, auth });
      return { endpoint, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth } };
    },
    script(endpoint, ...answers) {
      scripts.set(endpoint, [...(scripts.get(endpoint) ?? []), ...answers.map((a) => (typeof a === 'number' ? { status: a } : a))]);
    },
    waitFor(n) {
      if (received.length >= n) return Promise.resolve(received.slice());
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Hanging requests hold their connections open; close does not wait for them.
        server.closeAllConnections();
      }),
  };
}

/** Checks `Authorization: vapid t=<JWT>, k=<public key>` (RFC 8292); returns the claims when valid, noting each problem. */
function checkVapid(authorization: string | undefined, vapidPublicKey: string, origin: string, problems: string[]): ReceivedPush['claims'] {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+),\s*k=([\w-]+)$/.exec(authorization ?? '');
  if (!match) {
    problems.push('no vapid authorization');
    return null;
  }
  const [, jwt, k] = match;
  if (k !== vapidPublicKey) problems.push('k is not the server\'s VAPID public key');
  const [headerPart, claimsPart, signaturePart] = jwt.split('.');
  const header = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8')) as { alg?: string; typ?: string };
  if (header.alg !== 'ES256') problems.push(`alg ${header.alg}`);
  const point = Buffer.from(vapidPublicKey, 'base64url');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') }, format: 'jwk' });
  const signed = verify('sha256', Buffer.from(`${headerPart}.${claimsPart}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signaturePart, 'base64url'));
  if (!signed) {
    problems.push('bad JWT signature');
    return null;
  }
  const claims = JSON.parse(Buffer.from(claimsPart, 'base64url').toString('utf8')) as { aud: string; exp: number; sub: string };
  const now = Math.floor(Date.now() / 1000);
  if (claims.aud !== origin) problems.push(`aud ${claims.aud} is not ${origin}`);
  if (!(claims.exp > now && claims.exp <= now + JWT_MAX_AGE_SECONDS)) problems.push(`exp ${claims.exp} is not within 24 hours`);
  if (!/^(mailto:|https:)/.test(claims.sub ?? '')) problems.push(`sub ${claims.sub} is not a mailto: or https: URL`);
  return claims;
}
