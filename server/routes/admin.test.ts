import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema.ts';
import { backends, createTestApp, type TestApp, type TestUser } from '../test-helper.ts';

let t: TestApp;
let admin: TestUser;
let client: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [admin, client] = await Promise.all([t.user({ admin: true }), t.user({ client: true })]);
});
afterAll(() => t?.close());

const post = (user: TestUser | null, url: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers: user?.headers ?? {}, payload: payload as object });
const uniqueEmail = () => `new-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@test.example`;
const newUser = (email = uniqueEmail()) => ({ firstName: 'Dana', lastName: 'Levi', email, phone: '+972500000000', country: 'Israel' });

async function oobCodesFor(email: string): Promise<{ email: string; oobCode: string; requestType: string }[]> {
  const res = await fetch(`http://${process.env.FIREBASE_AUTH_EMULATOR_HOST}/emulator/v1/projects/demo-portal/oobCodes`);
  const body = (await res.json()) as { oobCodes: { email: string; oobCode: string; requestType: string }[] };
  return body.oobCodes.filter((c) => c.email === email);
}

/** The uid of the emulator's account with this email, or null: what the identity provider really holds. */
async function accountOf(email: string): Promise<string | null> {
  const res = await fetch(`http://${process.env.FIREBASE_AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/projects/demo-portal/accounts:lookup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
    body: JSON.stringify({ email: [email] }),
  });
  const body = (await res.json()) as { users?: { localId: string }[] };
  return body.users?.[0]?.localId ?? null;
}

describe('admin routes', () => {
  it('answer 401 without a token and 403 to a client', async () => {
    const routes: [string, unknown][] = [
      ['/api/admin/users', newUser()],
      ['/api/admin/users/link', { recordId: client.uid, recordModule: 'leads' }],
    ];
    for (const [url, body] of routes) {
      const anon = await post(null, url, body);
      expect(anon.statusCode, url).toBe(401);
      expect(anon.json().error.code).toBe('UNAUTHORIZED');
      const bad = await t.app.inject({ method: 'POST', url, headers: { authorization: 'Bearer not.a.token' }, payload: body as object });
      expect(bad.statusCode, url).toBe(401);
      const forbidden = await post(client, url, body);
      expect(forbidden.statusCode, url).toBe(403);
      expect(forbidden.json().error.code).toBe('FORBIDDEN');
    }
    // The client's refused link changed nothing.
    const [row] = await t.services.db.select().from(users).where(eq(users.uid, client.uid));
    expect(row.isClient).toBe(true);
  });

  it('a revoked admin is refused on the next request, same token', async () => {
    const other = await t.user({ admin: true });
    await t.services.db.update(users).set({ isAdmin: false }).where(eq(users.uid, other.uid));
    expect((await post(other, '/api/admin/users/link', { recordId: client.uid, recordModule: 'contacts' })).statusCode).toBe(403);
  });
});

describe('POST /api/admin/users', () => {
  it('creates the account and the lead profile and sends the set-password email', async () => {
    const email = uniqueEmail();
    const res = await post(admin, '/api/admin/users', newUser(email.toUpperCase()));
    expect(res.statusCode).toBe(201);
    const { uid, email: answered } = res.json().data;
    expect(answered).toBe(email);
    expect(await t.services.identity.userExists(uid)).toBe(true);

    const [row] = await t.services.db.select().from(users).where(eq(users.uid, uid));
    expect(row).toMatchObject({ email, firstName: 'Dana', lastName: 'Levi', phone: '+972500000000', country: 'Israel', isClient: false, isAdmin: false });

    const codes = await oobCodesFor(email);
    expect(codes).toHaveLength(1);
    expect(codes[0].requestType).toBe('PASSWORD_RESET');
  });

  it('answers 409 with a clear message when the email already has an account', async () => {
    const res = await post(admin, '/api/admin/users', newUser(client.email));
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({ code: 'EMAIL_EXISTS', message: `An account with the email ${client.email} already exists` });
    expect(await oobCodesFor(client.email)).toHaveLength(0);
  });

  it('refuses an email that already has a profile before making any account', async () => {
    const before = await accountOf(client.email);
    const res = await post(admin, '/api/admin/users', newUser(client.email.toUpperCase()));
    expect(res.statusCode).toBe(409);
    expect(await accountOf(client.email)).toBe(before);
  });

  it('names the missing or bad field in a 400', async () => {
    for (const field of ['firstName', 'lastName', 'email', 'phone', 'country'] as const) {
      const body: Record<string, string> = newUser();
      delete body[field];
      const res = await post(admin, '/api/admin/users', body);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().error.message).toContain(field);
    }
    const blank = await post(admin, '/api/admin/users', { ...newUser(), firstName: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error.message).toContain('firstName');
    const badEmail = await post(admin, '/api/admin/users', { ...newUser(), email: 'nope' });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().error.message).toContain('email');
    const long = await post(admin, '/api/admin/users', { ...newUser(), lastName: 'x'.repeat(101) });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.message).toContain('lastName');
  });
});

describe('POST /api/admin/users/link', () => {
  it('turns a lead into a client and back; the user sees it with the same token', async () => {
    const lead = await t.user();
    const me = async () => (await t.app.inject({ method: 'GET', url: '/api/user', headers: lead.headers })).json().data;
    expect((await me()).isClient).toBe(false);

    const poked = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no poke')), 5000);
      const stop = t.services.events.subscribe(lead.uid, () => {
        clearTimeout(timer);
        stop();
        resolve();
      });
    });
    const approve = await post(admin, '/api/admin/users/link', { recordId: lead.uid, recordModule: 'contacts' });
    expect(approve.statusCode).toBe(201);
    expect(approve.json().data).toMatchObject({ uid: lead.uid, isClient: true });
    await poked;
    expect((await me()).isClient).toBe(true);

    const withdraw = await post(admin, '/api/admin/users/link', { recordId: lead.uid, recordModule: 'leads' });
    expect(withdraw.statusCode).toBe(201);
    expect(withdraw.json().data.isClient).toBe(false);
    expect((await me()).isClient).toBe(false);
  });

  it('answers 404 for an unknown user id and 400 for missing or bad fields', async () => {
    const unknown = await post(admin, '/api/admin/users/link', { recordId: 'no-such-user', recordModule: 'contacts' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('User no-such-user not found');

    const missingId = await post(admin, '/api/admin/users/link', { recordModule: 'contacts' });
    expect(missingId.statusCode).toBe(400);
    expect(missingId.json().error.message).toContain('recordId');
    const blankId = await post(admin, '/api/admin/users/link', { recordId: ' ', recordModule: 'contacts' });
    expect(blankId.statusCode).toBe(400);
    const badModule = await post(admin, '/api/admin/users/link', { recordId: client.uid, recordModule: 'accounts' });
    expect(badModule.statusCode).toBe(400);
    expect(badModule.json().error.message).toContain('recordModule');
    const longId = await post(admin, '/api/admin/users/link', { recordId: 'x'.repeat(129), recordModule: 'contacts' });
    expect(longId.statusCode).toBe(400);
  });
});

describe('audit of approvals through Create User → Existing User', () => {
  it('records the change of isClient with before and after, and bumps the version', async () => {
    const { clientHistory } = await import('../services/audit.ts');
    const lead = await t.user();
    const [before] = await t.services.db.select().from(users).where(eq(users.uid, lead.uid));
    const res = await post(admin, '/api/admin/users/link', { recordId: lead.uid, recordModule: 'contacts' });
    expect(res.statusCode).toBe(201);
    const [after] = await t.services.db.select().from(users).where(eq(users.uid, lead.uid));
    expect(after.version).toBe(before.version + 1);
    const history = await clientHistory(t.services.db, lead.uid);
    expect(history.at(-1)).toMatchObject({ action: 'approve', actor: { uid: admin.uid }, before: { isClient: false }, after: { isClient: true } });
  });
});

// Create User makes an identity account and then a profile: a failure after the first step must undo it.
describe.each(backends())('POST /api/admin/users is all or nothing (%s)', (backend) => {
  let b: TestApp;
  let bAdmin: TestUser;
  beforeAll(async () => {
    b = await createTestApp({ backend });
    bAdmin = await b.user({ admin: true });
  });
  afterAll(() => b?.close());

  it('leaves no account behind when the profile cannot be stored, and the retry succeeds', async () => {
    const email = uniqueEmail();
    const db = b.services.db;
    const send = (url: string, body: unknown) => b.app.inject({ method: 'POST', url, headers: bAdmin.headers, payload: body as object });
    // The profile insert fails for this one email, as a database error would, after the account exists.
    await db.execute(
      sql.raw(`CREATE FUNCTION refuse_profile() RETURNS trigger AS $$
        BEGIN
          IF NEW.email = '${email}' THEN RAISE EXCEPTION 'profile refused for the test'; END IF;
          RETURN NEW;
        END $$ LANGUAGE plpgsql`),
    );
    await db.execute(sql.raw('CREATE TRIGGER refuse_profile BEFORE INSERT ON users FOR EACH ROW EXECUTE FUNCTION refuse_profile()'));
    try {
      const failed = await send( '/api/admin/users', newUser(email));
      expect(failed.statusCode).toBe(502);
      expect(failed.json().error.code).toBe('USER_NOT_CREATED');
      expect(failed.json().error.message).toContain('Nothing was saved');
      expect(await accountOf(email)).toBeNull();
      expect(await db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
      expect(await oobCodesFor(email)).toHaveLength(0);
    } finally {
      await db.execute(sql.raw('DROP TRIGGER refuse_profile ON users'));
      await db.execute(sql.raw('DROP FUNCTION refuse_profile()'));
    }
    const retry = await send( '/api/admin/users', newUser(email));
    expect(retry.statusCode).toBe(201);
    expect(await accountOf(email)).toBe(retry.json().data.uid);
  });

});
