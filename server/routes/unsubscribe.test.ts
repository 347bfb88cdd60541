import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { notificationPreferences } from '../db/schema.ts';
import { unsubscribeToken, unsubscribeUrl, verifyUnsubscribeToken } from '../notify/unsubscribe-tokens.ts';
import { backends, createTestApp, postgresSkipReason, type TestApp, type TestUser } from '../test-helper.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[unsubscribe.test] PostgreSQL run skipped: ${skip}`);

describe('unsubscribe tokens', () => {
  const secret = 'Zq8vL2mX9rT4wK7pN3bF6hJ1cD5gS0aY';

  it('name the user they were made for, and nothing for a changed, foreign or malformed token', () => {
    const token = unsubscribeToken(secret, 'uid-Alice.1');
    expect(token).toMatch(/^v1\.uid-Alice\.1\.[A-Za-z0-9_-]{43}$/);
    expect(verifyUnsubscribeToken(secret, token)).toBe('uid-Alice.1');
    const mac = token.slice(-43);
    const flipped = mac.slice(0, -1) + (mac.endsWith('A') ? 'B' : 'A');
    expect(verifyUnsubscribeToken(secret, `v1.uid-Alice.1.${flipped}`)).toBeNull();
    expect(verifyUnsubscribeToken(secret, `v1.uid-Bob.${mac}`)).toBeNull();
    expect(verifyUnsubscribeToken('Another-secret-of-32-characters!!', token)).toBeNull();
    for (const bad of ['', 'v1', 'v2.abc.def', token.slice(0, -1), `${token}x`, token.replace('v1.', 'v1..'), token.replace('v1.', 'v2.')]) expect(verifyUnsubscribeToken(secret, bad), bad).toBeNull();
  });

  it('are not the download links\' signature: the key is derived for unsubscribing only', async () => {
    const { createHmac } = await import('node:crypto');
    expect(createHmac('sha256', secret).update('v1.uid-Alice').digest('base64url')).not.toBe(unsubscribeToken(secret, 'uid-Alice').slice(-43));
  });

  it('make the link on PUBLIC_URL', () => {
    expect(unsubscribeUrl({ downloadSecret: secret, email: { publicUrl: 'https://portal.acme.example' } }, 'u1')).toBe(`https://portal.acme.example/api/unsubscribe/${unsubscribeToken(secret, 'u1')}`);
    // A uid with characters a path cannot hold as they are travels URL-encoded.
    const odd = unsubscribeUrl({ downloadSecret: secret, email: { publicUrl: 'https://portal.acme.example' } }, 'a/b?c');
    expect(verifyUnsubscribeToken(secret, decodeURIComponent(odd.split('/api/unsubscribe/')[1]))).toBe('a/b?c');
  });
});

