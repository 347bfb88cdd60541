// GET /api/staff/clients/:uid/export through the API as the app calls it: the real Auth emulator, PGlite and PostgreSQL.
import { randomUUID } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientExport } from '../../domain/client-export.ts';
import { tools } from '../../domain/tools.ts';
import { auditLog, idempotencyKeys, notifications, productRequests, recoveryCodes, refunds, sessions } from '../db/schema.ts';
import { backends, createTestApp, defined, postgresSkipReason, type TestApp, type TestUser, uploadText, verifySecondFactor } from '../test-helper.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[client-export.test] PostgreSQL run skipped: ${skip}`);

const TOOL = tools[0];

describe.each(backends())('client data export (%s)', (backend) => {
  let t: TestApp;
  let admin: TestUser;
  let staff: TestUser;
  let ana: TestUser;
  let ben: TestUser;
  /** Each client's request, by client uid. */
  const requestOf = new Map<string, string>();

  const call = (user: TestUser, method: 'GET' | 'POST', url: string, payload?: object, key?: string) =>
    t.app.inject({ method, url, headers: { ...user.headers, ...(key ? { 'idempotency-key': key } : {}) }, ...(payload ? { payload } : {}) });
  const exportOf = (uid: string, user: TestUser = staff) => call(user, 'GET', `/api/staff/clients/${uid}/export`);
  const errorOf = (res: { json(): unknown }) => (res.json() as { error: { code: string; message: string } }).error;
  const exportsAudited = async (uid: string) =>
    Number((await t.services.db.select({ n: count() }).from(auditLog).where(and(eq(auditLog.action, 'client-data-exported'), eq(auditLog.entityId, uid))))[0].n);
  const verifiedAgo = (uid: string, seconds: number) =>
    t.services.db.update(sessions).set({ secondFactorAt: sql`now() - make_interval(secs => ${seconds})` }).where(eq(sessions.uid, uid));

  /** What a client has on file, every text marked with `word`: a priced and part-paid request, a refund, a thread, a file, a note. */
  async function fileFor(client: TestUser, word: string) {
    const [request] = await t.services.db
      .insert(productRequests)
      .values({ userId: client.uid, toolId: TOOL.id, productRequestType: TOOL.ToolNameBackend, requestDetails: { story: `${word}-story` } })
      .returning({ id: productRequests.id });
    requestOf.set(client.uid, request.id);
    const priced = await call(staff, 'POST', `/api/staff/requests/${request.id}/transition`, { to: 'Waiting for actions', version: 1, totalAmount: 200 });
    expect(priced.statusCode, priced.body).toBe(200);
    const paid = await call(staff, 'POST', `/api/staff/requests/${request.id}/payments`, { version: 2, amount: 50, method: 'WIRE', paidAt: '2026-01-02', reference: `${word}-reference` }, `pay-${word}-${randomUUID()}`);
    expect(paid.statusCode, paid.body).toBe(201);
    await t.services.db.insert(refunds).values({ userId: client.uid, requestId: request.id, tool: TOOL.ToolNameBackend, refundRequestType: 'PARTIAL', reason: `${word}-refund-reason` });
    const thread = await call(client, 'POST', '/api/contact', { contactRequest: { subject: `${word} subject`, message: `${word}-message` } }, `contact-${word}-${randomUUID()}`);
    expect(thread.statusCode, thread.body).toBe(201);
    const threadId = (thread.json() as { data: { id: string } }).data.id;
    const reply = await call(staff, 'POST', `/api/staff/threads/${threadId}/replies`, { reply: { message: `${word}-support-reply` } }, `reply-${word}-${randomUUID()}`);
    expect(reply.statusCode, reply.body).toBe(201);
    await t.services.db.insert(notifications).values({ userId: client.uid, message: `${word}-notice` });
    expect((await uploadText(t, client, `upload-${word}-${randomUUID()}`, `${word} evidence`)).statusCode).toBe(201);
    const note = await call(staff, 'POST', '/api/staff/notes', { clientUid: client.uid, body: `${word}-internal-note` }, `note-${word}-${randomUUID()}`);
    expect(note.statusCode, note.body).toBe(201);
  }

  beforeAll(async () => {
    t = await createTestApp({ backend });
    [admin, staff, ana, ben] = await Promise.all([t.user({ admin: true }), t.user({ staff: true }), t.user({ client: true }), t.user({ client: true })]);
    await fileFor(ana, 'Ana');
    await fileFor(ben, 'Ben');
  });
  afterAll(() => t?.close());

  it('wants the second factor within 5 minutes: refused at 6 (403 STEP_UP_REQUIRED), allowed at 4', async () => {
    await verifiedAgo(staff.uid, 6 * 60);
    const refused = await exportOf(ana.uid);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(errorOf(refused).code).toBe('STEP_UP_REQUIRED');
    await verifiedAgo(staff.uid, 4 * 60);
    expect((await exportOf(ana.uid)).statusCode).toBe(200);
    await verifySecondFactor(t.services, staff.uid);
    // Admins are staff.
    expect((await exportOf(ana.uid, admin)).statusCode).toBe(200);
  });

  it('refuses clients, their own data too; answers 404 for an unknown user and 400 for a bad uid', async () => {
    for (const uid of [ana.uid, ben.uid]) {
      const res = await exportOf(uid, ana);
      expect(res.statusCode).toBe(403);
      expect(errorOf(res).code).toBe('FORBIDDEN');
    }
    const unknown = await exportOf('no-such-user');
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown).message).toBe('Client no-such-user not found');
    for (const bad of ['x'.repeat(129), 'a%00b']) {
      const res = await exportOf(bad);
      expect(res.statusCode, res.body).toBe(400);
      expect(errorOf(res).message).toMatch(/uid/);
    }
  });

  it("downloads the client's own data, none of another client's, nor staff's internal notes", async () => {
    const res = await exportOf(ana.uid);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="client-${ana.uid}-export-\\d{4}-\\d{2}-\\d{2}\\.json"`));
    expect(res.headers['cache-control']).toBe('no-store');
    const doc = ClientExport.parse(res.json());
    expect(doc.client).toMatchObject({ uid: ana.uid, email: ana.email, isClient: true, disabled: false });
    expect(doc.requests).toHaveLength(1);
    const [request] = doc.requests;
    expect(request).toMatchObject({ id: requestOf.get(ana.uid), totalAmount: 200, paid: 50, requestDetails: { story: 'Ana-story' } });
    expect(request.statusHistory.map((s) => s.status)).toEqual(['Pending', 'Waiting for actions']);
    expect(request.payments).toMatchObject([{ amount: 50, method: 'WIRE', reference: 'Ana-reference', paidAt: '2026-01-02' }]);
    expect(request.payments[0].invoiceNumber).toMatch(/^INV-/);
    expect(request.refunds).toMatchObject([{ reason: 'Ana-refund-reason', status: 'requested' }]);
    expect(doc.threads).toMatchObject([{ subject: 'Ana subject', message: 'Ana-message', replies: [{ author: 'staff', message: 'Ana-support-reply' }] }]);
    expect(doc.notifications.map((n) => n.message)).toContain('Ana-notice');
    // File details, the invoice PDF among them, never the bytes.
    expect(doc.files.map((f) => f.kind).sort()).toEqual(['general', 'invoice']);
    expect(doc.files.find((f) => f.kind === 'general')).toMatchObject({ name: 'evidence.txt', size: 'Ana evidence'.length, contentType: expect.stringMatching(/^text\/plain/) });
    expect(doc.sessions.length).toBeGreaterThan(0);
    expect(doc.sessions[0]).toEqual({ browser: expect.any(String), os: expect.any(String), place: null, firstSeenAt: expect.any(String), lastSeenAt: expect.any(String), endedAt: null });

    for (const theirs of ['Ben', ben.uid, ben.email, defined(requestOf.get(ben.uid), "ben's request")]) expect(res.body).not.toContain(theirs);
    expect(res.body).not.toContain('Ana-internal-note');
    expect(res.body).not.toContain('Ana evidence');
  });

  it('holds no secret: no TOTP secret, recovery code or hash, signed link, token or Idempotency-Key', async () => {
    const setup = await call(ana, 'POST', '/api/security/totp');
    expect(setup.statusCode, setup.body).toBe(201);
    const { secret } = (setup.json() as { data: { secret: string } }).data;
    const code = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate();
    const confirmed = await call(ana, 'POST', '/api/security/totp/confirm', { code });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const codes = (confirmed.json() as { data: { recoveryCodes: string[] } }).data.recoveryCodes;
    expect(codes.length).toBeGreaterThan(0);
    const hashes = (await t.services.db.select({ hash: recoveryCodes.hash }).from(recoveryCodes).where(eq(recoveryCodes.uid, ana.uid))).map((r) => r.hash);
    const keys = (await t.services.db.select({ key: idempotencyKeys.commandId }).from(idempotencyKeys).where(eq(idempotencyKeys.userId, ana.uid))).map((r) => r.key);
    expect(keys.length).toBeGreaterThan(0);

    const res = await exportOf(ana.uid);
    expect(res.statusCode, res.body).toBe(200);
    for (const s of [secret, ...codes, ...codes.map((c) => c.replace('-', '')), ...hashes, ...keys, ana.token, staff.token]) expect(res.body).not.toContain(s);
    expect(res.body).not.toContain('/api/download/');
    expect(keysOf(res.json()).filter((key) => /commandId|secret|hash|publicKey|credential|token|invoice$/i.test(key))).toEqual([]);
  });

  it('writes one audit row per export, the staff member as actor, on the client', async () => {
    const before = await exportsAudited(ben.uid);
    expect((await exportOf(ben.uid)).statusCode).toBe(200);
    expect((await exportOf(ben.uid, admin)).statusCode).toBe(200);
    expect(await exportsAudited(ben.uid)).toBe(before + 2);
    const rows = await t.services.db.select().from(auditLog).where(and(eq(auditLog.action, 'client-data-exported'), eq(auditLog.entityId, ben.uid))).orderBy(auditLog.id);
    expect(rows.slice(-2).map((r) => [r.actorUid, r.entityType, r.subjectUid])).toEqual([
      [staff.uid, 'user', ben.uid],
      [admin.uid, 'user', ben.uid],
    ]);
    // Refused exports are not audited.
    await verifiedAgo(staff.uid, 6 * 60);
    expect((await exportOf(ben.uid)).statusCode).toBe(403);
    expect((await exportOf('no-such-user', admin)).statusCode).toBe(404);
    await verifySecondFactor(t.services, staff.uid);
    expect(await exportsAudited(ben.uid)).toBe(before + 2);
    expect(await exportsAudited('no-such-user')).toBe(0);
  });
});

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
}
