import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * One-click unsubscribe links (RFC 8058): `${PUBLIC_URL}/api/unsubscribe/v1.<uid>.<mac>`, where <uid> is the user id
 * (URL-encoded in the link; Firebase's are letters and digits) and <mac> = base64url(HMAC-SHA256(key, "v1.<uid>")),
 * the key derived with HKDF from the download
 * secret under the label "unsubscribe" (so a download link's signature can never pass for one of these, nor the
 * reverse). Nothing is stored: any instance checks a link another one made. A link can only turn that person's
 * email off, never on and nothing else, so it does not expire: an old mail's link still works, as providers expect.
 */

export const UNSUBSCRIBE_PATH = '/api/unsubscribe/';
const VERSION = 'v1';
/** The uid runs up to the last dot: a uid may hold dots, the signature never does. */
const TOKEN = /^v1\.([^]{1,128})\.([A-Za-z0-9_-]{43})$/;

const keys = new Map<string, Buffer>();

function keyOf(downloadSecret: string): Buffer {
  let key = keys.get(downloadSecret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', downloadSecret, Buffer.alloc(0), 'unsubscribe', 32));
    keys.set(downloadSecret, key);
  }
  return key;
}

const macOf = (downloadSecret: string, payload: string) => createHmac('sha256', keyOf(downloadSecret)).update(payload).digest('base64url');

/** The token of this user's unsubscribe link. */
export function unsubscribeToken(downloadSecret: string, uid: string): string {
  const payload = `${VERSION}.${uid}`;
  return `${payload}.${macOf(downloadSecret, payload)}`;
}

/** The whole link, as the List-Unsubscribe header and the mail's footer carry it. */
export function unsubscribeUrl(config: { downloadSecret: string; email: { publicUrl: string } }, uid: string): string {
  return `${config.email.publicUrl}${UNSUBSCRIBE_PATH}${encodeURIComponent(unsubscribeToken(config.downloadSecret, uid))}`;
}

/** The user a token names, or null for anything we did not sign (malformed, tampered, another secret's). */
export function verifyUnsubscribeToken(downloadSecret: string, token: string): string | null {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, uid, mac] = match;
  const expected = Buffer.from(macOf(downloadSecret, `${VERSION}.${uid}`));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return uid;
}
