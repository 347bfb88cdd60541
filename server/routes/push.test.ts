import { createECDH, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SUBSCRIPTIONS_PER_USER } from '../../domain/push.ts';
import { pushSubscriptions, users } from '../db/schema.ts';
import { backends, createTestApp, postgresSkipReason, type TestApp, type TestUser } from '../test-helper.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[push.test] PostgreSQL run skipped: ${skip}`);

/** A browser's PushSubscription JSON with real key material (a P-256 point and a 16-byte secret). */
function browserSubscription(endpoint = `https://push.example.net/send/${randomBytes(12).toString('hex')}`) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { endpoint, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') } };
}

describe.each(backends())('push subscriptions (%s)', (backend) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    alice = await t.user({ client: true });
    bob = await t.user({ client: true });
  });
  afterAll(() => t?.close());

  const subscribe = (user: TestUser | null, payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/push/subscriptions', headers: user?.headers ?? {}, payload: payload as object });
  const unsubscribe = (user: TestUser, payload: unknown) => t.app.inject({ method: 'DELETE', url: '/api/push/subscriptions', headers: user.headers, payload: payload as object });
  const rowsOf = (user: TestUser) => t.services.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.uid));

  it('gives anyone the VAPID public key the server signs with', async () => {
    const res = await t.app.inject({ url: '/api/push/public-key' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.publicKey).toBe(t.services.config.vapid.publicKey);
    expect(Buffer.from(res.json().data.publicKey, 'base64url')).toHaveLength(65);
  });

  it('saves a subscription once per endpoint: 201 the first time, 200 with the new keys when the browser sends it again', async () => {
    const sub = browserSubscription();
    const first = await subscribe(alice, sub);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data).toMatchObject({ endpoint: sub.endpoint, expirationTime: null });
    expect(first.json().data.keys).toBeUndefined();

    const renewed = { ...browserSubscription(sub.endpoint), expirationTime: Date.parse('2027-01-01T00:00:00.000Z') };
    const again = await subscribe(alice, renewed);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toMatchObject({ id: first.json().data.id, expirationTime: '2027-01-01T00:00:00.000Z' });
    const rows = (await rowsOf(alice)).filter((r) => r.endpoint === sub.endpoint);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ p256dh: renewed.keys.p256dh, auth: renewed.keys.auth });
  });

  it('moves a device to the subscription its browser renewed, without a sign-in, proven by the old endpoint only', async () => {
    const old = browserSubscription();
    expect((await subscribe(alice, old)).statusCode).toBe(201);
    const renewed = browserSubscription();
    const rotate = (payload: object) => t.app.inject({ method: 'POST', url: '/api/push/subscriptions/rotate', payload });
    const res = await rotate({ oldEndpoint: old.endpoint, subscription: renewed });
    expect(res.statusCode, res.body).toBe(200);
    const rows = await rowsOf(alice);
    expect(rows.map((r) => r.endpoint)).toContain(renewed.endpoint);
    expect(rows.map((r) => r.endpoint)).not.toContain(old.endpoint);
    expect(rows.find((r) => r.endpoint === renewed.endpoint)).toMatchObject({ p256dh: renewed.keys.p256dh, auth: renewed.keys.auth });
    // An endpoint nobody saved proves nothing; one already another device's is not taken over.
    expect((await rotate({ oldEndpoint: old.endpoint, subscription: browserSubscription() })).statusCode).toBe(404);
    const bobs = browserSubscription();
    expect((await subscribe(bob, bobs)).statusCode).toBe(201);
    expect((await rotate({ oldEndpoint: renewed.endpoint, subscription: bobs })).statusCode).toBe(404);
    expect((await rowsOf(bob)).find((r) => r.endpoint === bobs.endpoint)).toMatchObject({ p256dh: bobs.keys.p256dh });
    expect((await rotate({ oldEndpoint: 'not a url', subscription: renewed })).statusCode).toBe(400);
  });

  it("moves an endpoint to the account now signed in on that browser; the first account no longer has it", async () => {
    const sub = browserSubscription();
    expect((await subscribe(alice, sub)).statusCode).toBe(201);
    const moved = await subscribe(bob, sub);
    expect(moved.statusCode, moved.body).toBe(201);
    expect((await rowsOf(alice)).map((r) => r.endpoint)).not.toContain(sub.endpoint);
    expect((await rowsOf(bob)).map((r) => r.endpoint)).toContain(sub.endpoint);
  });

  it(`takes at most ${MAX_SUBSCRIPTIONS_PER_USER} devices per user, and a known one still renews at the limit`, async () => {
    const carol = await t.user({ client: true });
    const subs = Array.from({ length: MAX_SUBSCRIPTIONS_PER_USER }, () => browserSubscription());
    for (const sub of subs) expect((await subscribe(carol, sub)).statusCode).toBe(201);
    const extra = await subscribe(carol, browserSubscription());
    expect(extra.statusCode, extra.body).toBe(409);
    expect(extra.json().error.code).toBe('TOO_MANY_PUSH_SUBSCRIPTIONS');
    expect(await rowsOf(carol)).toHaveLength(MAX_SUBSCRIPTIONS_PER_USER);
    expect((await subscribe(carol, subs[0])).statusCode).toBe(200);
    expect((await unsubscribe(carol, { endpoint: subs[1].endpoint })).statusCode).toBe(204);
    expect((await subscribe(carol, browserSubscription())).statusCode).toBe(201);
  });

  it("deletes the caller's own subscription only, with the same answer for another account's", async () => {
    const mine = browserSubscription();
    const theirs = browserSubscription();
    await subscribe(alice, mine);
    await subscribe(bob, theirs);
    const other = await unsubscribe(alice, { endpoint: theirs.endpoint });
    expect(other.statusCode).toBe(204);
    expect((await rowsOf(bob)).map((r) => r.endpoint)).toContain(theirs.endpoint);
    const own = await unsubscribe(alice, { endpoint: mine.endpoint });
    expect(own.statusCode).toBe(204);
    expect((await rowsOf(alice)).map((r) => r.endpoint)).not.toContain(mine.endpoint);
    expect((await unsubscribe(alice, { endpoint: mine.endpoint })).statusCode).toBe(204);
  });

  it('refuses bad input with a 400 and a message, and anyone not signed in with a 401', async () => {
    const good = browserSubscription();
    const bad: [string, unknown][] = [
      ['no keys', { endpoint: good.endpoint }],
      ['a short p256dh', { ...good, keys: { ...good.keys, p256dh: randomBytes(33).toString('base64url') } }],
      ['a compressed-looking p256dh', { ...good, keys: { ...good.keys, p256dh: Buffer.concat([Buffer.from([2]), randomBytes(64)]).toString('base64url') } }],
      ['a long auth', { ...good, keys: { ...good.keys, auth: randomBytes(32).toString('base64url') } }],
      ['auth that is not base64url', { ...good, keys: { ...good.keys, auth: 'not base64 at all!!!!!' } }],
      ['not a URL', { ...good, endpoint: 'push service' }],
      ['a file: URL', { ...good, endpoint: 'file:///etc/passwd' }],
      ['a huge endpoint', { ...good, endpoint: `https://push.example.net/${'a'.repeat(2000)}` }],
      ['an unknown field', { ...good, extra: 1 }],
      ['a negative expiry', { ...good, expirationTime: -5 }],
      ['an expiry past any date', { ...good, expirationTime: 1e20 }],
      ['an expiry as text', { ...good, expirationTime: '2027-01-01' }],
      ['plain http on another host', { ...good, endpoint: 'http://push.example.net/x' }],
    ];
    for (const [what, payload] of bad) {
      const res = await subscribe(alice, payload);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
      expect(res.json().error.message, what).toBeTruthy();
    }
    expect((await unsubscribe(alice, {})).statusCode).toBe(400);
    expect((await subscribe(null, good)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/push/subscriptions', payload: { endpoint: good.endpoint } })).statusCode).toBe(401);
  });

  it('takes plain http on loopback in the local stack, for a push receiver of its own', async () => {
    for (const endpoint of ['http://127.0.0.1:9/push/a', 'http://localhost:9/push/b']) {
      const res = await subscribe(alice, browserSubscription(endpoint));
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  it("goes with the account: deleting a user deletes their subscriptions", async () => {
    const dave = await t.user({ client: true });
    expect((await subscribe(dave, browserSubscription())).statusCode).toBe(201);
    expect(await rowsOf(dave)).toHaveLength(1);
    await t.services.db.delete(users).where(eq(users.uid, dave.uid));
    expect(await rowsOf(dave)).toHaveLength(0);
  });

  it('is listed in the OpenAPI document', async () => {
    const paths = (await t.app.inject({ url: '/api/docs' })).json().paths;
    expect(Object.keys(paths['/api/push/subscriptions'])).toEqual(expect.arrayContaining(['post', 'delete']));
    expect(paths['/api/push/public-key'].get).toBeDefined();
  });
});

describe.each(backends())('push subscriptions outside the local stack (%s)', (backend) => {
  let t: TestApp;
  let alice: TestUser;

  beforeAll(async () => {
    // The emulator stays for signing in; only the endpoint rule reads `local`, as a production config has it.
    t = await createTestApp({ backend, config: (c) => ({ ...c, local: false }) });
    alice = await t.user({ client: true });
  });
  afterAll(() => t?.close());

  const subscribe = (endpoint: string) => t.app.inject({ method: 'POST', url: '/api/push/subscriptions', headers: alice.headers, payload: browserSubscription(endpoint) });

  it('refuses plain http endpoints, loopback too', async () => {
    for (const endpoint of ['http://127.0.0.1:9/push/a', 'http://localhost:9/push/b', 'http://[::1]:9/push/c', 'http://fcm.googleapis.com/fcm/send/x']) {
      const res = await subscribe(endpoint);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'BAD_PUSH_ENDPOINT', message: 'endpoint must be an https: URL' });
    }
  });

  it("takes https endpoints of the browsers' push services only, so the server never POSTs where a caller points it", async () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc:def',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
      'https://web.push.apple.com/QGx',
      'https://wns2-par02p.notify.windows.com/w/?token=x',
    ]) {
      const res = await subscribe(endpoint);
      expect(res.statusCode, `${endpoint}: ${res.body}`).toBe(201);
    }
    for (const endpoint of ['https://push.example.net/send/1', 'https://fcm.googleapis.com.attacker.example/x', 'https://evilfcm.googleapis.com.example/x', 'https://169.254.169.254/latest/meta-data', 'https://notify.windows.com.evil.example/x']) {
      const res = await subscribe(endpoint);
      expect(res.statusCode, `${endpoint}: ${res.body}`).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'BAD_PUSH_ENDPOINT', message: 'endpoint must be on a known push service' });
    }
  });
});
