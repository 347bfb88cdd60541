import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productRequests, totpFactors, users } from '../db/schema.ts';
import { DEMO_TOTP_SECRETS } from './seed-data.ts';
import { demoAccounts, seedDemo, type DemoAccount } from './seed.ts';
import { backends, createTestApp, emulatorHost, postgresSkipReason, signUp, type TestApp } from '../test-helper.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[seed.test] PostgreSQL run skipped: ${skip}`);

describe.each(backends())('the demo seed keeps each demo user\'s uid (%s)', (backend) => {
  let t: TestApp;
  // The demo accounts under emails of this run only: the emulator is shared with the other test files.
  const run = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const accounts: DemoAccount[] = demoAccounts.map((a) => ({ ...a, email: `${a.kind}-${run}@demo.test` }));
  const client = accounts.find((a) => a.kind === 'client') as DemoAccount;
  const deps = () => ({ db: t.services.db, identity: t.services.identity, storage: t.services.storage });
  const rowsOf = (email: string) => t.services.db.select({ uid: users.uid }).from(users).where(sql`lower(${users.email}) = ${email}`);
  /** The uid the identity provider signs this demo account in with, by its password. */
  const signedInUid = async (account: DemoAccount) => (await signUp(emulatorHost(), account.email, account.password)).localId;
  let first: Map<string, string>;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    await seedDemo(deps(), accounts);
    first = new Map();
    for (const account of accounts) first.set(account.email, (await rowsOf(account.email))[0].uid);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Each demo email: one row, under its first uid, and the account signs in with that uid; the client's requests are visible. */
  async function expectSameUsers() {
    for (const account of accounts) {
      expect(await rowsOf(account.email)).toEqual([{ uid: first.get(account.email) }]);
      expect(await signedInUid(account)).toBe(first.get(account.email));
    }
    const token = (await signUp(emulatorHost(), client.email, client.password)).idToken;
    const res = await t.app.inject({ url: '/api/user/product-requests-status-count', headers: { authorization: `Bearer ${token}` } });
    expect(res.json()).toEqual({ data: { done: 5, inProgress: 5, pending: 5, waitingForActions: 5 } });
    const [n] = await t.services.db.select({ n: count() }).from(productRequests).where(eq(productRequests.userId, first.get(client.email) as string));
    expect(Number(n.n)).toBe(25);
  }

  it('after the identity provider lost the accounts, makes them again with the uids the database has', async () => {
    for (const uid of first.values()) await t.services.identity.deleteUser(uid);
    await seedDemo(deps(), accounts);
    await expectSameUsers();
  });

  it('after an account was made again under a new uid, gives it back the database\'s uid', async () => {
    await t.services.identity.deleteUser(first.get(client.email) as string);
    const remade = await signUp(emulatorHost(), client.email, client.password);
    expect(remade.localId).not.toBe(first.get(client.email));
    await seedDemo(deps(), accounts);
    await expectSameUsers();
  });

  it('changes nothing on a second run', async () => {
    await seedDemo(deps(), accounts);
    await expectSameUsers();
  });

  it('gives the demo staff and admin the documented authenticator secret, and leaves one an account chose alone', async () => {
    const secretOf = async (kind: DemoAccount['kind']) => {
      const account = accounts.find((a) => a.kind === kind) as DemoAccount;
      const rows = await t.services.db.select({ secret: totpFactors.secret }).from(totpFactors).where(eq(totpFactors.uid, first.get(account.email) as string));
      return rows[0]?.secret ?? null;
    };
    expect([await secretOf('staff'), await secretOf('admin'), await secretOf('client')]).toEqual([DEMO_TOTP_SECRETS.staff, DEMO_TOTP_SECRETS.admin, null]);
    const admin = accounts.find((a) => a.kind === 'admin') as DemoAccount;
    await t.services.db.update(totpFactors).set({ secret: 'OWNSECRETOWNSECRETOWNSECRETOWNSE' }).where(eq(totpFactors.uid, first.get(admin.email) as string));
    await seedDemo(deps(), accounts);
    expect(await secretOf('admin')).toBe('OWNSECRETOWNSECRETOWNSECRETOWNSE');
  });
});
