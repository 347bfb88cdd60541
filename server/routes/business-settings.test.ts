import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncPage } from '../../domain/sync.ts';
import { auditLog } from '../db/schema.ts';
import { backends, createTestApp, postgresSkipReason, type TestApp, type TestUser } from '../test-helper.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[business-settings.test] PostgreSQL run skipped: ${skip}`);

const fields = {
  accountHolder: 'Test Recovery Ltd',
  bankName: 'Example Bank',
  accountNumber: 'GB33 BUKB 2020 1555 5555 55',
  bic: 'BUKBGB22',
  paymentNote: 'Quote the reference.',
  officialEmails: ['Support@Portal.example'],
  officialDomains: ['portal.example'],
  officialPhones: ['+44 20 7946 0321'],
};

describe.each(backends())('business settings (%s)', (backend) => {
  let t: TestApp;
  let admin: TestUser;
  let staff: TestUser;
  let client: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    [admin, staff, client] = await Promise.all([t.user({ admin: true }), t.user({ staff: true }), t.user({ client: true })]);
  });
  afterAll(() => t?.close());

  const get = (user: TestUser) => t.app.inject({ method: 'GET', url: '/api/staff/business-settings', headers: user.headers });
  const put = (user: TestUser, payload: unknown, key?: string) =>
    t.app.inject({ method: 'PUT', url: '/api/staff/business-settings', headers: { ...user.headers, ...(key ? { 'idempotency-key': key } : {}) }, payload: payload as object });

  async function feed(user: TestUser, cursor = '0') {
    const res = await t.app.inject({ method: 'GET', url: `/api/sync?cursor=${cursor}`, headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
    return SyncPage.parse(res.json().data);
  }

  /** Resolves on the next poke a client's stream would hear. */
  function nextPoke(uid: string): Promise<void> {
    return new Promise((resolve, reject) => {
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
  }

  it('starts with none, refuses writes to non-admins and bad bodies, then saves, audits, versions and feeds every user', async () => {
    const none = await get(staff);
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json().data).toBeNull();
    expect((await feed(client)).businessSettings).toEqual([]);

    // Clients may not read or write the staff route; staff may read but not write.
    expect((await get(client)).statusCode).toBe(403);
    expect((await put(client, { ...fields, version: null })).statusCode).toBe(403);
    expect((await put(staff, { ...fields, version: null })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/staff/business-settings' })).statusCode).toBe(401);

    const bad = await put(admin, { ...fields, officialDomains: ['https://portal.example/login'], version: null });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/official web domain "https:\/\/portal.example\/login" must be a domain/);
    const missing = await put(admin, { ...fields, accountHolder: '', version: null });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toMatch(/accountHolder is required/);

    const before = await feed(client);
    const poked = nextPoke(client.uid);
    const saved = await put(admin, { ...fields, version: null }, 'settings-1');
    expect(saved.statusCode, saved.body).toBe(200);
    await poked;
    const first = saved.json().data.settings;
    expect(first).toMatchObject({ id: 'business', version: 1, accountHolder: 'Test Recovery Ltd', officialEmails: ['support@portal.example'], paymentDetailsChangedAt: null });
    // The first settings are saved as they are: no client was ever told where to pay.
    expect(saved.json().data.proposal).toBeNull();

    // The same key again: the stored answer, not a second write.
    const replay = await put(admin, { ...fields, version: null }, 'settings-1');
    expect(replay.statusCode).toBe(200);
    expect(replay.json().data.settings.version).toBe(1);

    // Every user's feed carries the row once it moved above their cursor: a client and the staff member alike.
    expect((await feed(client, before.cursor)).businessSettings).toEqual([first]);
    expect((await feed(staff)).businessSettings).toEqual([first]);
    expect((await get(staff)).json().data).toEqual(first);

    // Not the payment details (a change of those waits for a second admin: payment-details.test.ts).
    const second = await put(admin, { ...fields, paymentNote: 'Other note', version: 1 });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data.settings).toMatchObject({ version: 2, paymentNote: 'Other note' });

    // An edit made from version 1 now is stale: 409 with the current row.
    const stale = await put(admin, { ...fields, paymentNote: 'Late note', version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatchObject({ code: 'VERSION_CONFLICT' });
    expect(stale.json().error.details.current).toMatchObject({ version: 2, paymentNote: 'Other note' });
    // A first-save form (version null) after someone saved is stale too.
    expect((await put(admin, { ...fields, version: null })).statusCode).toBe(409);

    const audit = await t.services.db.select().from(auditLog).where(eq(auditLog.entityType, 'business-settings')).orderBy(auditLog.id);
    expect(audit.map((a) => [a.action, a.actorUid])).toEqual([
      ['business-settings', admin.uid],
      ['business-settings', admin.uid],
    ]);
    expect(audit[0].before).toBeNull();
    expect(audit[1].before).toMatchObject({ paymentNote: 'Quote the reference.' });
    expect(audit[1].after).toMatchObject({ paymentNote: 'Other note' });

    const latest = await feed(client, (await feed(client, before.cursor)).cursor);
    expect(latest.businessSettings).toEqual([]);
    expect((await feed(client)).businessSettings).toEqual([expect.objectContaining({ version: 2, paymentNote: 'Other note' })]);
  });
});