describe.each(backends())('one-click unsubscribe (%s)', (backend) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    alice = await t.user({ client: true });
    bob = await t.user({ client: true });
  });
  afterAll(() => t?.close());
  afterEach(() => vi.useRealTimers());

  const tokenOf = (user: TestUser) => unsubscribeToken(t.services.config.downloadSecret, user.uid);
  const rowOf = async (user: TestUser) => (await t.services.db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, user.uid)))[0];
  const oneClick = (token: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `/api/unsubscribe/${token}`, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: 'List-Unsubscribe=One-Click' });
  const setSwitches = (user: TestUser, body: Record<string, boolean>) => t.app.inject({ method: 'PUT', url: '/api/user/notification-preferences', headers: user.headers, payload: body });

  /** Resolves on the next poke the user's devices would hear. */
  const nextPoke = (uid: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        stop();
        reject(new Error(`no poke for ${uid}`));
      }, 5000);
      const stop = t.services.events.subscribe(uid, () => {
        clearTimeout(timer);
        stop();
        resolve();
      });
    });

  it('shows a page with a button on GET and changes nothing (mail scanners fetch every link)', async () => {
    const before = await rowOf(alice);
    const res = await t.app.inject({ method: 'GET', url: `/api/unsubscribe/${tokenOf(alice)}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain(`<form method="post" action="/api/unsubscribe/${tokenOf(alice)}">`);
    expect(res.body).toContain('name="List-Unsubscribe" value="One-Click"');
    expect(await rowOf(alice)).toEqual(before);
    expect(before.email).toBe(true);
  });

  it("turns email off with the RFC 8058 POST, without signing in, and leaves every other switch as it was; the owner's devices are poked", async () => {
    expect((await setSwitches(alice, { lockScreenDetails: true, generalUpdates: false })).statusCode).toBe(200);
    const before = await rowOf(alice);
    const poked = nextPoke(alice.uid);
    const res = await oneClick(tokenOf(alice));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { email: false } });
    await poked;
    const after = await rowOf(alice);
    expect(after).toMatchObject({ ...before, email: false, updatedAt: expect.any(String), seq: expect.any(Number) });
    expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect(Number(after.seq)).toBeGreaterThan(Number(before.seq));
    // The device pulls the row with the rest of the feed.
    const sync = await t.app.inject({ url: '/api/sync', headers: alice.headers });
    expect(JSON.stringify(sync.json())).toMatch(/"email":false/);
    // Again (the provider retries, or the person clicks twice): the same answer, nothing moves.
    const again = await oneClick(tokenOf(alice));
    expect(again.statusCode, again.body).toBe(200);
    expect(await rowOf(alice)).toEqual(after);
  });

  it('takes an empty body and a multipart one too, and answers a browser with a page', async () => {
    const carol = await t.user({ client: true });
    const empty = await t.app.inject({ method: 'POST', url: `/api/unsubscribe/${tokenOf(carol)}`, headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.headers['content-type']).toMatch(/^text\/html/);
    expect(empty.body).toContain('You are unsubscribed');
    expect((await rowOf(carol)).email).toBe(false);

    const dave = await t.user({ client: true });
    const form = new FormData();
    form.append('List-Unsubscribe', 'One-Click');
    const multipart = new Response(form);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/unsubscribe/${tokenOf(dave)}`,
      headers: { 'content-type': multipart.headers.get('content-type') ?? '' },
      payload: Buffer.from(await multipart.arrayBuffer()),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await rowOf(dave)).email).toBe(false);
  });

  it("refuses a changed or made-up link with 400 and a clear message, and one user's link never touches another's row", async () => {
    const bobBefore = await rowOf(bob);
    const forged = `v1.${bob.uid}.${tokenOf(alice).slice(-43)}`;
    for (const token of [forged, `${tokenOf(bob).slice(0, -2)}xx`, 'v1.abc.def', 'x'.repeat(190)]) {
      const post = await oneClick(token);
      expect(post.statusCode, `${token}: ${post.body}`).toBe(400);
      expect(post.json().error.message, token).toMatch(/not valid|not an unsubscribe link/);
      const get = await t.app.inject({ method: 'GET', url: `/api/unsubscribe/${token}` });
      expect(get.statusCode, token).toBe(400);
    }
    expect((await oneClick(forged)).json().error.code).toBe('BAD_UNSUBSCRIBE_LINK');
    const page = await t.app.inject({ method: 'GET', url: `/api/unsubscribe/${forged}` });
    expect(page.body).toContain('This unsubscribe link is not valid');
    // Alice's own link (used above) changed only Alice's row.
    expect(await rowOf(bob)).toEqual(bobBefore);
    expect(bobBefore.email).toBe(true);
  });

  it('refuses a body over 1 kB', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/unsubscribe/${tokenOf(bob)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `List-Unsubscribe=One-Click&pad=${'x'.repeat(1100)}`,
    });
    expect(res.statusCode, res.body).toBe(413);
    expect((await rowOf(bob)).email).toBe(true);
  });

  it('counts one-click requests per link, not per address: one link sent too often is refused, another from the same address is not', async () => {
    // Frozen inside one minute, so the five requests the window allows all fall in it.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000));
    const erin = await t.user({ client: true });
    const frank = await t.user({ client: true });
    for (let i = 0; i < 5; i++) expect((await oneClick(tokenOf(erin))).statusCode).toBe(200);
    const refused = await oneClick(tokenOf(erin));
    expect(refused.statusCode, refused.body).toBe(429);
    expect((await oneClick(tokenOf(frank))).statusCode).toBe(200);
    expect((await rowOf(frank)).email).toBe(false);
  });

  it('is in the OpenAPI document', async () => {
    const paths = (await t.app.inject({ url: '/api/docs' })).json().paths;
    expect(Object.keys(paths['/api/unsubscribe/{token}'] ?? {}).sort()).toEqual(['get', 'post']);
  });
});
