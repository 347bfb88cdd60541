import { createHash, randomUUID } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RequestStatus, requestStatuses } from '../../domain/enums.ts';
import { findTransition, nextStatuses } from '../../domain/lifecycle.ts';
import type { StaffClient, StaffDeal, StaffRequest } from '../../domain/staff.ts';
import { auditLog, deals, files, notifications, productRequests, users } from '../db/schema.ts';
import { minimalPdf } from '../seed/seed-data.ts';
import { backends, createTestApp, defined, postgresSkipReason, type TestApp, type TestUser, verifySecondFactor } from '../test-helper.ts';
import { centsFromDollars } from '../../domain/money.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[staff-actions.test] PostgreSQL run skipped: ${skip}`);

type RequestRow = typeof productRequests.$inferSelect;
type Json = Record<string, unknown>;

const PDF = minimalPdf('Final report', ['Findings']);
const NOT_A_DOCUMENT = Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe, 0x00, 0x13]);

describe.each(backends())('staff write API (%s)', (backend) => {
  let t: TestApp;
  let staff: TestUser;
  let admin: TestUser;
  let client: TestUser;
  let lead: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    [staff, admin, client, lead] = await Promise.all([t.user({ staff: true }), t.user({ admin: true }), t.user({ client: true }), t.user()]);
  });
  afterAll(async () => {
    await t?.close();
  });

  // ---- fixtures and calls ----

  /** A Bank Dispute request of `client`, inserted directly: much faster than going through the routes. */
  async function makeRequest(values: Partial<typeof productRequests.$inferInsert> = {}): Promise<RequestRow> {
    const [row] = await t.services.db
      .insert(productRequests)
      .values({ userId: client.uid, toolId: 'bank-dispute', productRequestType: 'BANK_DISPUTE', ...values })
      .returning();
    return row;
  }

  /** A request in `status` with what that status implies: a price once priced, a final file once In Progress or Done. */
  /** The request's reference as the client reads it in a notification: BD-0042. */
  const refOf = (row: RequestRow) => `BD-${String(row.refNo).padStart(4, '0')}`;

  async function requestIn(status: RequestStatus, values: Partial<typeof productRequests.$inferInsert> = {}): Promise<RequestRow> {
    const priced = status === 'Waiting for actions' || status === 'In Progress' || status === 'Done';
    const row = await makeRequest({ status, totalCents: priced ? centsFromDollars(1600) : null, ...values });
    if (status !== 'In Progress' && status !== 'Done') return row;
    return attachFinalFile(row);
  }

  async function attachFinalFile(row: RequestRow): Promise<RequestRow> {
    const [file] = await t.services.db
      .insert(files)
      .values({ userId: row.userId, kind: 'final', requestId: row.id, originalName: 'report.pdf', storedName: `${randomUUID()}.pdf`, contentType: 'application/pdf', size: 1, sha256: 'x' })
      .returning();
    const [updated] = await t.services.db.update(productRequests).set({ finalFileId: file.id }).where(eq(productRequests.id, row.id)).returning();
    return updated;
  }

  const send = (method: 'POST' | 'PUT', user: TestUser | null, url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, headers: { ...(user?.headers ?? {}), ...headers }, payload: payload as Json });
  const post = (user: TestUser | null, url: string, payload: unknown, headers: Record<string, string> = {}) => send('POST', user, url, payload, headers);

  const transition = (id: string, body: Json, user: TestUser = staff) => post(user, `/api/staff/requests/${id}/transition`, body);
  const contract = (id: string, version: number, user: TestUser = staff) => post(user, `/api/staff/requests/${id}/contract`, { version });
  const pay = (id: string, body: Json, user: TestUser = staff, headers: Record<string, string> = {}) =>
    post(user, `/api/staff/requests/${id}/payments`, { method: 'WIRE', paidAt: '2025-03-04', reference: 'TRX-1', ...body }, headers);
  const approve = (uid: string, version: number, user: TestUser = staff) => post(user, `/api/staff/clients/${uid}/approval`, { version });
  const setRole = (uid: string, body: Json, user: TestUser = admin) => send('PUT', user, `/api/staff/users/${uid}/role`, body);

  /** A real multipart body, as the workspace's FormData sends it. */
  async function uploadFinal(id: string, parts: { file?: { name: string; data: Buffer }; version?: string }, user: TestUser | null = staff) {
    const form = new FormData();
    if (parts.file) form.append('file', new Blob([new Uint8Array(parts.file.data)], { type: 'application/pdf' }), parts.file.name);
    if (parts.version !== undefined) form.append('version', parts.version);
    const res = new Response(form);
    const payload = Buffer.from(await res.arrayBuffer());
    return t.app.inject({
      method: 'POST',
      url: `/api/staff/requests/${id}/final-file`,
      headers: { ...(user?.headers ?? {}), 'content-type': defined(res.headers.get('content-type'), 'a multipart content type') },
      payload,
    });
  }

  const requestRow = async (id: string) => (await t.services.db.select().from(productRequests).where(eq(productRequests.id, id)))[0];
  const userRow = async (uid: string) => (await t.services.db.select().from(users).where(eq(users.uid, uid)))[0];
  const auditOf = (requestId: string) => t.services.db.select().from(auditLog).where(eq(auditLog.requestId, requestId)).orderBy(auditLog.id);
  const auditOfUser = (uid: string) => t.services.db.select().from(auditLog).where(eq(auditLog.subjectUid, uid)).orderBy(auditLog.id);
  const notificationsOf = async (uid: string) => (await t.services.db.select().from(notifications).where(eq(notifications.userId, uid))).map((n) => n.message);
  const dealCount = async (requestId: string) => Number((await t.services.db.select({ n: count() }).from(deals).where(eq(deals.requestId, requestId)))[0].n);
  const errorOf = (res: { json(): unknown }) => (res.json() as { error: { code: string; message: string; details?: Json } }).error;

  // ---- who may call ----

  describe('access', () => {
    const routes = () => {
      const id = randomUUID();
      return [
        { name: 'transition', call: (u: TestUser | null) => post(u, `/api/staff/requests/${id}/transition`, { to: 'In Progress', version: 1 }) },
        { name: 'contract', call: (u: TestUser | null) => post(u, `/api/staff/requests/${id}/contract`, { version: 1 }) },
        { name: 'payments', call: (u: TestUser | null) => post(u, `/api/staff/requests/${id}/payments`, { version: 1, amount: 1, method: 'CARD', paidAt: '2025-01-01' }) },
        { name: 'final-file', call: (u: TestUser | null) => uploadFinal(id, { file: { name: 'r.pdf', data: PDF }, version: '1' }, u) },
        { name: 'approval', call: (u: TestUser | null) => post(u, `/api/staff/clients/${lead.uid}/approval`, { version: 1 }) },
        { name: 'role', call: (u: TestUser | null) => send('PUT', u, `/api/staff/users/${lead.uid}/role`, { version: 1, staff: true }) },
      ];
    };

    it('every route is 401 without a token and 403 for a client and for a lead', async () => {
      for (const route of routes()) {
        const anon = await route.call(null);
        expect(anon.statusCode, route.name).toBe(401);
        expect(errorOf(anon).code).toBe('UNAUTHORIZED');
        for (const user of [client, lead]) {
          const refused = await route.call(user);
          expect(refused.statusCode, `${route.name} as ${user === client ? 'client' : 'lead'}`).toBe(403);
          expect(errorOf(refused).code).toBe('FORBIDDEN');
        }
      }
      // Nothing the refused calls asked for happened.
      expect((await userRow(lead.uid)).isClient).toBe(false);
      expect((await userRow(lead.uid)).isStaff).toBe(false);
    });

    it('the role route is for admins only: staff get 403', async () => {
      const res = await setRole(lead.uid, { version: 1, staff: true }, staff);
      expect(res.statusCode).toBe(403);
      expect((await userRow(lead.uid)).isStaff).toBe(false);
    });

    it('every route is in the OpenAPI document', async () => {
      const doc = (await t.app.inject({ url: '/api/docs' })).json() as { paths: Record<string, Record<string, unknown>> };
      expect(Object.keys(doc.paths['/api/staff/requests/{requestId}/transition'])).toContain('post');
      expect(Object.keys(doc.paths['/api/staff/requests/{requestId}/contract'])).toContain('post');
      expect(Object.keys(doc.paths['/api/staff/requests/{requestId}/payments'])).toContain('post');
      expect(Object.keys(doc.paths['/api/staff/requests/{requestId}/final-file'])).toContain('post');
      expect(Object.keys(doc.paths['/api/staff/clients/{uid}/approval'])).toContain('post');
      expect(Object.keys(doc.paths['/api/staff/users/{uid}/role'])).toContain('put');
    });
  });

  // ---- transitions ----

  describe('POST /staff/requests/:id/transition', () => {
    const pairs = requestStatuses.flatMap((from) => requestStatuses.map((to) => [from, to] as const));

    it.each(pairs)('%s → %s follows the lifecycle table', async (from, to) => {
      const row = await requestIn(from);
      const body: Json = { to, version: row.version };
      if (to === 'Waiting for actions') body.totalAmount = 1600;
      if (to === 'Rejected') body.reason = 'Out of scope';
      const res = await transition(row.id, body);
      if (findTransition(from, to)) {
        expect(res.statusCode, res.body).toBe(200);
        const answer = res.json().data as StaffRequest;
        expect(answer).toMatchObject({ id: row.id, status: to, version: row.version + 1 });
        const audit = await auditOf(row.id);
        expect(audit).toHaveLength(1);
        expect(audit[0]).toMatchObject({ action: from === 'Pending' && to === 'Waiting for actions' ? 'price' : 'transition', actorUid: staff.uid, subjectUid: client.uid });
        expect(audit[0].before).toMatchObject({ status: from });
        expect(audit[0].after).toMatchObject({ status: to });
      } else {
        expect(res.statusCode, res.body).toBe(409);
        const error = errorOf(res);
        expect(error.code).toBe('ILLEGAL_TRANSITION');
        expect(error.message).toContain(`cannot move to ${to}`);
        expect(error.details?.status).toBe(from);
        expect(error.details?.allowed).toEqual(nextStatuses(from));
        expect(Array.isArray(error.details?.allowedActions)).toBe(true);
        expect(await requestRow(row.id)).toMatchObject({ status: from, version: row.version });
        expect(await auditOf(row.id)).toHaveLength(0);
      }
    });

    it('pricing stores the total and the contract flag, and tells the client the price', async () => {
      const row = await requestIn('Pending');
      const res = await transition(row.id, { to: 'Waiting for actions', version: 1, totalAmount: 1600, contractSigned: true });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ status: 'Waiting for actions', totalAmount: 1600, paid: 0, leftToPay: 1600, contractSigned: true, version: 2 });
      const [audit] = await auditOf(row.id);
      expect(audit.before).toEqual({ status: 'Pending', totalAmount: null, contractSigned: false });
      expect(audit.after).toEqual({ status: 'Waiting for actions', totalAmount: 1600, contractSigned: true });
      expect(await notificationsOf(client.uid)).toContain(
        `Your Bank Dispute request ${refOf(row)} has been priced at $1,600.00. You can pay it now; the work can start before full payment.`,
      );
    });

    it('pricing without totalAmount is 400 naming the field, and changes nothing', async () => {
      const row = await requestIn('Pending');
      for (const body of [{ to: 'Waiting for actions', version: 1 }, { to: 'Waiting for actions', version: 1, totalAmount: 0 }, { to: 'Waiting for actions', version: 1, totalAmount: 1.234 }]) {
        const res = await transition(row.id, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(errorOf(res).code).toBe('VALIDATION_FAILED');
        expect(errorOf(res).message).toContain('totalAmount');
      }
      expect(await requestRow(row.id)).toMatchObject({ status: 'Pending', version: 1, totalCents: null });
      expect(await auditOf(row.id)).toHaveLength(0);
    });

    it('rejecting needs a reason, which the client reads', async () => {
      const row = await requestIn('Waiting for actions');
      for (const body of [{ to: 'Rejected', version: 1 }, { to: 'Rejected', version: 1, reason: '   ' }, { to: 'Rejected', version: 1, reason: 'a\u0000b' }]) {
        const res = await transition(row.id, body);
        expect(res.statusCode).toBe(400);
        expect(errorOf(res).message).toContain('reason');
      }
      const res = await transition(row.id, { to: 'Rejected', version: 1, reason: ' We cannot act in your country. ' });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ status: 'Rejected', rejectionReason: 'We cannot act in your country.' });
      expect(await notificationsOf(client.uid)).toContain(`Your Bank Dispute request ${refOf(row)} was rejected: We cannot act in your country.`);
    });

    it('Done needs a final file: 409 FINAL_FILE_REQUIRED without one', async () => {
      const row = await makeRequest({ status: 'In Progress', totalCents: centsFromDollars(1600) });
      const res = await transition(row.id, { to: 'Done', version: 1 });
      expect(res.statusCode).toBe(409);
      expect(errorOf(res).code).toBe('FINAL_FILE_REQUIRED');
      expect(errorOf(res).details).toMatchObject({ status: 'In Progress', allowed: nextStatuses('In Progress') });
      expect(errorOf(res).details?.allowedActions).not.toContain('complete');
      await attachFinalFile(row);
      const done = await transition(row.id, { to: 'Done', version: 1 });
      expect(done.statusCode).toBe(200);
      expect(await notificationsOf(client.uid)).toContain(`Your Bank Dispute request ${refOf(row)} is Done. The final report can be downloaded once it is paid in full.`);
    });

    it('Done on a fully paid request tells the client the report is ready', async () => {
      const row = await requestIn('In Progress', { paidCents: centsFromDollars(1600) });
      expect((await transition(row.id, { to: 'Done', version: 1 })).statusCode).toBe(200);
      expect(await notificationsOf(client.uid)).toContain(`Your Bank Dispute request ${refOf(row)} is Done. The final report is ready to download.`);
    });

    it('starting the work tells the client', async () => {
      const row = await requestIn('Waiting for actions');
      expect((await transition(row.id, { to: 'In Progress', version: 1 })).statusCode).toBe(200);
      expect(await notificationsOf(client.uid)).toContain(`Work has started on your Bank Dispute request ${refOf(row)}.`);
    });

    it('a stale version is 409 VERSION_CONFLICT with the request as it is now, and writes nothing', async () => {
      const row = await requestIn('Waiting for actions', { version: 3 });
      const res = await transition(row.id, { to: 'In Progress', version: 2 });
      expect(res.statusCode).toBe(409);
      const error = errorOf(res);
      expect(error.code).toBe('VERSION_CONFLICT');
      expect(error.message).toMatch(/Someone else changed this request/);
      expect((error.details?.current as StaffRequest).version).toBe(3);
      expect((error.details?.current as StaffRequest).status).toBe('Waiting for actions');
      expect(await auditOf(row.id)).toHaveLength(0);
    });

    it('a move made from an old version is a conflict, even when the status has moved on: it says what is allowed now', async () => {
      const row = await requestIn('Done', { version: 5 });
      const res = await transition(row.id, { to: 'Pending', version: 1 });
      expect(res.statusCode).toBe(409);
      expect(errorOf(res).code).toBe('VERSION_CONFLICT');
      expect(errorOf(res).details).toMatchObject({ current: { version: 5, status: 'Done' }, status: 'Done', allowed: [] });
      const fresh = await transition(row.id, { to: 'Pending', version: 5 });
      expect(errorOf(fresh).code).toBe('ILLEGAL_TRANSITION');
      expect(errorOf(fresh).message).toBe('A request that is Done cannot move to Pending. Allowed: none.');
    });

    it('two staff acting on the same request at once: one wins, the other gets VERSION_CONFLICT', async () => {
      const row = await requestIn('Waiting for actions');
      // Either may win; the other stays legal in the winner's status, so only the version stops it.
      const answers = await Promise.all([transition(row.id, { to: 'In Progress', version: 1 }), contract(row.id, 1)]);
      const codes = answers.map((r) => r.statusCode).sort();
      expect(codes[0]).toBe(200);
      expect(codes[1]).toBe(409);
      expect(answers.map((r) => (r.statusCode === 409 ? errorOf(r).code : 'ok')).sort()).toEqual(['VERSION_CONFLICT', 'ok'].sort());
      expect(await auditOf(row.id)).toHaveLength(1);
      expect((await requestRow(row.id)).version).toBe(2);
    });

    it('an unknown or malformed id is 404; bad bodies are 400', async () => {
      expect((await transition(randomUUID(), { to: 'In Progress', version: 1 })).statusCode).toBe(404);
      expect((await transition('not-a-uuid', { to: 'In Progress', version: 1 })).statusCode).toBe(404);
      const row = await requestIn('Waiting for actions');
      for (const body of [{ to: 'Somewhere', version: 1 }, { to: 'In Progress' }, { to: 'In Progress', version: 0 }, { to: 'In Progress', version: 1, extra: true }]) {
        const res = await transition(row.id, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(errorOf(res).message.length).toBeGreaterThan(0);
      }
    });
  });

  // ---- contract ----

  describe('POST /staff/requests/:id/contract', () => {
    it('marks the contract signed once, bumps the version and audits it', async () => {
      const row = await requestIn('Waiting for actions');
      const res = await contract(row.id, 1);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ contractSigned: true, version: 2 });
      const again = await contract(row.id, 2);
      expect(again.statusCode).toBe(409);
      expect(errorOf(again).code).toBe('ACTION_NOT_ALLOWED');
      expect(errorOf(again).details).toMatchObject({ status: 'Waiting for actions', allowed: nextStatuses('Waiting for actions') });
      const audit = await auditOf(row.id);
      expect(audit.map((a) => a.action)).toEqual(['contract']);
      expect(audit[0].after).toEqual({ contractSigned: true });
    });

    it('is refused on Pending and Rejected, and on a stale version', async () => {
      for (const status of ['Pending', 'Rejected'] as const) {
        const res = await contract((await requestIn(status)).id, 1);
        expect(res.statusCode, status).toBe(409);
        expect(errorOf(res).code).toBe('ACTION_NOT_ALLOWED');
        expect(errorOf(res).details?.status).toBe(status);
      }
      const stale = await contract((await requestIn('In Progress', { version: 2 })).id, 1);
      expect(errorOf(stale).code).toBe('VERSION_CONFLICT');
    });
  });

  // ---- payments ----

  describe('POST /staff/requests/:id/payments', () => {
    it('refuses amounts that are not more than zero, or have more than two decimals, naming amount', async () => {
      const row = await requestIn('Waiting for actions');
      // 0.1 + 0.2 arrives as 0.30000000000000004: not two decimals, though within a millionth of a cent of them.
      for (const amount of [0, -5, 1.005, 'ten', 0.1 + 0.2]) {
        const res = await pay(row.id, { version: 1, amount });
        expect(res.statusCode, String(amount)).toBe(400);
        expect(errorOf(res).code).toBe('VALIDATION_FAILED');
        expect(errorOf(res).message).toContain('amount');
      }
      for (const body of [{ paidAt: '2025-02-30' }, { paidAt: '2025-13-01' }, { paidAt: 'yesterday' }, { method: 'CHEQUE' }, { reference: 'a\u0000b' }]) {
        const res = await pay(row.id, { version: 1, amount: 10, ...body });
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
      }
      expect(await dealCount(row.id)).toBe(0);
    });

    it('refuses more than what is left to pay, naming amount and both sums', async () => {
      const row = await requestIn('Waiting for actions', { paidCents: centsFromDollars(0) });
      const res = await pay(row.id, { version: 1, amount: 1600.01 });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toMatchObject({ code: 'VALIDATION_FAILED', message: 'amount: $1,600.01 is more than the $1,600.00 left to pay' });
      expect(await dealCount(row.id)).toBe(0);
      expect(await auditOf(row.id)).toHaveLength(0);
    });

    it('is 409 on a request without a price (Pending) and on a Rejected one', async () => {
      for (const status of ['Pending', 'Rejected'] as const) {
        const row = await requestIn(status, status === 'Rejected' ? { totalCents: centsFromDollars(500) } : {});
        const res = await pay(row.id, { version: 1, amount: 10 });
        expect(res.statusCode, status).toBe(409);
        expect(errorOf(res).code).toBe('ACTION_NOT_ALLOWED');
        expect(errorOf(res).details).toMatchObject({ status, allowed: nextStatuses(status) });
        expect(await dealCount(row.id)).toBe(0);
      }
    });

    it('adds up cents exactly, up to the total, then refuses a fourth payment', async () => {
      const row = await requestIn('Waiting for actions', { totalCents: centsFromDollars(0.6) });
      let version = row.version;
      const expected = [
        { amount: 0.1, paid: 0.1, leftToPay: 0.5 },
        { amount: 0.2, paid: 0.3, leftToPay: 0.3 },
        { amount: 0.3, paid: 0.6, leftToPay: 0 },
      ];
      for (const step of expected) {
        const res = await pay(row.id, { version, amount: step.amount });
        expect(res.statusCode, res.body).toBe(201);
        const { request, deal } = res.json().data as { request: StaffRequest; deal: StaffDeal };
        expect(request).toMatchObject({ paid: step.paid, leftToPay: step.leftToPay, version: version + 1 });
        expect(deal).toMatchObject({ requestId: row.id, amount: step.amount, method: 'WIRE', reference: 'TRX-1', paidAt: '2025-03-04' });
        version = request.version;
      }
      const fourth = await pay(row.id, { version, amount: 0.01 });
      expect(fourth.statusCode).toBe(409);
      expect(errorOf(fourth)).toMatchObject({ code: 'ACTION_NOT_ALLOWED', message: 'Nothing is left to pay on this request.' });
      expect(await dealCount(row.id)).toBe(3);
      expect((await requestRow(row.id)).paidCents).toBe(60);
      const audit = await auditOf(row.id);
      expect(audit.map((a) => a.action)).toEqual(['payment', 'payment', 'payment']);
      expect(audit[2].before).toEqual({ paid: 0.3, leftToPay: 0.3 });
      expect(audit[2].after).toMatchObject({ paid: 0.6, leftToPay: 0 });
      expect(await notificationsOf(client.uid)).toContain(
        `We received your payment of $0.30 for your Bank Dispute request ${refOf(row)}. Invoice ` + (audit[2].after as { invoiceNumber: string }).invoiceNumber +
          ' is in Settings → Billings. It is now paid in full.',
      );
    });

    it('records a deal with an invoice number and a real PDF invoice the client can download', async () => {
      const row = await requestIn('In Progress', { paidCents: centsFromDollars(0) });
      const res = await pay(row.id, { version: 1, amount: 400, method: 'CRYPTO', reference: 'Tx ✓ 0xabc' });
      expect(res.statusCode, res.body).toBe(201);
      const { deal, request } = res.json().data as { request: StaffRequest; deal: StaffDeal };
      expect(deal.invoiceNumber).toMatch(/^INV-\d{4,}$/);
      expect(request.leftToPay).toBe(1200);

      const [stored] = await t.services.db.select().from(deals).where(eq(deals.id, deal.id));
      expect(stored).toMatchObject({ userId: client.uid, recordedBy: staff.uid, invoiceNumber: deal.invoiceNumber, productRequestType: 'BANK_DISPUTE' });
      const [file] = await t.services.db.select().from(files).where(eq(files.id, defined(stored.invoiceUrl, 'an invoice file')));
      expect(file).toMatchObject({ kind: 'invoice', userId: client.uid, requestId: row.id, originalName: `${deal.invoiceNumber}.pdf`, contentType: 'application/pdf' });
      const bytes = await t.services.storage.read(file.storedName);
      expect(bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(file.sha256);
      const pdf = await PDFDocument.load(bytes);
      expect(pdf.getPageCount()).toBe(1);
      expect(pdf.getTitle()).toBe(`Invoice ${deal.invoiceNumber}`);

      // The client's Billings lists it, and its link downloads the same bytes.
      const billing = await t.app.inject({ url: '/api/user/billing', headers: client.headers });
      const line = defined((billing.json().data as { id: string; invoice: string }[]).find((b) => b.id === deal.id), 'the billing line');
      const download = await t.app.inject({ url: line.invoice });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(bytes)).toBe(true);

      expect(await notificationsOf(client.uid)).toContain(`We received your payment of $400.00 for your Bank Dispute request ${refOf(row)}. Invoice ${deal.invoiceNumber} is in Settings → Billings.`);
    });

    it('invoice numbers are unique and increasing', async () => {
      const row = await requestIn('Waiting for actions');
      const first = (await pay(row.id, { version: 1, amount: 1 })).json().data.deal as StaffDeal;
      const second = (await pay(row.id, { version: 2, amount: 1 })).json().data.deal as StaffDeal;
      const n = (d: StaffDeal) => Number(defined(d.invoiceNumber, 'an invoice number').slice(4));
      expect(n(second)).toBeGreaterThan(n(first));
    });

    it('the final file of a request paid in full through payments can be downloaded by the client', async () => {
      const row = await requestIn('Done');
      const blocked = await t.app.inject({ url: `/api/bank-dispute/${row.id}/file`, headers: client.headers });
      expect(blocked.statusCode).toBe(403);
      expect((await pay(row.id, { version: 1, amount: 1600 })).statusCode).toBe(201);
      const open = await t.app.inject({ url: `/api/bank-dispute/${row.id}/file`, headers: client.headers });
      expect(open.statusCode).toBe(200);
    });

    it('a stale version is 409 and records nothing', async () => {
      const row = await requestIn('Waiting for actions', { version: 4 });
      const res = await pay(row.id, { version: 3, amount: 10 });
      expect(errorOf(res).code).toBe('VERSION_CONFLICT');
      expect((errorOf(res).details?.current as StaffRequest).version).toBe(4);
      expect(await dealCount(row.id)).toBe(0);
    });

    it('20 parallel retries with one Idempotency-Key record exactly one deal', async () => {
      const row = await requestIn('Waiting for actions');
      const headers = { 'idempotency-key': `pay-${randomUUID()}` };
      const answers = await Promise.all(Array.from({ length: 20 }, () => pay(row.id, { version: 1, amount: 100 }, staff, headers)));
      expect(await dealCount(row.id)).toBe(1);
      const [deal] = await t.services.db.select().from(deals).where(eq(deals.requestId, row.id));
      for (const res of answers) {
        if (res.statusCode === 201) expect(res.json().data.deal.id).toBe(deal.id);
        else expect(errorOf(res).code, res.body).toBe('IDEMPOTENCY_IN_PROGRESS');
      }
      expect(answers.filter((r) => r.statusCode === 201).length).toBeGreaterThanOrEqual(1);
      const replay = await pay(row.id, { version: 1, amount: 100 }, staff, headers);
      expect(replay.statusCode).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(await dealCount(row.id)).toBe(1);
      expect((await requestRow(row.id)).paidCents).toBe(10000);
    });

    it('parallel payments without a key on one request: one records, the others meet the new version', async () => {
      const row = await requestIn('Waiting for actions');
      const answers = await Promise.all(Array.from({ length: 5 }, () => pay(row.id, { version: 1, amount: 100 })));
      expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(1);
      expect(answers.filter((r) => r.statusCode === 409).every((r) => errorOf(r).code === 'VERSION_CONFLICT')).toBe(true);
      expect(await dealCount(row.id)).toBe(1);
    });
  });

  // ---- final file ----

  describe('POST /staff/requests/:id/final-file', () => {
    it('stores the file with its sha256, and a replacement keeps the old row; the audit shows both', async () => {
      const row = await makeRequest({ status: 'In Progress', totalCents: centsFromDollars(900) });
      const first = await uploadFinal(row.id, { file: { name: 'report v1.pdf', data: PDF }, version: '1' });
      expect(first.statusCode, first.body).toBe(201);
      const afterFirst = first.json().data as StaffRequest;
      expect(afterFirst.version).toBe(2);
      const [file1] = await t.services.db.select().from(files).where(eq(files.id, defined(afterFirst.finalFileId, 'a final file')));
      expect(file1).toMatchObject({ kind: 'final', userId: client.uid, requestId: row.id, field: null, originalName: 'report v1.pdf', contentType: 'application/pdf' });
      expect(file1.sha256).toBe(createHash('sha256').update(PDF).digest('hex'));

      const v2 = minimalPdf('Final report', ['Findings, corrected']);
      const second = await uploadFinal(row.id, { file: { name: 'report v2.pdf', data: v2 }, version: '2' });
      expect(second.statusCode, second.body).toBe(201);
      const afterSecond = second.json().data as StaffRequest;
      expect(afterSecond.finalFileId).not.toBe(file1.id);
      const finals = await t.services.db.select().from(files).where(and(eq(files.requestId, row.id), eq(files.kind, 'final')));
      expect(finals.map((f) => f.id).sort()).toEqual([file1.id, afterSecond.finalFileId].sort());

      const audit = await auditOf(row.id);
      expect(audit.map((a) => a.action)).toEqual(['deliver', 'deliver']);
      expect(audit[0].before).toEqual({ finalFileId: null, sha256: null, name: null });
      expect(audit[1].before).toEqual({ finalFileId: file1.id, sha256: file1.sha256, name: 'report v1.pdf' });
      expect(audit[1].after).toEqual({ finalFileId: afterSecond.finalFileId, sha256: createHash('sha256').update(v2).digest('hex'), name: 'report v2.pdf' });

      // And now the request can be completed.
      expect((await transition(row.id, { to: 'Done', version: 3 })).statusCode).toBe(200);
    });

    it('refuses a file type that is not accepted with 415, storing nothing', async () => {
      const row = await requestIn('In Progress');
      const before = await t.services.db.select({ n: count() }).from(files).where(eq(files.requestId, row.id));
      const res = await uploadFinal(row.id, { file: { name: 'report.pdf', data: NOT_A_DOCUMENT }, version: '1' });
      expect(res.statusCode).toBe(415);
      expect(errorOf(res).code).toBe('UNSUPPORTED_FILE_TYPE');
      const after = await t.services.db.select({ n: count() }).from(files).where(eq(files.requestId, row.id));
      expect(after[0].n).toBe(before[0].n);
      expect((await requestRow(row.id)).version).toBe(1);
    });

    it('is 400 without the file or the version, 409 before work started and on a stale version', async () => {
      const row = await requestIn('In Progress');
      const noFile = await uploadFinal(row.id, { version: '1' });
      expect(noFile.statusCode).toBe(400);
      expect(errorOf(noFile).message).toContain('file');
      const noVersion = await uploadFinal(row.id, { file: { name: 'r.pdf', data: PDF } });
      expect(noVersion.statusCode).toBe(400);
      expect(errorOf(noVersion).message).toContain('version');
      const stale = await uploadFinal(row.id, { file: { name: 'r.pdf', data: PDF }, version: '7' });
      expect(errorOf(stale).code).toBe('VERSION_CONFLICT');
      const waiting = await requestIn('Waiting for actions');
      const early = await uploadFinal(waiting.id, { file: { name: 'r.pdf', data: PDF }, version: '1' });
      expect(early.statusCode).toBe(409);
      expect(errorOf(early)).toMatchObject({ code: 'ACTION_NOT_ALLOWED', details: { status: 'Waiting for actions' } });
    });
  });

  // ---- approval ----

  describe('POST /staff/clients/:uid/approval', () => {
    it('approves a lead, tells them, and a second approval is 409', async () => {
      const someone = await t.user();
      const res = await approve(someone.uid, 1);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data as StaffClient).toMatchObject({ uid: someone.uid, isClient: true, version: 2 });
      expect(await userRow(someone.uid)).toMatchObject({ isClient: true, version: 2 });
      expect(await notificationsOf(someone.uid)).toEqual(['Your account has been approved. You can now order our services.']);
      const audit = await auditOfUser(someone.uid);
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ action: 'approve', entityType: 'user', entityId: someone.uid, actorUid: staff.uid });

      const again = await approve(someone.uid, 2);
      expect(again.statusCode).toBe(409);
      expect(errorOf(again).code).toBe('ALREADY_APPROVED');
      expect(await auditOfUser(someone.uid)).toHaveLength(1);
      // Their own app sees it on the next read.
      expect((await t.app.inject({ url: '/api/user', headers: someone.headers })).json().data.isClient).toBe(true);
    });

    it('is 404 for an unknown user and 409 on a stale version', async () => {
      expect((await approve('no-such-user', 1)).statusCode).toBe(404);
      expect((await approve('bad%00uid', 1)).statusCode).toBe(400);
      const someone = await t.user();
      await t.services.db.update(users).set({ version: 3 }).where(eq(users.uid, someone.uid));
      const res = await approve(someone.uid, 2);
      expect(errorOf(res).code).toBe('VERSION_CONFLICT');
      expect((errorOf(res).details?.current as StaffClient).version).toBe(3);
      expect((await userRow(someone.uid)).isClient).toBe(false);
    });
  });

  // ---- roles ----

  describe('PUT /staff/users/:uid/role', () => {
    it('a granted role works on the next request with the same token; a revoked one stops the next', async () => {
      const someone = await t.user();
      const staffCall = () => transition(randomUUID(), { to: 'In Progress', version: 1 }, someone);
      expect((await staffCall()).statusCode).toBe(403);

      const granted = await setRole(someone.uid, { version: 1, staff: true });
      expect(granted.statusCode, granted.body).toBe(200);
      expect(granted.json().data).toMatchObject({ isStaff: true, version: 2 });
      // The role applies at once: the new staff member is asked for the second factor every staff session needs.
      expect(errorOf(await staffCall()).code).toBe('SECOND_FACTOR_REQUIRED');
      await verifySecondFactor(t.services, someone.uid);
      expect((await staffCall()).statusCode).toBe(404);

      const revoked = await setRole(someone.uid, { version: 2, staff: false });
      expect(revoked.statusCode).toBe(200);
      expect(revoked.json().data).toMatchObject({ isStaff: false, version: 3 });
      expect((await staffCall()).statusCode).toBe(403);

      const audit = await auditOfUser(someone.uid);
      expect(audit.map((a) => [a.action, a.before, a.after])).toEqual([
        ['role', { isStaff: false }, { isStaff: true }],
        ['role', { isStaff: true }, { isStaff: false }],
      ]);
    });

    it('an admin cannot revoke themselves; a stale version is 409; an unknown user 404', async () => {
      const self = await setRole(admin.uid, { version: (await userRow(admin.uid)).version, staff: false });
      expect(self.statusCode).toBe(409);
      expect(errorOf(self).code).toBe('CANNOT_REVOKE_SELF');
      const someone = await t.user();
      expect(errorOf(await setRole(someone.uid, { version: 9, staff: true })).code).toBe('VERSION_CONFLICT');
      expect((await setRole('no-such-user', { version: 1, staff: true })).statusCode).toBe(404);
      expect((await setRole(someone.uid, { version: 1 })).statusCode).toBe(400);
    });
  });

  // ---- the audit history ----

  describe('audit_log', () => {
    it('refuses UPDATE and DELETE, whoever asks', async () => {
      const row = await requestIn('Waiting for actions');
      expect((await contract(row.id, 1)).statusCode).toBe(200);
      const [entry] = await auditOf(row.id);
      await expect(t.services.db.execute(sql`UPDATE audit_log SET action = 'forged' WHERE id = ${entry.id}`)).rejects.toThrow();
      await expect(t.services.db.execute(sql`DELETE FROM audit_log WHERE id = ${entry.id}`)).rejects.toThrow();
      const [still] = await auditOf(row.id);
      expect(still.action).toBe('contract');
    });
  });
});
