import { createHmac, timingSafeEqual } from 'node:crypto';
import { UUID } from './storage.ts';

/** How long a download link stays valid. Short, because whoever holds the link can download the file. */
export const LINK_TTL_MS = 15 * 60 * 1000;
/**
 * Invoice links travel in the sync feed and sit in the device's replica until the deal changes, so
 * they must outlive a session: a year. They still name one file only and cannot be forged.
 */
export const INVOICE_LINK_TTL_MS = 365 * 24 * 60 * 60 * 1000;

/** Where the links point: GET /api/download/:token (no Authorization header; the token is the proof). */
export const DOWNLOAD_PATH = '/api/download/';

export interface SignedLinks {
  /** A relative link `/api/download/<token>` to the stored file with this `files.id`, valid for LINK_TTL_MS. */
  link(fileId: string, ttlMs?: number): string;
  /** The file id a token grants, or why it grants nothing. */
  verify(token: string): { ok: true; fileId: string } | { ok: false; reason: 'invalid' | 'expired' | 'not-found' };
}

/**
 * HMAC-SHA256 signed, expiring download links. The token is `<fileId>.<expiresAtMs>.<signature>`,
 * signature = base64url(HMAC(secret, "<fileId>.<expiresAtMs>")). Nothing is stored server-side, so
 * any instance behind the load balancer can check a link another instance made.
 *
 * Build it from the config: `createSignedLinks(app.config.downloadSecret)`.
 */
export function createSignedLinks(secret: string, opts: { ttlMs?: number; now?: () => number } = {}): SignedLinks {
  const ttlMs = opts.ttlMs ?? LINK_TTL_MS;
  const now = opts.now ?? Date.now;
  const sign = (payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');

  return {
    link(fileId, linkTtlMs = ttlMs) {
      const payload = `${fileId}.${now() + linkTtlMs}`;
      return `${DOWNLOAD_PATH}${payload}.${sign(payload)}`;
    },
    verify(token) {
      const match = /^([^.]{1,64})\.(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (!match) return { ok: false, reason: 'invalid' };
      const [, fileId, expires, signature] = match;
      const expected = Buffer.from(sign(`${fileId}.${expires}`));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'invalid' };
      if (Number(expires) < now()) return { ok: false, reason: 'expired' };
      // Signed by us yet naming no file id: no such file (and never a failed uuid query).
      if (!UUID.test(fileId)) return { ok: false, reason: 'not-found' };
      return { ok: true, fileId };
    },
  };
}
