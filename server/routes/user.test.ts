import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userPresence, users } from '../db/schema.ts';
import { backends, createTestApp, emulatorHost, postgresSkipReason, signUp, type TestApp, type TestUser } from '../test-helper.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[user.test] PostgreSQL run skipped: ${skip}`);

const validForm = (name = 'Ada Lovelace') => ({
  initialForm: { moneyLost: 2500, lastFundsTransfer: Date.UTC(2025, 4, 1), fraudType: 'CRYPTO', fraudUrl: 'https://scam.example', name },
});

type Endpoint = { method: 'GET' | 'PUT' | 'PATCH'; url: string; payload?: unknown };
const endpoints: Endpoint[] = [
  { method: 'GET', url: '/api/user' },
  { method: 'PUT', url: '/api/user/initial-form', payload: validForm() },
  { method: 'PATCH', url: '/api/user/active-status', payload: { status: 'ACTIVE' } },
  { method: 'GET', url: '/api/sync' },
  { method: 'GET', url: '/api/events' },
];

/** A JWT-shaped token for a uid the identity provider has never issued. */
function forgedToken(uid: string): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return [
    b64({ alg: 'none', typ: 'JWT' }),
    b64({ iss: 'https://securetoken.google.com/demo-portal', aud: 'demo-portal', sub: uid, user_id: uid, iat: now, exp: now + 3600, auth_time: now }),
    '',
  ].join('.');
}

