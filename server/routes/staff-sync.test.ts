import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffSyncPage } from '../../domain/staff.ts';
import { notifications, productRequests, staffNotes, staffWatches } from '../db/schema.ts';
import { backends, createTestApp, postgresSkipReason, type TestApp, type TestUser } from '../test-helper.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[staff-sync.test] PostgreSQL run skipped: ${skip}`);

describe.each(backends())('GET /api/staff/sync (%s)', (backend) => {
  let t: TestApp;
  let staffA: TestUser;
  let staffB: TestUser;
  let x: TestUser;
  let y: TestUser;
  let lead: TestUser;
  /** Staff A's cursor after its last pull, carried from test to test like the replica does. */
  let cursorA = '0';

  beforeAll(async () => {
    t = await createTestApp({ backend });
    [staffA, staffB, x, y, lead] = await Promise.all([t.user({ staff: true }), t.user({ staff: true }), t.user({ client: true }), t.user({ client: true }), t.user()]);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function pull(user: TestUser, cursor = '0', limit?: number): Promise<StaffSyncPage> {
    const query = new URLSearchParams({ cursor, ...(limit ? { limit: String(limit) } : {}) });
    const res = await t.app.inject({ method: 'GET', url: `/api/staff/sync?${query}`, headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return res.json().data as StaffSyncPage;
  }

  /** Staff A pulls from its cursor and moves it on. */
  async function pullA(): Promise<StaffSyncPage> {
    const page = await pull(staffA, cursorA);
    cursorA = page.cursor;
    return page;
  }

  /** Opens a staff page, as the workspace does: that records the watch. */
  async function open(user: TestUser, url: string) {
    const res = await t.app.inject({ method: 'GET', url, headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
  }

  async function makeRequest(userId: string) {
    const [row] = await t.services.db.insert(productRequests).values({ userId, toolId: 'bank-dispute', productRequestType: 'BANK_DISPUTE' }).returning();
    return row;
  }

  const clientUids = (page: StaffSyncPage) => page.clients.map((c) => c.client.uid);
  const requestIds = (page: StaffSyncPage) => page.requests.map((r) => r.request.id);

  it('is for staff only', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/staff/sync' })).statusCode).toBe(401);
    for (const user of [x, lead]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/staff/sync', headers: user.headers });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
    }
  });

  it('refuses a cursor that is not a number and a limit out of range', async () => {
    for (const query of ['cursor=abc', 'cursor=-1', 'limit=0', 'limit=101', 'other=1']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/staff/sync?${query}`, headers: staffA.headers });
      expect(res.statusCode, query).toBe(400);
    }
  });

  it('sends nothing but counts to a staff member who opened nothing', async () => {
    const page = await pull(staffA);
    expect(page).toMatchObject({ cursor: '0', hasMore: false, clients: [], requests: [], keep: { clients: [], requests: [] } });
    expect(page.counts).toMatchObject({ leads: expect.any(Number), pending: expect.any(Number) });
  });

  it("sends the file of a client page the staff member opened, and only to them", async () => {
    await open(staffA, `/api/staff/clients/${x.uid}`);
    const page = await pullA();
    expect(clientUids(page)).toEqual([x.uid]);
    expect(page.clients[0].client.email).toBe(x.email);
    expect(page.keep).toEqual({ clients: [x.uid], requests: [] });
    expect(page.hasMore).toBe(false);
    expect(BigInt(page.cursor)).toBeGreaterThan(0n);

    const other = await pull(staffB);
    expect(other.clients).toEqual([]);
    expect(other.keep).toEqual({ clients: [], requests: [] });
  });

  it('sends nothing after the cursor when nothing changed', async () => {
    const before = cursorA;
    const page = await pullA();
    expect(page).toMatchObject({ cursor: before, hasMore: false, clients: [], requests: [] });
    expect(page.keep.clients).toEqual([x.uid]);
  });

  it('sends the client again when their data changes', async () => {
    await t.services.db.insert(notifications).values({ userId: x.uid, message: 'Your report is ready' });
    const afterNotification = await pullA();
    expect(clientUids(afterNotification)).toEqual([x.uid]);
    expect(afterNotification.clients[0].notifications.map((n) => n.message)).toContain('Your report is ready');

    const res = await t.app.inject({ method: 'POST', url: '/api/contact', headers: x.headers, payload: { contactRequest: { subject: 'Any news?', message: 'Hello' } } });
    expect(res.statusCode, res.body).toBe(201);
    expect(clientUids(await pullA())).toEqual([x.uid]);
    expect((await pullA()).clients).toEqual([]);
  });

  it('sends the client again after an internal note on them', async () => {
    await t.services.db.insert(staffNotes).values({ subjectUid: x.uid, authorUid: staffB.uid, authorEmail: staffB.email, body: 'Called, no answer' });
    expect(clientUids(await pullA())).toEqual([x.uid]);
  });

  it("ignores changes of clients the staff member did not open, and general notifications", async () => {
    await t.services.db.insert(notifications).values([{ userId: y.uid, message: 'For Y' }, { userId: null, message: 'Maintenance on Sunday' }]);
    await makeRequest(y.uid);
    const page = await pullA();
    expect(page.clients).toEqual([]);
    expect(page.requests).toEqual([]);
  });

  it('sends the file of a request page the staff member opened, with the client file', async () => {
    const request = await makeRequest(x.uid);
    await open(staffA, `/api/staff/requests/${request.id}`);
    const page = await pullA();
    expect(clientUids(page)).toEqual([x.uid]);
    expect(requestIds(page)).toEqual([request.id]);
    expect(page.requests[0].client.uid).toBe(x.uid);
    expect(page.keep).toEqual({ clients: [x.uid], requests: [request.id] });
    expect((await pull(staffB)).requests).toEqual([]);
  });

  it("sends a request page alone when its client's page was not opened", async () => {
    const request = await makeRequest(y.uid);
    await open(staffB, `/api/staff/requests/${request.id}`);
    const page = await pull(staffB);
    expect(page.clients).toEqual([]);
    expect(requestIds(page)).toEqual([request.id]);
    expect(page.keep).toEqual({ clients: [], requests: [request.id] });
  });

  it('forgets pages opened more than 30 days ago', async () => {
    const stale = await t.user({ client: true });
    await open(staffA, `/api/staff/clients/${stale.uid}`);
    expect(clientUids(await pull(staffA))).toContain(stale.uid);

    await t.services.db
      .update(staffWatches)
      .set({ openedAt: sql`now() - interval '31 days'` })
      .where(and(eq(staffWatches.staffUid, staffA.uid), eq(staffWatches.entityId, stale.uid)));
    await t.services.db.insert(notifications).values({ userId: stale.uid, message: 'Changed after it was forgotten' });
    const fromStart = await pull(staffA);
    expect(clientUids(fromStart)).not.toContain(stale.uid);
    expect(fromStart.keep.clients).not.toContain(stale.uid);
    expect(fromStart.keep.clients).toContain(x.uid);
  });

  it('pages by client, oldest change first, none lost or repeated', async () => {
    const [pager, ...clients] = await Promise.all([t.user({ staff: true }), t.user({ client: true }), t.user({ client: true }), t.user({ client: true })]);
    for (const c of clients) await open(pager, `/api/staff/clients/${c.uid}`);

    const first = await pull(pager, '0', 2);
    expect(first.hasMore).toBe(true);
    expect(clientUids(first)).toEqual(clients.slice(0, 2).map((c) => c.uid));
    const second = await pull(pager, first.cursor, 2);
    expect(second.hasMore).toBe(false);
    expect(clientUids(second)).toEqual([clients[2].uid]);
    expect((await pull(pager, second.cursor, 2)).clients).toEqual([]);

    // A change to the first client moves it after the others: it comes next, on its own.
    await t.services.db.insert(notifications).values({ userId: clients[0].uid, message: 'Moved up' });
    expect(clientUids(await pull(pager, second.cursor, 2))).toEqual([clients[0].uid]);
  });
});
