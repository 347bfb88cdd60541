import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactReply, ContactRequest, NotificationItem, RefundRequest } from '../../domain/schemas.ts';
import { ClientFile, QueuePage, RequestFile, StaffNote, StaffRefund, StaffThread } from '../../domain/staff.ts';
import { SyncPage } from '../../domain/sync.ts';
import { toolByBackendName } from '../../domain/tools.ts';
import { auditLog, contactRequests, notifications, productRequests, refunds, staffNotes } from '../db/schema.ts';
import { backends, createTestApp, defined, postgresSkipReason, type TestApp, type TestUser } from '../test-helper.ts';
import { centsFromDollars } from '../../domain/money.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[staff-support.test] PostgreSQL run skipped: ${skip}`);

type Json = Record<string, unknown>;
type RequestRow = typeof productRequests.$inferSelect;
type RefundRow = typeof refunds.$inferSelect;

const TOOL = defined(toolByBackendName('BANK_DISPUTE'), 'the Bank Dispute tool');

describe.each(backends())('staff support writes (%s)', (backend) => {
  let t: TestApp;
  let staff: TestUser;
  let admin: TestUser;
  let client: TestUser;
  let other: TestUser;
  let lead: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    [staff, admin, client, other, lead] = await Promise.all([t.user({ staff: true }), t.user({ admin: true }), t.user({ client: true }), t.user({ client: true }), t.user()]);
  });
  afterAll(async () => {
    await t?.close();
  });

  // ---- calls ----

  const post = (user: TestUser | null, url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, headers: { ...(user?.headers ?? {}), ...headers }, payload: payload as Json });
  const get = (user: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: user.headers });

  const staffReply = (threadId: string, message: string, user: TestUser = staff, headers: Record<string, string> = {}) =>
    post(user, `/api/staff/threads/${threadId}/replies`, { reply: { message } }, headers);
  const setStatus = (threadId: string, body: Json, user: TestUser = staff) => post(user, `/api/staff/threads/${threadId}/status`, body);
  const decide = (refundId: string, body: Json, user: TestUser = staff) => post(user, `/api/staff/refunds/${refundId}/decision`, body);
  const addNote = (body: Json, user: TestUser = staff, headers: Record<string, string> = {}) => post(user, '/api/staff/notes', body, headers);

  async function ok<T>(res: Awaited<ReturnType<typeof get>>, status: number, schema: { parse: (v: unknown) => T }): Promise<T> {
    expect(res.statusCode, res.body).toBe(status);
    return schema.parse(res.json().data);
  }

  async function queue(tab: 'threads' | 'refunds', limit = 200): Promise<QueuePage> {
    return ok(await get(staff, `/api/staff/queue?tab=${tab}&limit=${limit}`), 200, QueuePage);
  }
  const queueIds = (page: QueuePage) => page.items.map((i) => (i.kind === 'lead' ? i.uid : i.id));

  async function clientFile(uid: string = client.uid): Promise<ClientFile> {
    return ok(await get(staff, `/api/staff/clients/${uid}`), 200, ClientFile);
  }
  async function requestFile(id: string): Promise<RequestFile> {
    return ok(await get(staff, `/api/staff/requests/${id}`), 200, RequestFile);
  }
  async function clientSync(user: TestUser = client): Promise<SyncPage> {
    return ok(await get(user, '/api/sync?cursor=0'), 200, SyncPage);
  }
  async function clientNotifications(user: TestUser = client): Promise<string[]> {
    const list = await ok(await get(user, '/api/notification'), 200, NotificationItem.array());
    return list.map((n) => n.message);
  }

  // ---- fixtures ----

  /** A thread written by the client through their own route, as the app does. */
  async function openThread(subject: string, user: TestUser = client): Promise<ContactRequest> {
    const res = await post(user, '/api/contact', { contactRequest: { subject, message: `About ${subject}` } });
    return ok(res, 201, ContactRequest);
  }
  async function staffThread(threadId: string, uid: string = client.uid): Promise<StaffThread> {
    return defined((await clientFile(uid)).threads.find((th) => th.id === threadId), `thread ${threadId} in the client file`);
  }

  /** A Done Bank Dispute request of the client with what was paid on it, inserted directly. */
  async function paidRequest(paid: number, user: TestUser = client): Promise<RequestRow> {
    const [row] = await t.services.db
      .insert(productRequests)
      .values({ userId: user.uid, toolId: TOOL.id, productRequestType: TOOL.ToolNameBackend, status: 'Done', totalCents: centsFromDollars(Math.max(paid, 100)), paidCents: centsFromDollars(paid) })
      .returning();
    return row;
  }
  /** A refund request through the client's own route. */
  async function askRefund(row: RequestRow, type: 'FULL' | 'PARTIAL', user: TestUser = client): Promise<RefundRequest> {
    const res = await post(user, '/api/refund', { refundRequest: { tool: TOOL.ToolNameBackend, processId: row.id, refundRequestType: type, reason: 'Not what I expected' } });
    return ok(res, 201, RefundRequest);
  }
  async function refundRow(id: string): Promise<RefundRow> {
    const [row] = await t.services.db.select().from(refunds).where(eq(refunds.id, id));
    return row;
  }
  async function auditCount(entityId: string): Promise<number> {
    return (await t.services.db.select().from(auditLog).where(eq(auditLog.entityId, entityId))).length;
  }

  // ---- who may call ----

  it('refuses clients and leads with 403 on every support write, and stores nothing', async () => {
    const thread = await openThread('Who may answer');
    const refund = await askRefund(await paidRequest(100), 'PARTIAL');
    const calls: [string, Json][] = [
      [`/api/staff/threads/${thread.id}/replies`, { reply: { message: 'Hijack' } }],
      [`/api/staff/threads/${thread.id}/status`, { version: 1, status: 'closed' }],
      [`/api/staff/refunds/${refund.id}/decision`, { decision: 'approve', version: 1, amount: 100 }],
      ['/api/staff/notes', { clientUid: client.uid, body: 'Hijack' }],
    ];
    for (const user of [client, lead]) {
      for (const [url, body] of calls) {
        const res = await post(user, url, body);
        expect(res.statusCode, `${url} as ${user.email}`).toBe(403);
        expect(res.json().error.code).toBe('FORBIDDEN');
      }
    }
    for (const [url, body] of calls) expect((await post(null, url, body)).statusCode, url).toBe(401);
    expect((await refundRow(refund.id)).status).toBe('requested');
    expect((await staffThread(thread.id)).replies).toEqual([]);
    expect(await t.services.db.select().from(staffNotes).where(eq(staffNotes.body, 'Hijack'))).toEqual([]);
  });

  // ---- replies ----

  describe('POST /api/staff/threads/:threadId/replies', () => {
    it('answers the thread: the client sees the reply in their feed and their thread, and a notification', async () => {
      const thread = await openThread('Where is my report?');
      const before = await queue('threads');
      expect(queueIds(before)).toContain(thread.id);

      const res = await staffReply(thread.id, '  It is on its way.  ', staff, { 'idempotency-key': 'staff-reply-0001' });
      const answered = await ok(res, 201, StaffThread);
      expect(answered).toMatchObject({ id: thread.id, subject: 'Where is my report?', status: 'open', awaitingSince: null, version: 1 });
      expect(answered.replies).toEqual([expect.objectContaining({ threadId: thread.id, author: 'staff', message: 'It is on its way.', commandId: 'staff-reply-0001' })]);

      // The client reads it in their thread and their feed, as support: never which staff member.
      const threadRes = await get(client, `/api/contact/${thread.id}`);
      expect(threadRes.statusCode, threadRes.body).toBe(200);
      expect(ContactReply.array().parse(threadRes.json().data.replies)).toEqual([expect.objectContaining({ author: 'staff', message: 'It is on its way.' })]);
      expect(threadRes.body).not.toContain(staff.uid);
      expect(threadRes.body).not.toContain(staff.email);
      const list = await ok(await get(client, '/api/contact'), 200, ContactRequest.array());
      expect(list.find((c) => c.id === thread.id)).toMatchObject({ status: 'open' });
      const feed = await clientSync();
      expect(feed.contactReplies).toEqual([expect.objectContaining({ id: answered.replies[0].id, threadId: thread.id, author: 'staff', message: 'It is on its way.' })]);
      expect(await clientNotifications()).toContain('Support replied to your message "Where is my report?".');

      // It left the "Awaiting our reply" tab, and the count dropped with it.
      const after = await queue('threads');
      expect(queueIds(after)).not.toContain(thread.id);
      expect(after.counts.threads).toBe(before.counts.threads - 1);

      // The client file and its history show it, with who wrote it.
      const file = await clientFile();
      expect(file.threads.find((th) => th.id === thread.id)?.replies.map((r) => r.message)).toEqual(['It is on its way.']);
      expect(file.history).toContainEqual(
        expect.objectContaining({ action: 'reply', entityType: 'thread', entityId: thread.id, actor: { uid: staff.uid, email: staff.email }, before: null, after: expect.objectContaining({ message: 'It is on its way.' }) }),
      );
    });

    it('replays a reply sent twice with the same Idempotency-Key, storing it once', async () => {
      const thread = await openThread('Sent from the outbox');
      const first = await staffReply(thread.id, 'Once only', staff, { 'idempotency-key': 'staff-reply-0002' });
      const again = await staffReply(thread.id, 'Once only', staff, { 'idempotency-key': 'staff-reply-0002' });
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(first.json());
      expect((await staffThread(thread.id)).replies).toHaveLength(1);
    });

    it('puts the thread back in the queue when the client writes again, and keeps the conversation in order', async () => {
      const thread = await openThread('Follow-up');
      await ok(await staffReply(thread.id, 'First answer'), 201, StaffThread);
      const clientReply = await post(client, `/api/contact/${thread.id}/replies`, { reply: { message: 'One more question' } });
      expect(clientReply.statusCode, clientReply.body).toBe(201);
      expect(queueIds(await queue('threads'))).toContain(thread.id);
      const answered = await ok(await staffReply(thread.id, 'Second answer'), 201, StaffThread);
      expect(answered.replies.map((r) => [r.author, r.message])).toEqual([
        ['staff', 'First answer'],
        ['client', 'One more question'],
        ['staff', 'Second answer'],
      ]);
      expect(queueIds(await queue('threads'))).not.toContain(thread.id);
    });

    it('lets an admin answer too', async () => {
      const thread = await openThread('Admin answers');
      await ok(await staffReply(thread.id, 'From the admin', admin), 201, StaffThread);
    });

    it('is 404 for an unknown or malformed thread, 400 for an empty or bad message', async () => {
      for (const id of [randomUUID(), 'not-a-uuid']) {
        const res = await staffReply(id, 'Hello');
        expect(res.statusCode, id).toBe(404);
        expect(res.json().error.message).toBe('Conversation not found');
      }
      const thread = await openThread('Bad replies');
      for (const payload of [{ reply: { message: '   ' } }, { reply: { message: 'x'.repeat(2001) } }, { reply: {} }, { message: 'flat' }, { reply: { message: 'a\u0000b' } }]) {
        const res = await post(staff, `/api/staff/threads/${thread.id}/replies`, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_FAILED');
      }
      expect((await staffThread(thread.id)).replies).toEqual([]);
    });
  });

  // ---- close and reopen ----

  describe('POST /api/staff/threads/:threadId/status', () => {
    it('closes and reopens with the version, refusing a stale one with the thread as it is now', async () => {
      const thread = await openThread('Close me');
      const closed = await ok(await setStatus(thread.id, { version: 1, status: 'closed' }), 200, StaffThread);
      expect(closed).toMatchObject({ id: thread.id, status: 'closed', version: 2, awaitingSince: null });
      expect(queueIds(await queue('threads'))).not.toContain(thread.id);
      const list = await ok(await get(client, '/api/contact'), 200, ContactRequest.array());
      expect(list.find((c) => c.id === thread.id)?.status).toBe('closed');

      const stale = await setStatus(thread.id, { version: 1, status: 'open' });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().error.code).toBe('VERSION_CONFLICT');
      expect(StaffThread.parse(stale.json().error.details.current)).toMatchObject({ id: thread.id, status: 'closed', version: 2 });

      const again = await setStatus(thread.id, { version: 2, status: 'closed' });
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toMatchObject({ code: 'ILLEGAL_TRANSITION', message: 'This conversation is already closed.' });

      // Reopened, it waits for nothing until the client writes again.
      const reopened = await ok(await setStatus(thread.id, { version: 2, status: 'open' }), 200, StaffThread);
      expect(reopened).toMatchObject({ status: 'open', version: 3, awaitingSince: null });
      expect(queueIds(await queue('threads'))).not.toContain(thread.id);

      const history = (await clientFile()).history.filter((h) => h.action === 'thread' && h.entityId === thread.id);
      expect(history.map((h) => [h.before, h.after])).toEqual([
        [{ status: 'open' }, { status: 'closed' }],
        [{ status: 'closed' }, { status: 'open' }],
      ]);
    });

    it('lets only one of two closes made from the same version through', async () => {
      const thread = await openThread('Raced');
      const results = await Promise.all([setStatus(thread.id, { version: 1, status: 'closed' }), setStatus(thread.id, { version: 1, status: 'closed' })]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect((await staffThread(thread.id)).version).toBe(2);
    });

    it('is 404 for an unknown thread and 400 for a bad body', async () => {
      expect((await setStatus(randomUUID(), { version: 1, status: 'closed' })).statusCode).toBe(404);
      const thread = await openThread('Bad status');
      for (const body of [{ version: 1, status: 'archived' }, { status: 'closed' }, { version: 0, status: 'closed' }, { version: 1, status: 'closed', extra: 1 }]) {
        expect((await setStatus(thread.id, body)).statusCode, JSON.stringify(body)).toBe(400);
      }
    });
  });

  // ---- refund decisions ----

  describe('POST /api/staff/refunds/:refundId/decision', () => {
    it('approves part of what was paid: the client reads the decision, staff the history', async () => {
      const request = await paidRequest(500);
      const refund = await askRefund(request, 'PARTIAL');
      const before = await queue('refunds');
      expect(queueIds(before)).toContain(refund.id);

      const decided = await ok(await decide(refund.id, { decision: 'approve', version: 1, amount: 120.5, note: 'Half of the second phase' }), 200, StaffRefund);
      expect(decided).toMatchObject({ id: refund.id, status: 'approved', amount: 120.5, note: 'Half of the second phase', paid: 500, version: 2, decidedBy: staff.uid });
      expect(decided.decidedAt).toEqual(expect.any(String));

      const mine = await ok(await get(client, `/api/refund/${refund.id}`), 200, RefundRequest);
      expect(mine).toMatchObject({ status: 'approved', amount: 120.5, note: 'Half of the second phase', decidedAt: decided.decidedAt });
      expect((await clientSync()).refunds.find((r) => r.id === refund.id)).toMatchObject({ status: 'approved', amount: 120.5 });
      expect(await clientNotifications()).toContain(`Your refund request for your ${TOOL.header} request BD-${String(request.refNo).padStart(4, '0')} was approved: $120.50 will be returned.`);

      const after = await queue('refunds');
      expect(queueIds(after)).not.toContain(refund.id);
      expect(after.counts.refunds).toBe(before.counts.refunds - 1);

      const page = await requestFile(request.id);
      expect(page.refunds).toEqual([expect.objectContaining({ id: refund.id, status: 'approved', amount: 120.5, version: 2 })]);
      expect(page.history).toEqual([
        expect.objectContaining({
          action: 'refund',
          entityType: 'refund',
          entityId: refund.id,
          requestId: request.id,
          actor: { uid: staff.uid, email: staff.email },
          before: { status: 'requested' },
          after: { status: 'approved', amount: 120.5, note: 'Half of the second phase' },
        }),
      ]);
    });

    it('refuses more than was paid with a 400 naming amount, and stores nothing', async () => {
      const request = await paidRequest(300);
      const refund = await askRefund(request, 'PARTIAL');
      const notificationsBefore = await clientNotifications();
      const res = await decide(refund.id, { decision: 'approve', version: 1, amount: 300.01 });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
      expect(res.json().error.message).toMatch(/^amount: \$300\.01 is more than .*\$300\.00/);
      expect(await refundRow(refund.id)).toMatchObject({ status: 'requested', decidedCents: null, decidedAt: null, decidedBy: null, version: 1 });
      expect(await auditCount(refund.id)).toBe(0);
      expect(await clientNotifications()).toEqual(notificationsBefore);
      // Exactly what was paid is fine.
      await ok(await decide(refund.id, { decision: 'approve', version: 1, amount: 300 }), 200, StaffRefund);
    });

    it('makes a FULL refund return exactly what was paid', async () => {
      const request = await paidRequest(1600);
      const refund = await askRefund(request, 'FULL');
      const res = await decide(refund.id, { decision: 'approve', version: 1, amount: 1000 });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe('amount: A full refund returns everything paid: $1,600.00');
      expect((await refundRow(refund.id)).status).toBe('requested');
      const full = await ok(await decide(refund.id, { decision: 'approve', version: 1, amount: 1600 }), 200, StaffRefund);
      expect(full).toMatchObject({ status: 'approved', amount: 1600 });
    });

    it('counts what earlier approved refunds of the request already return', async () => {
      const request = await paidRequest(500);
      const first = await askRefund(request, 'PARTIAL');
      await ok(await decide(first.id, { decision: 'approve', version: 1, amount: 400 }), 200, StaffRefund);
      const second = await askRefund(request, 'PARTIAL');
      const over = await decide(second.id, { decision: 'approve', version: 1, amount: 100.01 });
      expect(over.statusCode).toBe(400);
      expect(over.json().error.message).toMatch(/^amount: .*\$100\.00 \(\$500\.00 paid, \$400\.00 already refunded\)/);
      await ok(await decide(second.id, { decision: 'approve', version: 1, amount: 100 }), 200, StaffRefund);
    });

    it('refuses to approve a refund of a request nothing was paid on', async () => {
      const refund = await askRefund(await paidRequest(0), 'PARTIAL');
      const res = await decide(refund.id, { decision: 'approve', version: 1, amount: 10 });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(/^amount: nothing was paid/);
      expect((await refundRow(refund.id)).status).toBe('requested');
    });

    it('declines with the reason the client reads; without one it is a 400', async () => {
      const request = await paidRequest(200);
      const refund = await askRefund(request, 'PARTIAL');
      for (const body of [{ decision: 'decline', version: 1 }, { decision: 'decline', version: 1, note: '   ' }]) {
        const res = await decide(refund.id, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().error.message).toMatch(/note/);
      }
      expect((await refundRow(refund.id)).status).toBe('requested');
      const declined = await ok(await decide(refund.id, { decision: 'decline', version: 1, note: 'The work was delivered in full.' }), 200, StaffRefund);
      expect(declined).toMatchObject({ status: 'declined', amount: null, note: 'The work was delivered in full.', version: 2 });
      expect(await clientNotifications()).toContain(`Your refund request for your ${TOOL.header} request BD-${String(request.refNo).padStart(4, '0')} was declined: The work was delivered in full.`);
      expect((await clientSync()).refunds.find((r) => r.id === refund.id)).toMatchObject({ status: 'declined', note: 'The work was delivered in full.' });
    });

    it('decides once: a second decision is 409 REFUND_DECIDED, a stale version 409 VERSION_CONFLICT', async () => {
      const refund = await askRefund(await paidRequest(200), 'PARTIAL');
      await ok(await decide(refund.id, { decision: 'approve', version: 1, amount: 50 }), 200, StaffRefund);
      for (const version of [1, 2]) {
        const res = await decide(refund.id, { decision: 'decline', version, note: 'Changed our minds' });
        expect(res.statusCode).toBe(409);
        expect(res.json().error).toMatchObject({ code: 'REFUND_DECIDED', message: 'This refund was already approved.' });
        expect(StaffRefund.parse(res.json().error.details.current)).toMatchObject({ status: 'approved', amount: 50 });
      }
      expect(await auditCount(refund.id)).toBe(1);

      const open = await askRefund(await paidRequest(200), 'PARTIAL');
      const stale = await decide(open.id, { decision: 'approve', version: 7, amount: 10 });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().error.code).toBe('VERSION_CONFLICT');
      expect(StaffRefund.parse(stale.json().error.details.current)).toMatchObject({ id: open.id, status: 'requested', version: 1, paid: 200 });
    });

    it('lets only one of two decisions at once through', async () => {
      const refund = await askRefund(await paidRequest(200), 'PARTIAL');
      const results = await Promise.all([
        decide(refund.id, { decision: 'approve', version: 1, amount: 20 }),
        decide(refund.id, { decision: 'decline', version: 1, note: 'No' }, admin),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(await auditCount(refund.id)).toBe(1);
    });

    it('is 404 for an unknown refund and 400 for a bad body', async () => {
      for (const id of [randomUUID(), 'nope']) expect((await decide(id, { decision: 'decline', version: 1, note: 'x' })).statusCode, id).toBe(404);
      const refund = await askRefund(await paidRequest(200), 'PARTIAL');
      const bad = [
        { decision: 'maybe', version: 1 },
        { decision: 'approve', version: 1 },
        { decision: 'approve', version: 1, amount: 0 },
        { decision: 'approve', version: 1, amount: 10.001 },
        { decision: 'approve', amount: 10 },
        { decision: 'decline', version: 1, note: 'x', amount: 10 },
      ];
      for (const body of bad) expect((await decide(refund.id, body)).statusCode, JSON.stringify(body)).toBe(400);
      expect((await refundRow(refund.id)).status).toBe('requested');
    });
  });

  // ---- internal notes ----

  describe('POST /api/staff/notes', () => {
    const clientNoteText = 'INTERNAL-NOTE-7f3a: prefers a call, suspected second scam';
    const requestNoteText = 'INTERNAL-NOTE-9c1b: evidence looks forged';
    let request: RequestRow;

    beforeAll(async () => {
      request = await paidRequest(100);
    });

    it('adds a note on a client and one on a request; each file shows its own', async () => {
      const onClient = await ok(await addNote({ clientUid: client.uid, body: `  ${clientNoteText}  ` }, staff, { 'idempotency-key': 'staff-note-0001' }), 201, StaffNote);
      expect(onClient).toMatchObject({ clientUid: client.uid, requestId: null, author: { uid: staff.uid, email: staff.email }, body: clientNoteText, commandId: 'staff-note-0001' });
      const onRequest = await ok(await addNote({ clientUid: client.uid, requestId: request.id, body: requestNoteText }, admin), 201, StaffNote);
      expect(onRequest).toMatchObject({ requestId: request.id, author: { uid: admin.uid, email: admin.email } });

      const file = await clientFile();
      expect(file.notes.map((n) => n.id)).toEqual([onRequest.id, onClient.id]);
      expect((await requestFile(request.id)).notes.map((n) => n.id)).toEqual([onRequest.id]);
      expect((await clientFile(other.uid)).notes).toEqual([]);
    });

    it('never shows a note in any answer the client gets', async () => {
      const thread = await openThread('Anything hidden?');
      const urls = [
        '/api/sync?cursor=0',
        '/api/user',
        '/api/contact',
        `/api/contact/${thread.id}`,
        '/api/user/product-requests',
        `/api/tools/${TOOL.id}/requests/${request.id}`,
        '/api/notification',
        '/api/refund',
        '/api/user/billing',
        '/api/user/files',
      ];
      for (const url of urls) {
        const res = await get(client, url);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
        for (const secret of ['INTERNAL-NOTE', clientNoteText, requestNoteText]) expect(res.body, url).not.toContain(secret);
      }
    });

    it('is 404 for an unknown client or a request that is not theirs, and writes nothing', async () => {
      const unknown = await addNote({ clientUid: 'nobody-here', body: 'Lost note' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error.message).toContain('nobody-here');
      const foreign = await paidRequest(10, other);
      for (const requestId of [foreign.id, randomUUID()]) {
        const res = await addNote({ clientUid: client.uid, requestId, body: 'Lost note' });
        expect(res.statusCode, requestId).toBe(404);
        expect(res.json().error.message).toBe('Request not found');
      }
      expect(await t.services.db.select().from(staffNotes).where(eq(staffNotes.body, 'Lost note'))).toEqual([]);
    });

    it('refuses a bad note with 400 naming the field', async () => {
      const bad: [Json, RegExp][] = [
        [{ clientUid: client.uid, body: '   ' }, /body/],
        [{ clientUid: client.uid, body: 'x'.repeat(4001) }, /body/],
        [{ clientUid: client.uid, body: 'a\u0000b' }, /body/],
        [{ clientUid: client.uid, requestId: 'not-a-uuid', body: 'x' }, /requestId/],
        [{ body: 'x' }, /clientUid/],
        [{ clientUid: 'a\u0000b', body: 'x' }, /clientUid/],
        [{ clientUid: client.uid, body: 'x', pinned: true }, /pinned|Unrecognized/i],
      ];
      for (const [body, field] of bad) {
        const res = await addNote(body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().error.message, JSON.stringify(body)).toMatch(field);
      }
    });

    it('leaves no notification for the client', async () => {
      const before = await t.services.db.select().from(notifications).where(eq(notifications.userId, other.uid));
      await ok(await addNote({ clientUid: other.uid, body: 'Quiet note' }), 201, StaffNote);
      expect(await t.services.db.select().from(notifications).where(eq(notifications.userId, other.uid))).toEqual(before);
    });
  });

  it('describes the support writes in the OpenAPI document', async () => {
    const paths = Object.keys((await t.app.inject({ url: '/api/docs' })).json().paths);
    for (const path of ['/api/staff/threads/{threadId}/replies', '/api/staff/threads/{threadId}/status', '/api/staff/refunds/{refundId}/decision', '/api/staff/notes']) {
      expect(paths).toContain(path);
    }
  });

  it('keeps a thread out of another client’s sight', async () => {
    const thread = await openThread('Private');
    await ok(await staffReply(thread.id, 'Only for you'), 201, StaffThread);
    expect((await get(other, `/api/contact/${thread.id}`)).statusCode).toBe(404);
    expect(JSON.stringify((await clientSync(other)).contactReplies)).not.toContain('Only for you');
    const [row] = await t.services.db.select().from(contactRequests).where(and(eq(contactRequests.id, thread.id), eq(contactRequests.userId, client.uid)));
    expect(row.awaitingSince).toBeNull();
  });
});
