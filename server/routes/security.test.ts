// Second factors, step-up and sessions, through the API as the app calls it: the real Auth emulator, one app per
// backend (and a second instance on the same database for the attempt limit), a software authenticator for passkeys.
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { TOTP, Secret } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECOVERY_CODE_COUNT, SECOND_FACTOR_ATTEMPTS } from '../../domain/security.ts';
import { buildApp } from '../app.ts';
import { auditLog, deliveries, idempotencyKeys, recoveryCodes, sessions, totpFactors, users } from '../db/schema.ts';
import { newSignInText, placeOf } from '../services/sessions.ts';
import { backends, createTestApp, emulatorHost, freshPostgresUrl, postgresSkipReason, type TestApp, type TestUser, waitUntil } from '../test-helper.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[security.test] PostgreSQL run skipped: ${skip}`);

/** Email on, so a sign-in alert's delivery row is written; test apps run no delivery worker, so nothing is sent. */
const EMAIL_ON = { EMAIL: 'on', SMTP_URL: 'smtp://127.0.0.1:9' };
const SOME_ID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';
const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.104 Mobile Safari/537.36';
const WINDOWS_FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

interface Route {
  method: string;
  path: string;
}

/** Every route of the app, from Fastify's router (as staff-roles.test.ts reads it), HEAD and OPTIONS aside. */
function allRoutes(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: true }).split('\n')) {
    const match = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    stack.length = match[1].length / 4;
    stack.push(match[2]);
    const path = stack.join('');
    if (!match[3] || !path.startsWith('/api/')) continue;
    for (const method of match[3].split(', ')) if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, path });
  }
  return routes;
}

const urlOf = (route: Route) => route.path.replace(/:[A-Za-z0-9_]+(\([^)]*\))?/g, SOME_ID).replace(/\*/g, SOME_ID);

