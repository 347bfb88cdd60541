import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registerServices } from '../app.ts';
import { HttpError } from '../platform/errors.ts';
import type { IdentityProvider } from '../auth/firebase.ts';
import { backends, createTestApp, emulatorHost, postgresSkipReason, type TestApp, type TestUser } from '../test-helper.ts';
import type { TokenCheckOptions } from '../auth/token-checks.ts';
import { authPlugin } from './auth.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[auth.test] PostgreSQL run skipped: ${skip}`);

/**
 * A bare app with the services and the auth plugin, and routes with and without a guard: a read, a write
 * and a stream-style connect (authenticateFresh, as GET /api/events).
 */
async function appWithAuth(t: TestApp, opts: { identity?: IdentityProvider; tokenChecks?: Partial<TokenCheckOptions> } = {}): Promise<FastifyInstance> {
  const app = Fastify();
  app.setErrorHandler((error, _request, reply) =>
    reply.status(error instanceof HttpError ? error.statusCode : 500).send({ code: error instanceof HttpError ? error.code : 'OTHER' }),
  );
  await registerServices(app, { ...t.services, identity: opts.identity ?? t.services.identity });
  await app.register(authPlugin, { tokenChecks: opts.tokenChecks });
  app.get('/guarded', { onRequest: app.authenticate }, async (request) => ({ uid: request.user.uid }));
  app.post('/write', { onRequest: app.authenticate }, async (request) => ({ uid: request.user.uid }));
  app.get('/connect', { onRequest: app.authenticateFresh }, async (request) => ({ uid: request.user.uid }));
  // A route that forgot its guard but reads the user anyway.
  app.get('/unguarded', async (request) => ({ uid: request.user.uid }));
  app.get('/public', async (request) => ({ userOrNull: request.userOrNull }));
  return app;
}

describe('request.user', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let alice: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    app = await appWithAuth(t);
    alice = await t.user();
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  it('is the caller behind app.authenticate', async () => {
    const res = await app.inject({ url: '/guarded', headers: alice.headers });
    expect(res.json()).toEqual({ uid: alice.uid });
  });

  it('answers 401 when read on a route without a guard, even with a valid token: it fails closed', async () => {
    for (const headers of [{}, alice.headers]) {
      const res = await app.inject({ url: '/unguarded', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 'UNAUTHORIZED' });
    }
  });

  it('leaves userOrNull null when no token was checked', async () => {
    const res = await app.inject({ url: '/public', headers: alice.headers });
    expect(res.json()).toEqual({ userOrNull: null });
  });
});

/** The real identity provider, counting the calls that reach it. */
function counting(identity: IdentityProvider) {
  let calls = 0;
  const provider: IdentityProvider = {
    ...identity,
    verifyIdToken: (token) => {
      calls++;
      return identity.verifyIdToken(token);
    },
  };
  return { provider, calls: () => calls };
}

/** The Auth emulator's admin API (what firebase-admin's updateUser / revokeRefreshTokens send). */
async function updateAccount(projectId: string, body: Record<string, unknown>) {
  const res = await fetch(`http://${emulatorHost()}/identitytoolkit.googleapis.com/v1/projects/${projectId}/accounts:update`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`accounts:update failed: ${res.status} ${await res.text()}`);
}

function claimsOf(token: string): { exp: number; sub: string; aud: string } {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { exp: number; sub: string; aud: string };
}

function withClaims(token: string, change: Record<string, unknown>): string {
  const [header, , signature] = token.split('.');
  const payload = Buffer.from(JSON.stringify({ ...claimsOf(token), ...change })).toString('base64url');
  return [header, payload, signature].join('.');
}

