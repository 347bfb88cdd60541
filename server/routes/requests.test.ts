import { randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductRequest } from '../../domain/schemas.ts';
import { texts } from '../../domain/texts.ts';
import { findTool, tools } from '../../domain/tools.ts';
import { deals, files, productRequests, refunds, users, visits } from '../db/schema.ts';
import { seedClientData } from '../seed/seed-data.ts';
import { demoAccounts, seedDemo } from '../seed/seed.ts';
import { createSignedLinks } from '../files/signed-links.ts';
import { isUniqueViolation } from '../services/refunds.ts';
import { SyncPage } from '../../domain/sync.ts';
import { backends, createTestApp, defined, postgresSkipReason, type TestApp, type TestUser } from '../test-helper.ts';
import { centsFromDollars, dollarsFromCents } from '../../domain/money.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[requests.test] PostgreSQL run skipped: ${skip}`);

interface Group {
  productRequestType: string;
  requests: ProductRequest[];
  deals: { id: string; requestId: string; invoice: string | null; amount: number }[];
}

describe('requests, refunds, final files, live details and billing', () => {
  let t: TestApp;
  let a: TestUser;
  let b: TestUser;
  let groups: Group[];

  const get = (url: string, user: TestUser | null = a) => t.app.inject({ method: 'GET', url, headers: user ? user.headers : {} });
  const refund = (user: TestUser, refundRequest: Record<string, string>, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/refund', payload: { refundRequest }, headers: { ...user.headers, ...headers } });
  /** Client A's seeded request of a tool in a status. */
  const seeded = (toolId: string, status: string) => {
    const tool = defined(findTool(toolId), `the tool ${toolId}`);
    const group = defined(groups.find((g) => g.productRequestType === tool.ToolNameBackend), `the ${toolId} group`);
    return defined(group.requests.find((r) => r.status === status), `a ${status} ${toolId} request`);
  };

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.user({ client: true });
    b = await t.user({ client: true });
    await seedClientData(t.services.db, a.uid, t.services.storage);
    const res = await get('/api/user/product-requests');
    expect(res.statusCode, res.body).toBe(200);
    groups = res.json().data;
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('the seeded demo data', () => {
    it('has every tool in every status, in catalogue order', () => {
      expect(groups.map((g) => g.productRequestType)).toEqual(tools.map((x) => x.ToolNameBackend));
      for (const group of groups) {
        expect(group.requests.map((r) => r.status).sort()).toEqual(['Done', 'In Progress', 'Pending', 'Rejected', 'Waiting for actions']);
        for (const r of group.requests) {
          expect(r.productRequestType).toBe(group.productRequestType);
          expect(Object.keys(r.requestDetails).every((k) => k.startsWith(`${group.productRequestType}_`))).toBe(true);
          expect(r.leftToPay).toBe(r.totalAmount === null ? null : Math.max(0, r.totalAmount - r.paid));
        }
      }
    });

    it('has partial and full payments, with a deal and an invoice link per payment', () => {
      const all = groups.flatMap((g) => g.requests);
      expect(all.some((r) => r.totalAmount !== null && r.paid > 0 && r.paid < r.totalAmount)).toBe(true);
      expect(all.some((r) => r.totalAmount !== null && r.paid === r.totalAmount)).toBe(true);
      for (const group of groups) {
        for (const r of group.requests) {
          const paidByDeals = group.deals.filter((d) => d.requestId === r.id).reduce((s, d) => s + d.amount, 0);
          expect(paidByDeals).toBe(r.paid);
        }
        for (const d of group.deals) expect(d.invoice).toMatch(/^\/api\/download\//);
      }
    });

    it('spreads the dates over the last months', () => {
      const times = groups.flatMap((g) => g.requests.map((r) => Date.parse(r.Created_Time)));
      const spanDays = (Math.max(...times) - Math.min(...times)) / 86_400_000;
      expect(spanDays).toBeGreaterThan(90);
      expect(Math.max(...times)).toBeLessThanOrEqual(Date.now());
    });

    it('has Track Master visits with and without coordinates on a paid and an unpaid request', async () => {
      const paid = seeded('track-master', 'Done');
      const unpaid = seeded('track-master', 'In Progress');
      expect(paid.leftToPay).toBe(0);
      expect(unpaid.leftToPay).toBeGreaterThan(0);
      for (const r of [paid, unpaid]) {
        const rows = await t.services.db.select().from(visits).where(eq(visits.requestId, r.id));
        expect(rows.length).toBeGreaterThan(0);
      }
      // Recorded through the capture code: located from the shipped data, one WhatsApp preview apart,
      // the Tor exit and the M247 address flagged vpn.
      const rows = await t.services.db.select().from(visits).where(eq(visits.requestId, paid.id));
      const details = rows.map((v) => v.ipDetails as Record<string, unknown>);
      expect(details.every((d) => typeof d.latitude === 'number' && typeof d.longitude === 'number')).toBe(true);
      expect(rows.filter((v) => v.preview !== null).map((v) => v.preview)).toEqual(['WhatsApp']);
      expect(rows.filter((v) => v.vpn).map((v) => v.ip).sort()).toEqual(['185.220.101.34', '91.132.139.88']);
      expect(rows.find((v) => v.ip === '41.203.72.5')).toMatchObject({ country: 'Nigeria', browser: 'Mobile Safari 18', os: 'iOS 18.1', device: 'mobile', brand: 'Apple' });
    });
  });

  it('seedDemo seeds the demo client once, in one transaction with its profile', async () => {
    const deps = { db: t.services.db, identity: t.services.identity, storage: t.services.storage };
    await seedDemo(deps);
    await seedDemo(deps);
    const client = defined(demoAccounts.find((x) => x.email === 'client@demo.test'), 'the demo client');
    const [row] = await t.services.db.select().from(users).where(eq(users.email, client.email));
    expect(row.isClient).toBe(true);
    const [n] = await t.services.db.select({ n: count() }).from(productRequests).where(eq(productRequests.userId, row.uid));
    expect(Number(n.n)).toBe(25);
    const [finals] = await t.services.db.select({ n: count() }).from(files).where(and(eq(files.userId, row.uid), eq(files.kind, 'final')));
    expect(Number(finals.n)).toBe(5);
  });

  describe('lists and counts', () => {
    it('counts the statuses', async () => {
      const res = await get('/api/user/product-requests-status-count');
      expect(res.json()).toEqual({ data: { done: 5, inProgress: 5, pending: 5, waitingForActions: 5 } });
      expect((await get('/api/user/product-requests-status-count', b)).json().data).toEqual({ done: 0, inProgress: 0, pending: 0, waitingForActions: 0 });
    });

    it('lists one tool\'s requests, newest first, and nothing of another user', async () => {
      const res = await get('/api/tools/bank-dispute/requests');
      expect(res.statusCode).toBe(200);
      const list: ProductRequest[] = res.json().data;
      expect(list).toHaveLength(5);
      expect(list.every((r) => r.productRequestType === 'BANK_DISPUTE')).toBe(true);
      const times = list.map((r) => Date.parse(r.Created_Time));
      expect(times).toEqual([...times].sort((x, y) => y - x));
      expect((await get('/api/tools/bank-dispute/requests', b)).json().data).toEqual([]);
      expect((await get('/api/tools/no-such-tool/requests')).statusCode).toBe(404);
    });

    it('lists requests made at the same instant in one order, the latest change first, in both lists', async () => {
      const c = await t.user({ client: true });
      await seedClientData(t.services.db, c.uid, t.services.storage);
      await t.services.db.update(productRequests).set({ createdAt: '2026-03-01T10:00:00.000Z' }).where(eq(productRequests.userId, c.uid));
      const bySeq = (await t.services.db.select({ id: productRequests.id, seq: productRequests.seq, type: productRequests.productRequestType }).from(productRequests).where(eq(productRequests.userId, c.uid)))
        .sort((x, y) => y.seq - x.seq);
      const grouped: Group[] = (await get('/api/user/product-requests', c)).json().data;
      for (const group of grouped) expect(group.requests.map((r) => r.id)).toEqual(bySeq.filter((r) => r.type === group.productRequestType).map((r) => r.id));
      const oneTool: ProductRequest[] = (await get('/api/tools/bank-dispute/requests', c)).json().data;
      expect(oneTool.map((r) => r.id)).toEqual(bySeq.filter((r) => r.type === 'BANK_DISPUTE').map((r) => r.id));
    });

    it('gives one request\'s details, with the visit count for Track Master', async () => {
      const tm = seeded('track-master', 'Done');
      const res = await get(`/api/tools/track-master/requests/${tm.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ id: tm.id, productRequestType: 'TRACK_MASTER', requestDetails: tm.requestDetails, visits: 6 });
      const bd = seeded('bank-dispute', 'Pending');
      const other = (await get(`/api/tools/bank-dispute/requests/${bd.id}`)).json().data;
      expect(other).toEqual({ id: bd.id, productRequestType: 'BANK_DISPUTE', requestDetails: bd.requestDetails });
      // The right id under the wrong tool is not found either.
      expect((await get(`/api/tools/web-intelligence/requests/${bd.id}`)).statusCode).toBe(404);
    });

    it('lists billing rows with the tool, its name, the date and an invoice link that downloads a PDF', async () => {
      const res = await get('/api/user/billing');
      const rows = res.json().data as { id: string; tool: string; toolName: string; date: string; invoice: string }[];
      const dealCount = groups.reduce((s, g) => s + g.deals.length, 0);
      expect(rows).toHaveLength(dealCount);
      expect(rows[0]).toEqual({ id: expect.any(String), tool: expect.any(String), toolName: expect.any(String), date: expect.any(String), invoice: expect.stringMatching(/^\/api\/download\//) });
      expect(rows.find((r) => r.tool === 'TRACK_MASTER')?.toolName).toBe('Track Master');
      const pdf = await t.app.inject({ url: rows[0].invoice });
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      expect((await get('/api/user/billing', b)).json().data).toEqual([]);
    });

    it('needs a token', async () => {
      for (const url of ['/api/user/product-requests', '/api/user/product-requests-status-count', '/api/tools/track-master/requests', '/api/user/billing']) {
        expect((await get(url, null)).statusCode).toBe(401);
      }
    });
  });

  describe('another user\'s objects are 404, never their data', () => {
    it('request details, live details, file and refund', async () => {
      const tm = seeded('track-master', 'Done');
      const responses = [
        await get(`/api/tools/track-master/requests/${tm.id}`, b),
        await get(`/api/tools/track-master/requests/${tm.id}/live-details`, b),
        await get(`/api/track-master/${tm.id}/file`, b),
        await refund(b, { tool: 'TRACK_MASTER', processId: tm.id, refundRequestType: 'FULL', reason: 'Not mine' }),
      ];
      for (const res of responses) {
        expect(res.statusCode).toBe(404);
        expect(res.body).not.toContain(tm.id);
        expect(res.json().error.code).toBe('NOT_FOUND');
      }
      // The owner gets all of them.
      expect((await get(`/api/tools/track-master/requests/${tm.id}`)).statusCode).toBe(200);
      expect((await get(`/api/tools/track-master/requests/${tm.id}/live-details`)).statusCode).toBe(200);
      expect((await get(`/api/track-master/${tm.id}/file`)).statusCode).toBe(200);
    });

    it('a malformed id is 404 too', async () => {
      expect((await get('/api/tools/track-master/requests/not-a-uuid')).statusCode).toBe(404);
      expect((await get('/api/track-master/1%27%20or%201=1/file')).statusCode).toBe(404);
    });
  });

  describe('live details', () => {
    it('before payment in full: only a placeholder count, at least 3', async () => {
      const unpaid = seeded('track-master', 'In Progress');
      const res = await get(`/api/tools/track-master/requests/${unpaid.id}/live-details`);
      expect(res.json()).toEqual({ data: { id: unpaid.id, data: 4 } });
      const noVisits = seeded('track-master', 'Pending');
      expect((await get(`/api/tools/track-master/requests/${noVisits.id}/live-details`)).json().data.data).toBe(3);
    });

    it('after payment in full: the visits with their IP details', async () => {
      const paid = seeded('track-master', 'Done');
      const { data } = (await get(`/api/tools/track-master/requests/${paid.id}/live-details`)).json();
      expect(data.id).toBe(paid.id);
      // Six people's visits and one WhatsApp preview, which the client shows apart.
      expect(data.data).toHaveLength(7);
      expect(data.data.filter((v: { preview: string | null }) => v.preview !== null)).toHaveLength(1);
      expect(data.data[0]).toMatchObject({ productRequestId: paid.id, userId: a.uid, ip: expect.any(String), vpn: expect.any(Boolean), new: expect.any(Boolean), archive: false });
      expect(data.data.some((v: { ipDetails: { latitude: unknown } }) => typeof v.ipDetails.latitude === 'number')).toBe(true);
    });

    it('exists for Track Master only', async () => {
      const wi = seeded('web-intelligence', 'Done');
      expect((await get(`/api/tools/web-intelligence/requests/${wi.id}/live-details`)).statusCode).toBe(404);
    });
  });

  describe('final file', () => {
    it('is refused while not fully paid, then downloads once paid', async () => {
      const bd = seeded('bank-dispute', 'Done');
      expect(bd.leftToPay).toBeGreaterThan(0);
      const refused = await get(`/api/bank-dispute/${bd.id}/file`);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: { code: 'NOT_FULLY_PAID', message: 'This product request has not fully paid.' } });
      expect(texts.notFullyPaid).toBe('This product request has not fully paid.');

      await t.services.db.update(productRequests).set({ paidCents: centsFromDollars(defined(bd.totalAmount, 'a total')) }).where(eq(productRequests.id, bd.id));
      const res = await get(`/api/bank-dispute/${bd.id}/file`);
      expect(res.statusCode).toBe(200);
      const link: string = res.json().data;
      expect(link).toMatch(/^\/api\/download\/[^/]+$/);

      const download = await t.app.inject({ url: link });
      expect(download.statusCode).toBe(200);
      const [row] = await t.services.db.select({ finalFileId: productRequests.finalFileId }).from(productRequests).where(eq(productRequests.id, bd.id));
      const [file] = await t.services.db.select().from(files).where(eq(files.id, defined(row.finalFileId, 'a final file')));
      expect(download.rawPayload.equals(await t.services.storage.read(file.storedName))).toBe(true);
      expect(download.headers['content-type']).toBe('application/pdf');
      expect(download.headers['content-disposition']).toBe(`attachment; filename="Bank Dispute final report.pdf"; filename*=UTF-8''Bank%20Dispute%20final%20report.pdf`);
      expect(download.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    });

    it('is refused while no total is set', async () => {
      const pending = seeded('web-intelligence', 'Pending');
      const res = await get(`/api/web-intelligence/${pending.id}/file`);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('NOT_FULLY_PAID');
    });

    it('is 404 when paid but not ready yet', async () => {
      const ed = seeded('exchange-dispute', 'In Progress');
      expect(ed.leftToPay).toBe(0);
      const res = await get(`/api/exchange-dispute/${ed.id}/file`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe('The final file is not ready yet.');
    });

    it('is 404 for an unknown tool id', async () => {
      const tm = seeded('track-master', 'Done');
      expect((await get(`/api/no-such-tool/${tm.id}/file`)).statusCode).toBe(404);
    });

    it('refuses a tampered or expired link', async () => {
      const tm = seeded('track-master', 'Done');
      const link: string = (await get(`/api/track-master/${tm.id}/file`)).json().data;
      const token = defined(link.split('/').pop(), 'a token');
      const fileId = token.split('.')[0];
      const otherFile = (await t.services.db.select().from(files).where(and(eq(files.userId, a.uid), eq(files.kind, 'invoice'))))[0];
      const swapped = `/api/download/${otherFile.id}.${token.split('.').slice(1).join('.')}`;
      expect((await t.app.inject({ url: swapped })).statusCode).toBe(403);
      const forged = createSignedLinks('some-other-secret-of-16+').link(fileId);
      expect((await t.app.inject({ url: forged })).json().error.code).toBe('INVALID_LINK');
      const expired = createSignedLinks(t.services.config.downloadSecret, { now: () => Date.now() - 16 * 60 * 1000 }).link(fileId);
      const res = await t.app.inject({ url: expired });
      expect(res.statusCode).toBe(410);
      expect(res.json().error.code).toBe('LINK_EXPIRED');
      expect((await t.app.inject({ url: '/api/download/garbage' })).statusCode).toBe(403);
      // Correctly signed, but the id is not a UUID: no such file, never a failed uuid query (500).
      const notUuid = createSignedLinks(t.services.config.downloadSecret).link('-'.repeat(36));
      const missing = await t.app.inject({ url: notUuid });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.code).toBe('NOT_FOUND');
    });
  });

  describe('refunds', () => {
    it('are accepted for In Progress and Done requests with 201', async () => {
      const before = await t.services.db.select({ n: count() }).from(refunds);
      const inProgress = seeded('blockchain-analysis', 'In Progress');
      const res = await refund(a, { tool: 'BLOCKCHAIN_ANALYSIS', processId: inProgress.id, refundRequestType: 'PARTIAL', reason: 'The analysis stopped at the first exchange.' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toEqual({
        id: expect.any(String),
        tool: 'BLOCKCHAIN_ANALYSIS',
        processId: inProgress.id,
        refundRequestType: 'PARTIAL',
        reason: 'The analysis stopped at the first exchange.',
        createdAt: expect.any(String),
        status: 'requested',
        amount: null,
        note: null,
        decidedAt: null,
      });
      const done = seeded('web-intelligence', 'Done');
      expect((await refund(a, { tool: 'WEB_INTELLIGENCE', processId: done.id, refundRequestType: 'FULL', reason: 'No useful findings.' })).statusCode).toBe(201);
      const after = await t.services.db.select({ n: count() }).from(refunds);
      expect(Number(after[0].n)).toBe(Number(before[0].n) + 2);
    });

    it('are refused with 409 for other statuses', async () => {
      for (const status of ['Pending', 'Waiting for actions', 'Rejected']) {
        const r = seeded('track-master', status);
        const res = await refund(a, { tool: 'TRACK_MASTER', processId: r.id, refundRequestType: 'FULL', reason: 'Changed my mind' });
        expect(res.statusCode).toBe(409);
        expect(res.json().error).toEqual({ code: 'NOT_REFUNDABLE', message: `Only requests that are In Progress or Done can be refunded; this request is ${status}.` });
      }
    });

    it('are 404 for the wrong tool, an unknown id, or someone else\'s request', async () => {
      const r = seeded('bank-dispute', 'In Progress');
      expect((await refund(a, { tool: 'EXCHANGE_DISPUTE', processId: r.id, refundRequestType: 'FULL', reason: 'x' })).statusCode).toBe(404);
      expect((await refund(a, { tool: 'BANK_DISPUTE', processId: '00000000-0000-4000-8000-000000000000', refundRequestType: 'FULL', reason: 'x' })).statusCode).toBe(404);
      expect((await refund(b, { tool: 'BANK_DISPUTE', processId: r.id, refundRequestType: 'FULL', reason: 'x' })).statusCode).toBe(404);
    });

    it('validate the body, naming the field', async () => {
      const r = seeded('bank-dispute', 'In Progress');
      const missing = await refund(a, { tool: 'BANK_DISPUTE', processId: r.id, refundRequestType: 'FULL' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.message).toContain('reason');
      const badType = await refund(a, { tool: 'BANK_DISPUTE', processId: r.id, refundRequestType: 'HALF', reason: 'x' });
      expect(badType.statusCode).toBe(400);
      expect(badType.json().error.message).toContain('refundRequestType');
    });

    it('store one refund for the same Idempotency-Key sent twice', async () => {
      const r = seeded('exchange-dispute', 'In Progress');
      const body = { tool: 'EXCHANGE_DISPUTE', processId: r.id, refundRequestType: 'FULL', reason: 'Sent twice by a flaky network' };
      const headers = { 'idempotency-key': `refund-${Date.now()}` };
      const first = await refund(a, body, headers);
      const second = await refund(a, body, headers);
      expect(first.statusCode).toBe(201);
      expect(second.statusCode).toBe(201);
      expect(second.json()).toEqual(first.json());
      const rows = await t.services.db.select().from(refunds).where(eq(refunds.requestId, r.id));
      expect(rows).toHaveLength(1);
    });
  });

  it('the grouped list carries the deals of each group with a fresh invoice link', async () => {
    const [dealRow] = await t.services.db.select().from(deals).where(eq(deals.userId, a.uid)).limit(1);
    const group = (await get('/api/user/product-requests')).json().data.find((g: Group) => g.productRequestType === dealRow.productRequestType);
    const deal = group.deals.find((d: { id: string }) => d.id === dealRow.id);
    expect(deal).toMatchObject({ requestId: dealRow.requestId, amount: dollarsFromCents(dealRow.amountCents), Created_Time: new Date(dealRow.createdAt).toISOString() });
    const res = await t.app.inject({ url: deal.invoice });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="INV-\d+\.pdf"/);
  });
});

describe.each(backends())('refund decisions as the client sees them (%s)', (backend) => {
  let t: TestApp;
  let a: TestUser;
  let b: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    [a, b] = await Promise.all([t.user({ client: true }), t.user({ client: true })]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (url: string, user: TestUser) => t.app.inject({ method: 'GET', url, headers: user.headers });
  const ask = (user: TestUser, processId: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/refund',
      headers: { ...user.headers, ...headers },
      payload: { refundRequest: { tool: 'BANK_DISPUTE', processId, refundRequestType: 'FULL', reason: 'The bank said no.' } },
    });
  const refundableRequest = async (user: TestUser) => {
    const [row] = await t.services.db
      .insert(productRequests)
      .values({ userId: user.uid, toolId: 'bank-dispute', productRequestType: 'BANK_DISPUTE', status: 'In Progress', totalCents: centsFromDollars(500), paidCents: centsFromDollars(200) })
      .returning();
    return row.id;
  };
  const refundRows = (requestId: string) => t.services.db.select().from(refunds).where(eq(refunds.requestId, requestId));
  const PENDING = {
    code: 'REFUND_PENDING',
    message: 'A refund for this request is already waiting for a decision. We will notify you when it is decided.',
  };

  it('a second refund while one waits for a decision is 409 REFUND_PENDING, and nothing is stored', async () => {
    const id = await refundableRequest(a);
    expect((await ask(a, id)).statusCode).toBe(201);
    const second = await ask(a, id);
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toEqual(PENDING);
    expect(await refundRows(id)).toHaveLength(1);
  });

  it('refunds sent at the same moment store one; the others are REFUND_PENDING', async () => {
    const id = await refundableRequest(a);
    // Different keys, so each is a new command: those that pass the check together meet the unique index.
    const answers = await Promise.all(Array.from({ length: 6 }, () => ask(a, id, { 'idempotency-key': `race-${randomUUID()}` })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const res of answers.filter((r) => r.statusCode === 409)) expect(res.json().error).toEqual(PENDING);
    expect(await refundRows(id)).toHaveLength(1);
  });

  it('the unique index refunds_one_undecided is recognised behind drizzle\'s wrapper, on this driver', async () => {
    const id = await refundableRequest(a);
    const values = { userId: a.uid, requestId: id, tool: 'BANK_DISPUTE', refundRequestType: 'FULL', reason: 'direct' };
    await t.services.db.insert(refunds).values(values);
    const err = await t.services.db.insert(refunds).values(values).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).not.toBeNull();
    expect(isUniqueViolation(err, 'refunds_one_undecided')).toBe(true);
    expect(isUniqueViolation(err, 'some_other_index')).toBe(false);
    expect(isUniqueViolation(new Error('not a database error'), 'refunds_one_undecided')).toBe(false);
  });

  it('once the refund is decided, a new one is accepted', async () => {
    const id = await refundableRequest(a);
    const first = await ask(a, id);
    await t.services.db
      .update(refunds)
      .set({ status: 'declined', decisionNote: 'Outside the refund window.', decidedAt: new Date().toISOString(), decidedBy: b.uid })
      .where(eq(refunds.id, first.json().data.id));
    const second = await ask(a, id);
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().data).toMatchObject({ status: 'requested', amount: null, note: null, decidedAt: null });
    await t.services.db.update(refunds).set({ status: 'approved', decidedCents: centsFromDollars(150), decidedAt: new Date().toISOString() }).where(eq(refunds.id, second.json().data.id));
    expect((await ask(a, id)).statusCode).toBe(201);
    expect(await refundRows(id)).toHaveLength(3);
  });

  it('GET /api/refund lists the caller\'s refunds newest first with their decisions; GET /api/refund/:id gives one', async () => {
    const u = await t.user({ client: true });
    const [r1, r2] = [await refundableRequest(u), await refundableRequest(u)];
    const older = (await ask(u, r1)).json().data;
    const newer = (await ask(u, r2)).json().data;
    const decidedAt = new Date().toISOString();
    await t.services.db
      .update(refunds)
      .set({ status: 'approved', decidedCents: centsFromDollars(120.5), decisionNote: 'Refunded to your card.', decidedAt, decidedBy: b.uid })
      .where(eq(refunds.id, older.id));

    const list = await get('/api/refund', u);
    expect(list.statusCode).toBe(200);
    const approved = { ...older, status: 'approved', amount: 120.5, note: 'Refunded to your card.', decidedAt };
    expect(list.json().data).toEqual([newer, approved]);
    // Which staff member decided is not the client's to see.
    expect(list.body).not.toContain(b.uid);

    const one = await get(`/api/refund/${older.id}`, u);
    expect(one.statusCode).toBe(200);
    expect(one.json().data).toEqual(approved);
    expect((await get('/api/refund', b)).json().data).toEqual([]);
  });

  it('another user\'s refund, an unknown id and a malformed one are 404', async () => {
    const id = await refundableRequest(a);
    const mine = (await ask(a, id)).json().data;
    for (const refundId of [mine.id, randomUUID(), 'not-a-uuid']) {
      const res = await get(`/api/refund/${refundId}`, b);
      expect(res.statusCode, refundId).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
      expect(res.body).not.toContain(id);
    }
    expect((await t.app.inject({ url: '/api/refund' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: `/api/refund/${mine.id}` })).statusCode).toBe(401);
  });

  it('the sync feed carries the decision when it is made', async () => {
    const u = await t.user({ client: true });
    const id = await refundableRequest(u);
    const refund = (await ask(u, id)).json().data;
    const before = SyncPage.parse((await get('/api/sync', u)).json().data);
    expect(before.refunds.find((r) => r.id === refund.id)).toMatchObject({ status: 'requested', amount: null, note: null, decidedAt: null });
    await t.services.db
      .update(refunds)
      .set({ status: 'declined', decisionNote: 'Work was delivered.', decidedAt: new Date().toISOString(), decidedBy: b.uid })
      .where(eq(refunds.id, refund.id));
    const after = SyncPage.parse((await get(`/api/sync?cursor=${before.cursor}`, u)).json().data);
    expect(after.refunds).toEqual([{ ...refund, status: 'declined', amount: null, note: 'Work was delivered.', decidedAt: expect.any(String) }]);
  });

  it('an unknown field is 400 naming it', async () => {
    const id = await refundableRequest(a);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/refund',
      headers: a.headers,
      payload: { refundRequest: { tool: 'BANK_DISPUTE', processId: id, refundRequestType: 'FULL', reason: 'x', status: 'approved' } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain('status');
    expect(await refundRows(id)).toHaveLength(0);
  });
});