describe.each(backends())('user routes (%s)', (backend) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    [alice, bob] = await Promise.all([t.user(), t.user()]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const rowOf = async (uid: string) => (await t.services.db.select().from(users).where(eq(users.uid, uid)))[0];
  const presenceOf = async (uid: string) => (await t.services.db.select().from(userPresence).where(eq(userPresence.uid, uid)))[0];

  describe('authentication', () => {
    const badHeaders: [string, Record<string, string>][] = [
      ['no token', {}],
      ['a garbage token', { authorization: 'Bearer garbage' }],
      ['a malformed header', { authorization: 'Token abc.def.ghi' }],
      ['an empty bearer', { authorization: 'Bearer ' }],
      ['a token for an account that does not exist', { authorization: `Bearer ${forgedToken('no-such-account-123')}` }],
    ];
    for (const ep of endpoints) {
      for (const [label, headers] of badHeaders) {
        it(`${ep.method} ${ep.url} answers 401 with ${label}`, async () => {
          const res = await t.app.inject({ method: ep.method, url: ep.url, headers, payload: ep.payload as object });
          expect(res.statusCode).toBe(401);
          expect(res.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
        });
      }
    }

    it('a rejected call stores nothing', async () => {
      const before = (await t.services.db.select().from(users)).length;
      await t.app.inject({ method: 'PUT', url: '/api/user/initial-form', headers: { authorization: 'Bearer garbage' }, payload: validForm() });
      expect((await t.services.db.select().from(users)).length).toBe(before);
    });

    // Reads trust a full token check for up to 60 s (docs/decisions/011-token-checks.md; the window
    // itself is tested with a clock in plugins/auth.test.ts); writes and stream connects always ask.
    it('the token of a deleted account is refused at once on stream connect and the next write, then on reads', async () => {
      const emulator = emulatorHost();
      const { idToken } = await signUp(emulator, `gone-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@test.example`, 'Secret#123');
      const headers = { authorization: `Bearer ${idToken}` };
      const ok = await t.app.inject({ method: 'GET', url: '/api/user', headers });
      expect(ok.statusCode).toBe(200);
      const del = await fetch(`http://${emulator}/identitytoolkit.googleapis.com/v1/accounts:delete?key=fake-api-key`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ idToken }),
      });
      expect(del.ok).toBe(true);
      expect((await t.app.inject({ method: 'GET', url: '/api/events', headers })).statusCode).toBe(401);
      const write = await t.app.inject({ method: 'PATCH', url: '/api/user/active-status', headers, payload: { status: 'ACTIVE' } });
      expect(write.statusCode).toBe(401);
      // The refused check forgot the token: reads on this instance stop with it.
      expect((await t.app.inject({ method: 'GET', url: '/api/user', headers })).statusCode).toBe(401);
    });
  });

  describe('validation: bad bodies are 400 with a message, never 500', () => {
    const form = validForm().initialForm;
    const badForms: [string, unknown][] = [
      ['no body', undefined],
      ['an empty object', {}],
      ['a missing field', { initialForm: { ...form, fraudUrl: undefined } }],
      ['a wrong type', { initialForm: { ...form, moneyLost: '2500' } }],
      ['a negative amount', { initialForm: { ...form, moneyLost: -1 } }],
      ['an unknown fraud type', { initialForm: { ...form, fraudType: 'LOTTERY' } }],
      ['a blank name', { initialForm: { ...form, name: '   ' } }],
      ['an over-long url', { initialForm: { ...form, fraudUrl: 'x'.repeat(301) } }],
      ['an unknown key inside', { initialForm: { ...form, isClient: true } }],
      ['an unknown key outside', { ...validForm(), uid: 'someone-else' }],
      ['an array', [validForm()]],
      ['null', null],
      ['a string', 'hello'],
    ];
    for (const [label, payload] of badForms) {
      it(`PUT /api/user/initial-form with ${label}`, async () => {
        const res = await t.app.inject({
          method: 'PUT',
          url: '/api/user/initial-form',
          headers: { ...alice.headers, 'content-type': 'application/json' },
          payload: payload === undefined ? undefined : JSON.stringify(payload),
        });
        expect(res.statusCode).toBe(400);
        const body = res.json();
        expect(body.error.message).toEqual(expect.any(String));
        expect(body.error.message.length).toBeGreaterThan(0);
      });
    }

    it('names the offending field in the message', async () => {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/user/initial-form',
        headers: alice.headers,
        payload: { initialForm: { ...form, moneyLost: 'lots' } },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('moneyLost') });
    });

    const badStatuses: [string, unknown][] = [
      ['an unknown status', { status: 'AWAY' }],
      ['a wrong type', { status: 1 }],
      ['a missing status', {}],
      ['an unknown key', { status: 'ACTIVE', uid: 'x' }],
    ];
    for (const [label, payload] of badStatuses) {
      it(`PATCH /api/user/active-status with ${label}`, async () => {
        const res = await t.app.inject({ method: 'PATCH', url: '/api/user/active-status', headers: alice.headers, payload: payload as object });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.message).toEqual(expect.any(String));
      });
    }

    for (const [method, url] of [
      ['PUT', '/api/user/initial-form'],
      ['PATCH', '/api/user/active-status'],
    ] as const) {
      it(`${method} ${url} with invalid JSON is 400`, async () => {
        const res = await t.app.inject({ method, url, headers: { ...alice.headers, 'content-type': 'application/json' }, payload: '{"status": "ACT' });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.message).toEqual(expect.any(String));
      });

      it(`${method} ${url} with an empty JSON body is 400`, async () => {
        const res = await t.app.inject({ method, url, headers: { ...alice.headers, 'content-type': 'application/json' }, payload: '' });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.message).toEqual(expect.any(String));
      });

      it(`${method} ${url} with a text/plain body is 400`, async () => {
        const res = await t.app.inject({ method, url, headers: { ...alice.headers, 'content-type': 'text/plain' }, payload: 'status=ACTIVE' });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.message).toEqual(expect.any(String));
      });

      it(`${method} ${url} with a content type the server does not read is 415, with a message`, async () => {
        const res = await t.app.inject({ method, url, headers: { ...alice.headers, 'content-type': 'application/xml' }, payload: '<status>ACTIVE</status>' });
        expect(res.statusCode).toBe(415);
        expect(res.json().error.message).toEqual(expect.any(String));
      });
    }

    it('a bad body changes nothing', async () => {
      const before = await rowOf(alice.uid);
      await t.app.inject({ method: 'PUT', url: '/api/user/initial-form', headers: alice.headers, payload: { initialForm: { ...form, name: '' } } });
      const after = await rowOf(alice.uid);
      expect(after.filledInitialForm).toBe(before.filledInitialForm);
      expect(after.seq).toBe(before.seq);
    });
  });

  describe('one user cannot read or change another’s profile', () => {
    it('GET /api/user returns the caller’s own row, whatever the query says', async () => {
      const a = await t.app.inject({ method: 'GET', url: `/api/user?uid=${bob.uid}`, headers: alice.headers });
      expect(a.statusCode).toBe(200);
      expect(a.json().data).toMatchObject({ uid: alice.uid, email: alice.email });
      const b = await t.app.inject({ method: 'GET', url: '/api/user', headers: bob.headers });
      expect(b.json().data).toMatchObject({ uid: bob.uid, email: bob.email });
      expect(JSON.stringify(a.json())).not.toContain(bob.uid);
      expect(JSON.stringify(a.json())).not.toContain(bob.email);
    });

    it('A’s initial form and status change A’s row only', async () => {
      const bobBefore = await rowOf(bob.uid);
      const bobPresenceBefore = await presenceOf(bob.uid);
      const form = await t.app.inject({ method: 'PUT', url: `/api/user/initial-form?uid=${bob.uid}`, headers: alice.headers, payload: validForm('Alice Isolated') });
      expect(form.statusCode).toBe(201);
      expect(form.json().data.uid).toBe(alice.uid);
      const status = await t.app.inject({ method: 'PATCH', url: '/api/user/active-status', headers: alice.headers, payload: { status: 'ACTIVE' } });
      expect(status.statusCode).toBe(200);
      expect((await presenceOf(alice.uid)).status).toBe('ACTIVE');
      expect(await rowOf(bob.uid)).toEqual(bobBefore);
      expect(await presenceOf(bob.uid)).toEqual(bobPresenceBefore);
    });

    it('a uid in the body is refused, not used', async () => {
      const res = await t.app.inject({ method: 'PATCH', url: '/api/user/active-status', headers: bob.headers, payload: { status: 'ACTIVE', uid: alice.uid } });
      expect(res.statusCode).toBe(400);
    });
  });

  describe('profiles', () => {
    it('a new account with no profile row gets one on its first call, as a lead', async () => {
      const emulator = emulatorHost();
      const email = `fresh-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@test.example`;
      const { idToken, localId } = await signUp(emulator, email, 'Secret#123');
      expect(await rowOf(localId)).toBeUndefined();
      // Several first calls at once (the app's start-up does this) still make one row.
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: `Bearer ${idToken}` } })),
      );
      for (const res of answers) expect(res.statusCode).toBe(200);
      expect(answers[0].json().data).toMatchObject({
        uid: localId,
        email,
        isClient: false,
        isAdmin: false,
        filledInitialForm: false,
        initialForm: null,
        firstName: null,
        lastName: null,
      });
      const rows = await t.services.db.select().from(users).where(eq(users.uid, localId));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ isClient: false, isAdmin: false, filledInitialForm: false });
    });

    it('the first call of a new account may be a write: it still gets its profile', async () => {
      const emulator = emulatorHost();
      const { idToken, localId } = await signUp(emulator, `w-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@test.example`, 'Secret#123');
      const res = await t.app.inject({ method: 'PATCH', url: '/api/user/active-status', headers: { authorization: `Bearer ${idToken}` }, payload: { status: 'ACTIVE' } });
      expect(res.statusCode).toBe(200);
      expect(await rowOf(localId)).toMatchObject({ isClient: false, filledInitialForm: false });
      expect(await presenceOf(localId)).toMatchObject({ status: 'ACTIVE' });
    });

    it('PUT /api/user/initial-form answers 201, sets filledInitialForm and the name', async () => {
      const carol = await t.user();
      const before = await t.app.inject({ method: 'GET', url: '/api/user', headers: carol.headers });
      expect(before.json().data.filledInitialForm).toBe(false);
      const res = await t.app.inject({ method: 'PUT', url: '/api/user/initial-form', headers: carol.headers, payload: validForm('Carol Ann Smith') });
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({
        uid: carol.uid,
        filledInitialForm: true,
        firstName: 'Carol',
        lastName: 'Ann Smith',
        initialForm: validForm('Carol Ann Smith').initialForm,
      });
      const again = await t.app.inject({ method: 'GET', url: '/api/user', headers: carol.headers });
      expect(again.json().data).toMatchObject({ filledInitialForm: true, firstName: 'Carol', lastName: 'Ann Smith' });
    });

    it('PATCH /api/user/active-status answers the status and records it', async () => {
      for (const status of ['ACTIVE', 'IN_ACTIVE'] as const) {
        const res = await t.app.inject({ method: 'PATCH', url: '/api/user/active-status', headers: bob.headers, payload: { status } });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ data: { status } });
        const row = await presenceOf(bob.uid);
        expect(row.status).toBe(status);
        expect(row.lastSeenAt).not.toBeNull();
      }
    });

    it('roles come from the database on every call', async () => {
      const dave = await t.user();
      expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: dave.headers })).json().data.isClient).toBe(false);
      await t.services.db.update(users).set({ isClient: true }).where(eq(users.uid, dave.uid));
      expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: dave.headers })).json().data.isClient).toBe(true);
    });
  });

  describe('presence is kept outside the synced profile', () => {
    const setStatus = (user: TestUser, status: 'ACTIVE' | 'IN_ACTIVE') =>
      t.app.inject({ method: 'PATCH', url: '/api/user/active-status', headers: user.headers, payload: { status } });
    const profileOf = async (user: TestUser) => (await t.app.inject({ method: 'GET', url: '/api/user', headers: user.headers })).json().data;
    const pull = async (user: TestUser, cursor: string) => (await t.app.inject({ method: 'GET', url: `/api/sync?cursor=${cursor}`, headers: user.headers })).json().data;

    it('a user who never reported reads as IN_ACTIVE', async () => {
      const erin = await t.user();
      expect(await presenceOf(erin.uid)).toBeUndefined();
      expect((await profileOf(erin)).activityStatus).toBe('IN_ACTIVE');
    });

    it('a presence PATCH leaves the users row and its seq alone, and GET /api/user shows the new status', async () => {
      const frank = await t.user();
      const before = await rowOf(frank.uid);
      // Everything of Frank's so far, so the next pull starts after it.
      const { cursor } = await pull(frank, '0');
      for (const status of ['ACTIVE', 'IN_ACTIVE', 'ACTIVE'] as const) {
        expect((await setStatus(frank, status)).statusCode).toBe(200);
        expect((await profileOf(frank)).activityStatus).toBe(status);
      }
      // Not renumbered: no change_seq lock taken, and the feed has nothing new to send.
      expect(await rowOf(frank.uid)).toEqual(before);
      expect(await pull(frank, cursor)).toMatchObject({ cursor, profile: null, hasMore: false });
    });

    it('updated_at says since when the status holds; last_seen_at moves on every report', async () => {
      const gina = await t.user();
      await setStatus(gina, 'ACTIVE');
      const first = await presenceOf(gina.uid);
      await setStatus(gina, 'ACTIVE');
      const repeated = await presenceOf(gina.uid);
      expect(repeated.updatedAt).toBe(first.updatedAt);
      expect(Date.parse(repeated.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(first.lastSeenAt));
      await setStatus(gina, 'IN_ACTIVE');
      const changed = await presenceOf(gina.uid);
      expect(changed.status).toBe('IN_ACTIVE');
      expect(changed.updatedAt).not.toBe(first.updatedAt);
    });

    it('the staff client file shows the presence', async () => {
      const [staff, hank] = await Promise.all([t.user({ staff: true }), t.user({ client: true })]);
      const file = async () => (await t.app.inject({ method: 'GET', url: `/api/staff/clients/${hank.uid}`, headers: staff.headers })).json().data;
      expect((await file()).client.activityStatus).toBe('IN_ACTIVE');
      await setStatus(hank, 'ACTIVE');
      expect((await file()).client.activityStatus).toBe('ACTIVE');
      await setStatus(hank, 'IN_ACTIVE');
      expect((await file()).client.activityStatus).toBe('IN_ACTIVE');
    });

    it('PUT /api/user/initial-form answers the stored presence', async () => {
      const ivy = await t.user();
      await setStatus(ivy, 'ACTIVE');
      const res = await t.app.inject({ method: 'PUT', url: '/api/user/initial-form', headers: ivy.headers, payload: validForm('Ivy Green') });
      expect(res.statusCode).toBe(201);
      expect(res.json().data.activityStatus).toBe('ACTIVE');
    });
  });
});