/** An emulator sign-in of an existing account: a new session when its auth_time differs from the ones given. */
async function signIn(email: string, password = 'Secret#123'): Promise<{ token: string; authTime: number }> {
  const res = await fetch(`http://${emulatorHost()}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  const body = (await res.json()) as { idToken?: string; error?: { message: string } };
  if (!body.idToken) throw new Error(`sign-in failed: ${body.error?.message}`);
  const claims = JSON.parse(Buffer.from(body.idToken.split('.')[1], 'base64url').toString()) as { auth_time: number };
  return { token: body.idToken, authTime: claims.auth_time };
}

/** A sign-in whose auth_time (seconds) is none of `taken`: another device's session. Waits for the next second. */
async function newSession(email: string, taken: number[]): Promise<{ headers: { authorization: string }; authTime: number }> {
  let found: { token: string; authTime: number } | undefined;
  await waitUntil(async () => {
    const got = await signIn(email);
    if (taken.includes(got.authTime)) return false;
    found = got;
    return true;
  }, 10);
  const { token, authTime } = found as { token: string; authTime: number };
  taken.push(authTime);
  return { headers: { authorization: `Bearer ${token}` }, authTime };
}

const authTimeOf = (user: TestUser) => (JSON.parse(Buffer.from(user.token.split('.')[1], 'base64url').toString()) as { auth_time: number }).auth_time;

const codeAt = (secret: string, offsetSeconds = 0) => new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offsetSeconds * 1000 });

// ---- A software authenticator: what a passkey does, made with node:crypto and a minimal CBOR encoder ----

function cborHead(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 256) return Buffer.from([(major << 5) | 24, n]);
  if (n < 65536) return Buffer.from([(major << 5) | 25, n >> 8, n & 255]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

type Cbor = number | string | Buffer | Map<Cbor, Cbor>;
function cbor(value: Cbor): Buffer {
  if (Buffer.isBuffer(value)) return Buffer.concat([cborHead(2, value.length), value]);
  if (typeof value === 'string') return Buffer.concat([cborHead(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (typeof value === 'number') return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  return Buffer.concat([cborHead(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const b64u = (b: Buffer) => b.toString('base64url');
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();

class SoftwareAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  private counter = 0;
  private readonly origin: string;
  private readonly rpId: string;
  constructor(origin: string, rpId: string) {
    this.origin = origin;
    this.rpId = rpId;
  }

  private get privateKey(): KeyObject {
    return this.keys.privateKey;
  }

  register(challenge: string) {
    const jwk = this.keys.publicKey.export({ format: 'jwk' }) as { x: string; y: string };
    const cose = cbor(new Map<Cbor, Cbor>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x, 'base64url')], [-3, Buffer.from(jwk.y, 'base64url')]]));
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([sha256(this.rpId), Buffer.from([0x45]), Buffer.alloc(4), Buffer.alloc(16), idLength, this.credentialId, cose]);
    const clientData = Buffer.from(JSON.stringify({ type: 'webauthn.create', challenge, origin: this.origin, crossOrigin: false }));
    const attestation = cbor(new Map<Cbor, Cbor>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    return {
      id: b64u(this.credentialId),
      rawId: b64u(this.credentialId),
      type: 'public-key',
      response: { clientDataJSON: b64u(clientData), attestationObject: b64u(attestation), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  authenticate(challenge: string) {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(++this.counter);
    const authData = Buffer.concat([sha256(this.rpId), Buffer.from([0x05]), count]);
    const clientData = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge, origin: this.origin, crossOrigin: false }));
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), this.privateKey);
    return {
      id: b64u(this.credentialId),
      rawId: b64u(this.credentialId),
      type: 'public-key',
      response: { clientDataJSON: b64u(clientData), authenticatorData: b64u(authData), signature: b64u(signature) },
      clientExtensionResults: {},
    };
  }
}

describe.each(backends())('second factors, step-up and sessions (%s)', (backend) => {
  const logLines: string[] = [];
  let t: TestApp;
  /** A second instance on the same database: its own token cache and prepared statements, the same rows. */
  let other: FastifyInstance;
  let closeOther: () => Promise<void>;

  beforeAll(async () => {
    const logStream = { write: (line: string) => void logLines.push(line) };
    if (backend === 'postgres') {
      const databaseUrl = await freshPostgresUrl();
      t = await createTestApp({ databaseUrl, logStream, env: EMAIL_ON });
      const second = await createTestApp({ databaseUrl });
      other = second.app;
      closeOther = () => second.close();
    } else {
      t = await createTestApp({ logStream, env: EMAIL_ON });
      other = await buildApp(t.services);
      await other.ready();
      closeOther = () => other.close();
    }
  });
  afterAll(async () => {
    await closeOther?.();
    await t?.close();
  });

  const db = () => t.services.db;
  const call = (headers: Record<string, string>, method: string, url: string, payload?: unknown, app: FastifyInstance = t.app) =>
    app.inject({ method: method as 'GET', url, headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' }, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });
  const errorOf = (res: { json(): unknown }) => (res.json() as { error: { code: string; details?: { reason?: string } } }).error;

  /** A staff member (or admin) signed in whose session has not verified a second factor yet, as at a first staff sign-in. */
  async function staffWithoutFactor(role: 'staff' | 'admin' = 'staff'): Promise<TestUser> {
    const user = await t.user();
    await db().update(users).set({ isStaff: true, isAdmin: role === 'admin', isClient: role === 'admin' }).where(eq(users.uid, user.uid));
    return user;
  }

  /** Sets this user's sessions' second-factor time `seconds` ago (null: not verified), as time passing would. */
  const verifiedAgo = (uid: string, seconds: number | null) =>
    db()
      .update(sessions)
      .set({ secondFactorAt: seconds === null ? null : sql`now() - make_interval(secs => ${seconds})` })
      .where(eq(sessions.uid, uid));

  async function enrolTotp(user: TestUser): Promise<{ secret: string; recoveryCodes: string[] }> {
    const setup = await call(user.headers, 'POST', '/api/security/totp');
    expect(setup.statusCode, setup.body).toBe(201);
    const { secret, uri } = setup.json().data as { secret: string; uri: string };
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    const confirmed = await call(user.headers, 'POST', '/api/security/totp/confirm', { code: codeAt(secret) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return { secret, recoveryCodes: (confirmed.json().data as { recoveryCodes: string[] }).recoveryCodes };
  }

  it('refuses a staff or admin session without a second factor on every staff and admin route (403 SECOND_FACTOR_REQUIRED)', async () => {
    const routes = allRoutes(t.app);
    const lead = await t.user();
    const admin = await staffWithoutFactor('admin');
    const staff = await staffWithoutFactor('staff');
    const send = (route: Route, headers: Record<string, string>) => call(headers, route.method, urlOf(route), route.method === 'GET' || route.method === 'DELETE' ? undefined : {});
    // The routes guarded by role: a lead is refused there for not being staff or an admin.
    const guarded: Route[] = [];
    // The event stream stays open: its guard is the same authenticate as every client route. The caller's own
    // security routes are not guarded by role, and some would end the lead's session.
    for (const route of routes.filter((r) => r.path !== '/api/events' && !r.path.startsWith('/api/security'))) {
      const res = await send(route, lead.headers);
      if (res.statusCode === 403 && errorOf(res).code === 'FORBIDDEN' && /^(Staff only|Admins only)$/.test((res.json() as { error: { message: string } }).error.message)) guarded.push(route);
    }
    const listed = guarded.map((r) => `${r.method} ${r.path}`);
    for (const route of routes.filter((r) => r.path.startsWith('/api/staff/') || r.path.startsWith('/api/admin/'))) expect(listed).toContain(`${route.method} ${route.path}`);
    expect(listed).toEqual(expect.arrayContaining(['POST /api/notification', 'PUT /api/staff/business-settings', 'PUT /api/staff/users/:uid/disabled', 'GET /api/staff/clients/:uid/export']));
    const wrong: string[] = [];
    for (const route of guarded) {
      const res = await send(route, admin.headers);
      if (res.statusCode !== 403 || errorOf(res).code !== 'SECOND_FACTOR_REQUIRED') wrong.push(`${route.method} ${route.path} as an admin: ${res.statusCode} ${res.body.slice(0, 160)}`);
    }
    for (const route of guarded.filter((r) => r.path.startsWith('/api/staff/'))) {
      const res = await send(route, staff.headers);
      // Admin-only staff routes refuse plain staff for their role first; every other one for the factor.
      if (res.statusCode !== 403 || !['SECOND_FACTOR_REQUIRED', 'FORBIDDEN'].includes(errorOf(res).code)) wrong.push(`${route.method} ${route.path} as staff: ${res.statusCode}`);
    }
    expect((await call(staff.headers, 'GET', '/api/staff/queue')).json()).toMatchObject({ error: { code: 'SECOND_FACTOR_REQUIRED' } });
    expect(wrong).toEqual([]);
    expect(guarded.length).toBeGreaterThanOrEqual(20);
  });

  it('keeps /api/user, the client feed and Security working for a client without a factor', async () => {
    const client = await t.user({ client: true });
    expect((await call(client.headers, 'GET', '/api/user')).statusCode).toBe(200);
    expect((await call(client.headers, 'GET', '/api/sync?cursor=0')).statusCode).toBe(200);
    const status = await call(client.headers, 'GET', '/api/security');
    expect(status.json().data).toEqual({ required: false, verifiedAt: null, passkeys: [], totp: false, recoveryCodesLeft: 0 });
  });

  it('asks a client who turned a second factor on for it in every session: every signed-in route but the ones that verify it refuses until then', async () => {
    const client = await t.user({ client: true });
    const { secret } = await enrolTotp(client);
    // The enrolling session verified the factor it added.
    expect((await call(client.headers, 'GET', '/api/sync?cursor=0')).statusCode).toBe(200);
    await verifiedAgo(client.uid, null);
    expect((await call(client.headers, 'GET', '/api/security')).json().data).toMatchObject({ required: true, verifiedAt: null, totp: true });
    const beforeFactor = new Set(['GET /api/security', 'POST /api/security/verify', 'POST /api/security/passkeys/verify/options', 'POST /api/security/passkeys/verify']);
    const send = (route: Route, headers: Record<string, string>) => call(headers, route.method, urlOf(route), route.method === 'GET' || route.method === 'DELETE' ? undefined : {});
    const refused: string[] = [];
    const wrong: string[] = [];
    // The event stream stays open and carries no data; the test-only routes are not the portal's.
    for (const route of allRoutes(t.app).filter((r) => r.path !== '/api/events' && !r.path.startsWith('/api/__test') && !beforeFactor.has(`${r.method} ${r.path}`))) {
      // Only the routes that want a signed-in caller: the public ones (health, unsubscribe, signed links) answer anyone.
      if ((await send(route, {})).statusCode !== 401) continue;
      const res = await send(route, client.headers);
      const code = res.statusCode === 403 ? errorOf(res).code : null;
      // Staff and admin routes refuse a client for the role first.
      const staffOnly = code === 'FORBIDDEN' && /^(Staff only|Admins only)$/.test((res.json() as { error: { message: string } }).error.message);
      if (code === 'SECOND_FACTOR_REQUIRED' || staffOnly) refused.push(`${route.method} ${route.path}`);
      else wrong.push(`${route.method} ${route.path}: ${res.statusCode} ${res.body.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
    expect(refused).toEqual(expect.arrayContaining(['GET /api/sync', 'GET /api/user', 'POST /api/refund', 'GET /api/security/sessions', 'POST /api/security/sessions/sign-out-others']));
    expect(refused.length).toBeGreaterThanOrEqual(30);
    expect(errorOf(await call(client.headers, 'GET', '/api/sync?cursor=0')).code).toBe('SECOND_FACTOR_REQUIRED');

    const verified = await call(client.headers, 'POST', '/api/security/verify', { method: 'totp', code: codeAt(secret, 30) });
    expect(verified.statusCode, verified.body).toBe(200);
    expect((await call(client.headers, 'GET', '/api/sync?cursor=0')).statusCode).toBe(200);
    expect((await call(client.headers, 'GET', '/api/user')).statusCode).toBe(200);
  });

  it('enrols an authenticator app at the first staff sign-in and verifies later sessions with its codes, each code once', async () => {
    const staff = await staffWithoutFactor();
    expect((await call(staff.headers, 'GET', '/api/security')).json().data).toMatchObject({ required: true, verifiedAt: null, totp: false });
    const setup = await call(staff.headers, 'POST', '/api/security/totp');
    const { secret } = setup.json().data as { secret: string };
    const wrong = await call(staff.headers, 'POST', '/api/security/totp/confirm', { code: codeAt(secret, -120) });
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong).code).toBe('WRONG_CODE');
    const bad = await call(staff.headers, 'POST', '/api/security/totp/confirm', { code: '12ab56' });
    expect(bad.statusCode).toBe(400);
    const confirmed = await call(staff.headers, 'POST', '/api/security/totp/confirm', { code: codeAt(secret) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const codes = (confirmed.json().data as { recoveryCodes: string[] }).recoveryCodes;
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    expect((await call(staff.headers, 'GET', '/api/staff/queue')).statusCode).toBe(200);

    // Another session of the same account (here: this one, its verification gone) must verify again.
    await verifiedAgo(staff.uid, null);
    expect(errorOf(await call(staff.headers, 'GET', '/api/staff/queue')).code).toBe('SECOND_FACTOR_REQUIRED');
    // The code of the next 30 seconds: the confirming code's step is used up.
    const next = codeAt(secret, 30);
    const verified = await call(staff.headers, 'POST', '/api/security/verify', { method: 'totp', code: next.replace(/(\d{3})/, '$1 ') });
    expect(verified.statusCode, verified.body).toBe(200);
    expect((await call(staff.headers, 'GET', '/api/staff/queue')).statusCode).toBe(200);
    await verifiedAgo(staff.uid, null);
    const replayed = await call(staff.headers, 'POST', '/api/security/verify', { method: 'totp', code: next });
    expect(errorOf(replayed).code).toBe('CODE_ALREADY_USED');
    expect(errorOf(await call(staff.headers, 'GET', '/api/staff/queue')).code).toBe('SECOND_FACTOR_REQUIRED');
  });

  it('accepts a recovery code once and not twice', async () => {
    const staff = await staffWithoutFactor();
    const { recoveryCodes: codes } = await enrolTotp(staff);
    await verifiedAgo(staff.uid, null);
    const first = await call(staff.headers, 'POST', '/api/security/verify', { method: 'recovery', code: codes[3].toUpperCase() });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.recoveryCodesLeft).toBe(RECOVERY_CODE_COUNT - 1);
    expect((await call(staff.headers, 'GET', '/api/staff/queue')).statusCode).toBe(200);
    await verifiedAgo(staff.uid, null);
    const again = await call(staff.headers, 'POST', '/api/security/verify', { method: 'recovery', code: codes[3] });
    expect(again.statusCode).toBe(400);
    expect(errorOf(again).code).toBe('WRONG_CODE');
    expect(errorOf(await call(staff.headers, 'GET', '/api/staff/queue')).code).toBe('SECOND_FACTOR_REQUIRED');
    const [used] = await db().select({ n: sql<number>`count(*)::int` }).from(recoveryCodes).where(and(eq(recoveryCodes.uid, staff.uid), sql`${recoveryCodes.usedAt} IS NOT NULL`));
    expect(used.n).toBe(1);
  });

  it('registers a passkey as the first factor and verifies a later session with it; staff cannot remove their last one', async () => {
    const staff = await staffWithoutFactor();
    const origin = new URL(t.services.config.email.publicUrl);
    const authenticator = new SoftwareAuthenticator(origin.origin, origin.hostname);
    const options = await call(staff.headers, 'POST', '/api/security/passkeys/options');
    expect(options.statusCode, options.body).toBe(200);
    const creation = options.json().data as { challenge: string; rp: { id: string } };
    expect(creation.rp.id).toBe(origin.hostname);
    const registered = await call(staff.headers, 'POST', '/api/security/passkeys', { name: 'Work laptop', response: authenticator.register(creation.challenge) });
    expect(registered.statusCode, registered.body).toBe(201);
    const answer = registered.json().data as { passkey: { id: string; name: string }; recoveryCodes: string[] };
    expect(answer.passkey.name).toBe('Work laptop');
    expect(answer.recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect((await call(staff.headers, 'GET', '/api/staff/queue')).statusCode).toBe(200);

    await verifiedAgo(staff.uid, null);
    // A challenge is used once: an answer to a stale one is refused.
    const stale = await call(staff.headers, 'POST', '/api/security/passkeys/verify', { response: authenticator.authenticate(creation.challenge) });
    expect(stale.statusCode).toBe(409);
    const request = (await call(staff.headers, 'POST', '/api/security/passkeys/verify/options')).json().data as { challenge: string; allowCredentials: { id: string }[] };
    expect(request.allowCredentials.map((c) => c.id)).toEqual([b64u(authenticator.credentialId)]);
    const verified = await call(staff.headers, 'POST', '/api/security/passkeys/verify', { response: authenticator.authenticate(request.challenge) });
    expect(verified.statusCode, verified.body).toBe(200);
    expect((await call(staff.headers, 'GET', '/api/staff/queue')).statusCode).toBe(200);
    const status = (await call(staff.headers, 'GET', '/api/security')).json().data as { passkeys: { id: string; lastUsedAt: string | null }[] };
    expect(status.passkeys).toMatchObject([{ id: answer.passkey.id }]);
    expect(status.passkeys[0].lastUsedAt).not.toBeNull();

    const removed = await call(staff.headers, 'DELETE', `/api/security/passkeys/${answer.passkey.id}`);
    expect(removed.statusCode).toBe(409);
    expect(errorOf(removed).code).toBe('LAST_FACTOR');
    // With an authenticator app as well, the passkey may go.
    // A second factor brings no new recovery codes: the first one's stay valid.
    expect((await enrolTotpWithStepUp(staff)).recoveryCodes).toBeUndefined();
    expect((await call(staff.headers, 'DELETE', `/api/security/passkeys/${answer.passkey.id}`)).statusCode).toBe(204);
  });

  /** A second factor added to an account that has one: the session verified it just now (step-up). */
  async function enrolTotpWithStepUp(user: TestUser) {
    const setup = await call(user.headers, 'POST', '/api/security/totp');
    expect(setup.statusCode, setup.body).toBe(201);
    const { secret } = setup.json().data as { secret: string };
    const confirmed = await call(user.headers, 'POST', '/api/security/totp/confirm', { code: codeAt(secret) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return confirmed.json().data as { recoveryCodes?: string[] };
  }

  it('refuses step-up actions once the second factor is older than 5 minutes, and factor changes without step-up', async () => {
    const admin = await t.user({ admin: true });
    const member = await t.user();
    await enrolTotpWithStepUp(admin);
    const role = () => call(admin.headers, 'PUT', `/api/staff/users/${member.uid}/role`, { staff: true, version: 1 });
    const create = () => call(admin.headers, 'POST', '/api/admin/users', { email: `new-${Date.now()}@test.example`, firstName: 'New', lastName: 'Person', country: 'Nigeria', phone: '+2348012345678' });
    const disable = () => call(admin.headers, 'PUT', `/api/staff/users/${member.uid}/disabled`, { disabled: true });
    // Business settings and a payment-details approval: refused before the body or the proposal is even looked at.
    const settings = () => call(admin.headers, 'PUT', '/api/staff/business-settings', {});
    const approve = () => call(admin.headers, 'POST', `/api/staff/business-settings/proposals/${SOME_ID}/approve`);
    const exportData = () => call(admin.headers, 'GET', `/api/staff/clients/${member.uid}/export`);
    await verifiedAgo(admin.uid, 6 * 60);
    for (const res of [await role(), await create(), await disable(), await settings(), await approve(), await exportData(), await call(admin.headers, 'POST', '/api/security/recovery-codes'), await call(admin.headers, 'DELETE', '/api/security/totp'), await call(admin.headers, 'POST', '/api/security/passkeys/options'), await call(admin.headers, 'POST', '/api/security/totp')]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(errorOf(res).code).toBe('STEP_UP_REQUIRED');
    }
    // Still verified for the session's ordinary staff work.
    expect((await call(admin.headers, 'GET', '/api/staff/team')).statusCode).toBe(200);
    await verifiedAgo(admin.uid, 4 * 60);
    const changed = await role();
    expect(changed.statusCode, changed.body).not.toBe(403);
    const renewed = await call(admin.headers, 'POST', '/api/security/recovery-codes');
    expect(renewed.statusCode).toBe(201);
    expect(renewed.json().data.recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
  });

  it('ends a signed-out session at its very next request, reads and writes alike, and keeps the others', async () => {
    const first = await t.user({ client: true });
    const taken = [authTimeOf(first)];
    const second = await newSession(first.email, taken);
    expect((await call(second.headers, 'GET', '/api/user')).statusCode).toBe(200);
    const listed = (await call(first.headers, 'GET', '/api/security/sessions')).json().data as { id: string; current: boolean }[];
    expect(listed).toHaveLength(2);
    const secondId = listed.find((s) => !s.current)?.id ?? '';
    expect((await call(first.headers, 'POST', `/api/security/sessions/${secondId}/sign-out`)).statusCode).toBe(204);
    for (const res of [
      await call(second.headers, 'GET', '/api/user'),
      await call(second.headers, 'GET', '/api/sync?cursor=0', undefined, other),
      await call(second.headers, 'PUT', '/api/seen', { kind: 'thread', id: SOME_ID, replyId: null }),
    ]) {
      expect(res.statusCode, res.body).toBe(401);
      expect(errorOf(res)).toMatchObject({ code: 'SESSION_ENDED', details: { reason: 'signed-out-elsewhere' } });
    }
    expect((await call(first.headers, 'GET', '/api/user')).statusCode).toBe(200);
    expect((await call(first.headers, 'GET', '/api/security/sessions')).json().data).toHaveLength(1);
  });

  it('signs out every other device, a sign-in not seen yet included, and keeps the current one', async () => {
    const a = await t.user({ client: true });
    const taken = [authTimeOf(a)];
    const b = await newSession(a.email, taken);
    expect((await call(b.headers, 'GET', '/api/user')).statusCode).toBe(200);
    // Signed in on a third device, which has not called the portal yet.
    const unseen = await newSession(a.email, taken);
    const current = await newSession(a.email, taken);
    const res = await call(current.headers, 'POST', '/api/security/sessions/sign-out-others');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.ended).toBe(2);
    for (const headers of [a.headers, b.headers, unseen.headers]) {
      expect(errorOf(await call(headers, 'GET', '/api/user'))).toMatchObject({ code: 'SESSION_ENDED', details: { reason: 'signed-out-elsewhere' } });
      expect((await call(headers, 'POST', '/api/security/sessions/sign-out-others')).statusCode).toBe(401);
    }
    expect((await call(current.headers, 'GET', '/api/user')).statusCode).toBe(200);
    expect((await call(current.headers, 'GET', '/api/user', undefined, other)).statusCode).toBe(200);
    const audited = await db().select().from(auditLog).where(and(eq(auditLog.subjectUid, a.uid), eq(auditLog.action, 'session')));
    expect(audited).toHaveLength(1);

    // "Sign out all devices": this one too.
    expect((await call(current.headers, 'POST', '/api/security/sessions/sign-out-everywhere')).statusCode).toBe(204);
    expect(errorOf(await call(current.headers, 'GET', '/api/user', undefined, other))).toMatchObject({ code: 'SESSION_ENDED', details: { reason: 'signed-out-everywhere' } });
  });

  it('disables an account through the portal: refused at its next request on every instance, and in the identity provider', async () => {
    const admin = await t.user({ admin: true });
    const target = await t.user({ client: true });
    expect((await call(target.headers, 'GET', '/api/user', undefined, other)).statusCode).toBe(200);
    const own = await call(admin.headers, 'PUT', `/api/staff/users/${admin.uid}/disabled`, { disabled: true });
    expect(errorOf(own).code).toBe('OWN_ACCOUNT');
    const res = await call(admin.headers, 'PUT', `/api/staff/users/${target.uid}/disabled`, { disabled: true });
    expect(res.statusCode, res.body).toBe(200);
    for (const [method, url, app] of [['GET', '/api/user', t.app], ['GET', '/api/sync?cursor=0', other], ['POST', '/api/security/sessions/sign-out-others', other]] as const) {
      const refused = await call(target.headers, method, url, method === 'GET' ? undefined : {}, app);
      expect(refused.statusCode).toBe(401);
      expect(errorOf(refused)).toMatchObject({ code: 'SESSION_ENDED', details: { reason: 'account-disabled' } });
    }
    await expect(signIn(target.email)).rejects.toThrow(/USER_DISABLED/);
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.subjectUid, target.uid), eq(auditLog.action, 'account-disabled')));
    expect(audit.actorUid).toBe(admin.uid);
    // The client's page says so, for the admin's Enable button.
    const disabledOnPage = async () => (await call(admin.headers, 'GET', `/api/staff/clients/${target.uid}`)).json().data.client.disabled;
    expect(await disabledOnPage()).toBe(true);

    expect((await call(admin.headers, 'PUT', `/api/staff/users/${target.uid}/disabled`, { disabled: false })).statusCode).toBe(200);
    expect(await disabledOnPage()).toBe(false);
    // A new sign-in works again once the provider allows it (its auth_time after the cut).
    await waitUntil(async () => {
      const again = await signIn(target.email).catch(() => null);
      return !!again && (await call({ authorization: `Bearer ${again.token}` }, 'GET', '/api/user')).statusCode === 200;
    }, 10);
  });

  it(`limits wrong codes to ${SECOND_FACTOR_ATTEMPTS} per 15 minutes per account across two instances (429 with Retry-After), then refuses even the right one`, async () => {
    const staff = await staffWithoutFactor();
    const { secret } = await enrolTotp(staff);
    await verifiedAgo(staff.uid, null);
    const wrongCode = codeAt(secret, -300);
    for (let i = 0; i < SECOND_FACTOR_ATTEMPTS; i++) {
      const res = await call(staff.headers, 'POST', '/api/security/verify', { method: 'totp', code: wrongCode }, i % 2 === 0 ? t.app : other);
      expect(res.statusCode, res.body).toBe(400);
    }
    for (const app of [t.app, other]) {
      const locked = await call(staff.headers, 'POST', '/api/security/verify', { method: 'totp', code: codeAt(secret, 30) }, app);
      expect(locked.statusCode, locked.body).toBe(429);
      expect(errorOf(locked).code).toBe('SECOND_FACTOR_LOCKED');
      const retryAfter = Number(locked.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    }
    expect(errorOf(await call(staff.headers, 'GET', '/api/staff/queue')).code).toBe('SECOND_FACTOR_REQUIRED');
    const locks = await db().select().from(auditLog).where(and(eq(auditLog.subjectUid, staff.uid), eq(auditLog.action, 'second-factor'), sql`${auditLog.after}->>'locked' = 'true'`));
    expect(locks).toHaveLength(1);
  });

  it('tells the user of a sign-in from a new browser and system, once, in the app and as a delivery', async () => {
    const user = await t.user({ client: true });
    const taken = [authTimeOf(user)];
    const messages = async () => {
      const feed = (await call(user.headers, 'GET', '/api/sync?cursor=0')).json() as { data: { notifications?: { message: string }[] } };
      return (feed.data.notifications ?? []).map((n) => n.message).filter((m) => m.startsWith('New sign-in'));
    };
    const phone = await newSession(user.email, taken);
    expect((await call({ ...phone.headers, 'user-agent': ANDROID_CHROME }, 'GET', '/api/user')).statusCode).toBe(200);
    expect(await messages()).toEqual(['New sign-in on Chrome on Android — not you? Sign out all devices']);
    const [delivery] = await db().select().from(deliveries).where(and(eq(deliveries.recipientUid, user.uid), eq(deliveries.eventKind, 'newSignIn')));
    expect(delivery.channel).toBe('email');
    // The same phone signing in again is no news.
    const again = await newSession(user.email, taken);
    expect((await call({ ...again.headers, 'user-agent': ANDROID_CHROME }, 'GET', '/api/user')).statusCode).toBe(200);
    expect(await messages()).toHaveLength(1);
    const listed = (await call(user.headers, 'GET', '/api/security/sessions')).json().data as { browser: string; os: string }[];
    expect(listed.map((s) => `${s.browser} on ${s.os}`)).toContain('Chrome on Android');
    expect(newSignInText({ browser: 'Firefox', os: 'Windows', place: 'Lagos, NG' })).toBe('New sign-in on Firefox on Windows near Lagos, NG — not you? Sign out all devices');
    expect(await placeOf('127.0.0.1')).toBeNull();
    void WINDOWS_FIREFOX;
  });

  it('shows no secret (TOTP secret, recovery codes, their hashes) in any answer after enrolment, the client feed, or the log', async () => {
    const staff = await staffWithoutFactor();
    const { secret, recoveryCodes: codes } = await enrolTotp(staff);
    await db().update(users).set({ isClient: true }).where(eq(users.uid, staff.uid));
    const [stored] = await db().select().from(totpFactors).where(eq(totpFactors.uid, staff.uid));
    expect(stored.secret).toBe(secret);
    const hashes = (await db().select({ hash: recoveryCodes.hash }).from(recoveryCodes).where(eq(recoveryCodes.uid, staff.uid))).map((r) => r.hash);
    expect(hashes).toHaveLength(RECOVERY_CODE_COUNT);
    const secrets = [secret, ...codes, ...codes.map((c) => c.replace('-', '')), ...hashes];
    const answers = await Promise.all(
      ['/api/security', '/api/security/sessions', '/api/user', '/api/sync?cursor=0', '/api/staff/sync?cursor=0', `/api/staff/clients/${staff.uid}`].map(async (url) => {
        const res = await call(staff.headers, 'GET', url);
        expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
        return res.body;
      }),
    );
    // An Idempotency-Key is ignored here: the store would keep the secret answer for replay.
    const renewed = await call({ ...staff.headers, 'idempotency-key': 'renew-codes-1' }, 'POST', '/api/security/recovery-codes');
    expect(renewed.statusCode, renewed.body).toBe(201);
    const kept = await db().select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, staff.uid));
    expect(kept).toEqual([]);
    const everything = [...answers, logLines.join('')].join('\n');
    expect(logLines.length).toBeGreaterThan(0);
    for (const s of secrets) expect(everything).not.toContain(s);
  });
});