describe.each(backends())('token checks without a round trip per request (%s)', (backend) => {
  const TTL = 60_000;
  let t: TestApp;
  let app: FastifyInstance;
  let identity: ReturnType<typeof counting>;
  let now: number;
  let projectId: string;
  const get = (url: string, user: TestUser | { headers: { authorization: string } }) => app.inject({ url, headers: user.headers });
  const write = (user: TestUser) => app.inject({ method: 'POST', url: '/write', headers: user.headers, payload: {} });

  beforeAll(async () => {
    t = await createTestApp({ backend });
    projectId = t.services.config.FIREBASE_PROJECT_ID;
    identity = counting(t.services.identity);
    app = await appWithAuth(t, { identity: identity.provider, tokenChecks: { ttlMs: TTL, now: () => now } });
  });
  beforeEach(() => {
    now = Date.now();
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  it('a token checked once is not sent to the identity provider again for reads within the window', async () => {
    const alice = await t.user();
    const before = identity.calls();
    for (let i = 0; i < 5; i++) expect((await get('/guarded', alice)).json()).toEqual({ uid: alice.uid });
    expect(identity.calls() - before).toBe(1);
    now += TTL - 1;
    expect((await get('/guarded', alice)).statusCode).toBe(200);
    expect(identity.calls() - before).toBe(1);
  });

  it('writes and stream connects ask the identity provider every time', async () => {
    const alice = await t.user();
    await get('/guarded', alice);
    const before = identity.calls();
    expect((await write(alice)).json()).toEqual({ uid: alice.uid });
    expect((await get('/connect', alice)).json()).toEqual({ uid: alice.uid });
    expect(identity.calls() - before).toBe(2);
  });

  it('each cached token authenticates its own user only', async () => {
    const [alice, bob] = await Promise.all([t.user(), t.user()]);
    for (let i = 0; i < 2; i++) {
      expect((await get('/guarded', alice)).json()).toEqual({ uid: alice.uid });
      expect((await get('/guarded', bob)).json()).toEqual({ uid: bob.uid });
    }
  });

  for (const [label, change] of [
    ['disabled', { disableUser: true }],
    // What revokeRefreshTokens sends (sign out everywhere): tokens issued before validSince are revoked.
    ['signed out everywhere', { validSince: String(Math.floor(Date.now() / 1000) + 3600) }],
  ] as const) {
    it(`${label}: refused at once on stream connect and the next write, and on reads after the window`, async () => {
      const [alice, bob] = await Promise.all([t.user(), t.user()]);
      await get('/guarded', alice);
      await get('/guarded', bob);
      await updateAccount(projectId, { localId: alice.uid, ...change });
      await updateAccount(projectId, { localId: bob.uid, ...change });

      // The stated window: a read within the TTL of the last full check still answers.
      expect((await get('/guarded', alice)).statusCode).toBe(200);
      expect((await get('/connect', alice)).statusCode).toBe(401);
      expect((await write(alice)).statusCode).toBe(401);
      // The refused write forgot the token, so reads stop at once too from then on.
      expect((await get('/guarded', alice)).statusCode).toBe(401);

      // Bob only reads: refused once the window is over.
      expect((await get('/guarded', bob)).statusCode).toBe(200);
      now += TTL;
      expect((await get('/guarded', bob)).statusCode).toBe(401);
    });
  }

  it('a cached token past its own exp is refused without asking the identity provider', async () => {
    const alice = await t.user();
    const exp = claimsOf(alice.token).exp * 1000;
    now = exp - 10_000;
    expect((await get('/guarded', alice)).statusCode).toBe(200);
    const before = identity.calls();
    now = exp;
    expect((await get('/guarded', alice)).statusCode).toBe(401);
    expect(identity.calls() - before).toBe(0);
  });

  it('a tampered variant of a cached token is not a cache hit, and is refused', async () => {
    const alice = await t.user();
    await get('/guarded', alice);
    const auth = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
    const tampered = [
      withClaims(alice.token, { aud: 'another-project' }),
      withClaims(alice.token, { sub: 'no-such-account-456', user_id: 'no-such-account-456' }),
      withClaims(alice.token, { exp: claimsOf(alice.token).exp - 7200 }),
      `${alice.token}x`,
      alice.token.replace(/^[^.]+/, 'eyJhbGciOiJub25lIn0x'),
    ];
    const before = identity.calls();
    for (const token of tampered) expect((await get('/guarded', auth(token))).statusCode, token).toBe(401);
    expect(identity.calls() - before).toBe(tampered.length);
    expect((await get('/guarded', alice)).json()).toEqual({ uid: alice.uid });
  });
});
