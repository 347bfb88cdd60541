import { createHash, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestStatus } from '../../domain/enums.ts';
import { allowedActions } from '../../domain/lifecycle.ts';
import { ClientFile, QueuePage, RequestFile, TeamMember, type QueueItem, type QueueTab } from '../../domain/staff.ts';
import { tools } from '../../domain/tools.ts';
import { writeAudit } from '../services/audit.ts';
import { contactReplies, contactRequests, deals, files, notifications, productRequests, refunds, staffNotes, staffWatches, users } from '../db/schema.ts';
import { minimalPdf } from '../seed/seed-data.ts';
import { backends, createTestApp, defined, postgresSkipReason, type TestApp, type TestUser } from '../test-helper.ts';
import { centsFromDollars } from '../../domain/money.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[staff-read.test] PostgreSQL run skipped: ${skip}`);

const TOOL = tools[0];
const PENDING = 120;
/** 2025-01-01T00:00:00Z in ms: the pending requests are created microseconds after it. */
const BASE = Date.UTC(2025, 0, 1);
/** The threads' waits and the refunds' requests start microseconds after these. */
const WAIT_BASE = Date.UTC(2025, 5, 1);
const REFUND_BASE = Date.UTC(2025, 6, 1);
const THREADS = 7;
const REFUNDS = 5;

/** An ISO time with microseconds, so a cursor that kept only milliseconds would skip or repeat rows. */
function microsAfter(base: number, micros: number): string {
  const ms = Math.floor(micros / 1000);
  const rest = String(micros % 1000).padStart(3, '0');
  return new Date(base + ms).toISOString().replace('Z', `${rest}Z`);
}
const microsAfterBase = (micros: number) => microsAfter(BASE, micros);

/** The rows this test inserts always carry their id, so it can look them up. */
type RequestRow = typeof productRequests.$inferInsert & { id: string };
type ThreadRow = typeof contactRequests.$inferInsert & { id: string };
type RefundRow = typeof refunds.$inferInsert & { id: string; createdAt: string };

describe.each(backends())('staff reads (%s)', (backend) => {
  let t: TestApp;
  let staff: TestUser;
  let admin: TestUser;
  let client: TestUser;
  let lead: TestUser;
  const ada = { uid: 'uid-ada', email: 'countess@example.com', firstName: 'Ada', lastName: 'Lovelace', isClient: true };
  const bob = { uid: 'uid-bob', email: 'bob+100%off@example.com', firstName: 'Bob', lastName: 'Builder', isClient: true };
  const carol = { uid: randomUUID(), email: 'carol@example.com', firstName: 'Carol', lastName: null, isClient: true };
  const oldLeads = [
    { uid: 'lead-old-1', email: 'first.lead@example.com', firstName: 'Lena', lastName: 'First', createdAt: '2024-01-01T00:00:00.000001Z' },
    { uid: 'lead-old-2', email: 'second.lead@example.com', firstName: null, lastName: null, createdAt: '2024-01-01T00:00:00.000002Z' },
  ];
  const pending: RequestRow[] = [];
  const ids = { awaiting: randomUUID(), done: randomUUID(), carolDone: randomUUID() };
  /** Threads awaiting our reply (bob's and carol's), and requests (Rejected, so in no request tab) with a refund to decide. */
  const waiting: ThreadRow[] = [];
  const refundRequests: RequestRow[] = [];
  const undecided: RefundRow[] = [];

  const get = (url: string, user: TestUser = staff) => t.app.inject({ method: 'GET', url, headers: user.headers });
  async function queue(params: Record<string, string | number>, user: TestUser = staff): Promise<QueuePage> {
    const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
    const res = await get(`/api/staff/queue?${qs}`, user);
    expect(res.statusCode, res.body).toBe(200);
    return QueuePage.parse(res.json().data);
  }
  const requestIds = (items: QueueItem[]) => items.map((i) => (i.kind === 'lead' ? i.uid : i.id));

  const request = (userId: string, status: RequestStatus, createdAt: string, extra: Partial<RequestRow> = {}): RequestRow => ({
    id: randomUUID(),
    userId,
    toolId: TOOL.id,
    productRequestType: TOOL.ToolNameBackend,
    status,
    createdAt,
    ...extra,
  });

  beforeAll(async () => {
    t = await createTestApp({ backend });
    [staff, admin, client, lead] = await Promise.all([t.user({ staff: true }), t.user({ admin: true }), t.user({ client: true }), t.user()]);
    await t.services.db.insert(users).values([
      ada,
      bob,
      carol,
      ...oldLeads,
      // On the team but not approved as clients: never leads.
      { uid: 'staff-only', email: 'helper@team.example', isStaff: true, isClient: false },
      { uid: 'admin-only', email: 'boss@team.example', isAdmin: true, isClient: false },
    ]);
    // Apart by a microsecond only, and some pairs at the very same time, so (created_at, id) decides the order.
    for (let i = 0; i < PENDING; i++) pending.push(request(i % 4 === 0 ? bob.uid : ada.uid, 'Pending', microsAfterBase(i % 3 === 1 ? i - 1 : i)));
    await t.services.db.insert(productRequests).values([
      ...pending,
      request(bob.uid, 'Waiting for actions', '2025-02-01T00:00:00Z', { id: ids.awaiting, totalCents: centsFromDollars(500) }),
      request(ada.uid, 'Waiting for actions', '2025-02-02T00:00:00Z', { totalCents: centsFromDollars(300), paidCents: centsFromDollars(100), contractSigned: true }),
      request(ada.uid, 'In Progress', '2025-03-01T00:00:00Z', { totalCents: centsFromDollars(300), paidCents: centsFromDollars(300) }),
      request(ada.uid, 'Done', '2025-04-02T00:00:00Z', { id: ids.done, totalCents: centsFromDollars(500), paidCents: centsFromDollars(500), contractSigned: true }),
      request(carol.uid, 'Done', '2025-04-01T00:00:00Z', { id: ids.carolDone, totalCents: centsFromDollars(200), paidCents: centsFromDollars(200) }),
      request(ada.uid, 'Rejected', '2025-05-01T00:00:00Z', { rejectionReason: 'Out of scope' }),
    ]);
    await insertThreadsAndRefunds();
  });

  /**
   * The support tabs' rows: waits a microsecond apart with one tie, created in the opposite order (the
   * tab sorts by the wait, not by creation), and rows that must stay out: answered or closed threads,
   * decided refunds.
   */
  async function insertThreadsAndRefunds() {
    const db = t.services.db;
    for (let i = 0; i < THREADS; i++) {
      waiting.push({
        id: randomUUID(),
        userId: i % 2 ? bob.uid : carol.uid,
        subject: `Question ${i}`,
        message: `Message ${i}`,
        createdAt: new Date(WAIT_BASE - (i + 1) * 60_000).toISOString(),
        awaitingSince: microsAfter(WAIT_BASE, i === 2 ? 1 : i),
      });
    }
    await db.insert(contactRequests).values([
      ...waiting,
      { userId: bob.uid, subject: 'Answered', message: 'Thanks', awaitingSince: null },
      { userId: bob.uid, subject: 'Closed', message: 'Bye', status: 'closed', awaitingSince: null },
    ]);
    for (let i = 0; i < REFUNDS; i++) {
      refundRequests.push(request(i % 2 ? bob.uid : carol.uid, 'Rejected', '2025-06-15T00:00:00Z', { totalCents: centsFromDollars(1000), paidCents: centsFromDollars(100 * (i + 1)) }));
    }
    await db.insert(productRequests).values(refundRequests);
    for (const [i, r] of refundRequests.entries()) {
      undecided.push({
        id: randomUUID(),
        userId: r.userId,
        requestId: r.id,
        tool: TOOL.ToolNameBackend,
        refundRequestType: i === 0 ? 'FULL' : 'PARTIAL',
        reason: `Reason ${i}`,
        createdAt: microsAfter(REFUND_BASE, i === 3 ? 2 : i),
      });
    }
    const decided = { userId: carol.uid, requestId: refundRequests[0].id, tool: TOOL.ToolNameBackend, refundRequestType: 'PARTIAL', reason: 'Earlier', createdAt: '2025-01-01T00:00:00Z' };
    await db.insert(refunds).values([
      ...undecided,
      { ...decided, status: 'approved', decidedCents: centsFromDollars(50) },
      { ...decided, status: 'declined', decisionNote: 'No' },
    ]);
  }
  afterAll(async () => {
    await t?.close();
  });

  describe('GET /api/staff/queue', () => {
    it('counts every tab, leaving Rejected and the team out', async () => {
      const page = await queue({ tab: 'pending' });
      expect(page.counts).toEqual({ leads: 3, threads: THREADS, refunds: REFUNDS, pending: PENDING, awaiting: 2, inProgress: 1, done: 2 });
      // The search narrows the list, never the counts.
      expect((await queue({ tab: 'pending', q: 'nobody-matches-this' })).counts).toEqual(page.counts);
    });

    it('lists the oldest first, ties broken by id', async () => {
      const page = await queue({ tab: 'pending', limit: 10 });
      expect(requestIds(page.items)).toEqual(oldestFirst(pending).slice(0, 10));
      const done = await queue({ tab: 'done' });
      expect(requestIds(done.items)).toEqual([ids.carolDone, ids.done]);
      expect(done.nextCursor).toBeNull();
    });

    it('describes each request with its client', async () => {
      const [first] = (await queue({ tab: 'awaiting' })).items;
      expect(first).toEqual({
        kind: 'request',
        id: ids.awaiting,
        toolId: TOOL.id,
        productRequestType: TOOL.ToolNameBackend,
        status: 'Waiting for actions',
        createdAt: '2025-02-01T00:00:00.000Z',
        totalAmount: 500,
        paid: 0,
        leftToPay: 500,
        client: { uid: bob.uid, email: bob.email, name: 'Bob Builder' },
      });
    });

    it('pages through 120 requests 50 at a time, every row exactly once and in order', async () => {
      const seen: string[] = [];
      const sizes: number[] = [];
      let cursor: string | null = null;
      do {
        const page: QueuePage = await queue({ tab: 'pending', limit: 50, ...(cursor ? { cursor } : {}) });
        sizes.push(page.items.length);
        seen.push(...requestIds(page.items));
        cursor = page.nextCursor;
      } while (cursor);
      expect(sizes).toEqual([50, 50, 20]);
      expect(seen).toEqual(oldestFirst(pending));
    });

    it('has no next page when the last page is exactly full', async () => {
      const page = await queue({ tab: 'pending', limit: PENDING });
      expect(page.items).toHaveLength(PENDING);
      expect(page.nextCursor).toBeNull();
    });

    it('finds a client by a piece of the email, any case', async () => {
      const page = await queue({ tab: 'pending', q: 'COUNTESS@EX', limit: 200 });
      expect(page.items).toHaveLength(pending.filter((r) => r.userId === ada.uid).length);
      expect(page.items.every((i) => i.kind === 'request' && i.client.uid === ada.uid)).toBe(true);
    });

    it('finds a client by first name, last name or "first last"', async () => {
      const adaCount = pending.filter((r) => r.userId === ada.uid).length;
      for (const q of ['ada', 'LOVELACE', 'Ada Lovelace', 'a lovel']) {
        const page = await queue({ tab: 'pending', q, limit: 200 });
        expect(page.items, q).toHaveLength(adaCount);
      }
      expect((await queue({ tab: 'pending', q: 'Lovelace Ada' })).items).toEqual([]);
    });

    it('pages through search results too', async () => {
      const first = await queue({ tab: 'pending', q: 'builder', limit: 20 });
      expect(first.items).toHaveLength(20);
      const second = await queue({ tab: 'pending', q: 'builder', limit: 20, cursor: defined(first.nextCursor, 'a next page') });
      expect(second.items).toHaveLength(pending.filter((r) => r.userId === bob.uid).length - 20);
      expect(second.nextCursor).toBeNull();
    });

    it('finds a request by its id, in any case', async () => {
      const page = await queue({ tab: 'awaiting', q: ids.awaiting.toUpperCase() });
      expect(requestIds(page.items)).toEqual([ids.awaiting]);
      expect((await queue({ tab: 'pending', q: ids.awaiting })).items).toEqual([]);
    });

    it('finds a client by uid, a UUID one or a Firebase one', async () => {
      expect(requestIds((await queue({ tab: 'done', q: carol.uid })).items)).toEqual([ids.carolDone]);
      expect(requestIds((await queue({ tab: 'done', q: ada.uid })).items)).toEqual([ids.done]);
    });

    it('takes % and _ in the search literally', async () => {
      const bobCount = pending.filter((r) => r.userId === bob.uid).length;
      expect((await queue({ tab: 'pending', q: '%', limit: 200 })).items).toHaveLength(bobCount);
      expect((await queue({ tab: 'pending', q: '100%', limit: 200 })).items).toHaveLength(bobCount);
      expect((await queue({ tab: 'pending', q: '_' })).items).toEqual([]);
      expect((await queue({ tab: 'pending', q: 'c_untess' })).items).toEqual([]);
      expect((await queue({ tab: 'pending', q: '\\' })).items).toEqual([]);
    });

    it('lists leads oldest first, without clients, staff or admins', async () => {
      const page = await queue({ tab: 'leads' });
      expect(requestIds(page.items)).toEqual([...oldLeads.map((l) => l.uid), lead.uid]);
      const uids = requestIds(page.items);
      for (const uid of [staff.uid, admin.uid, client.uid, ada.uid, 'staff-only', 'admin-only']) expect(uids).not.toContain(uid);
      expect(page.items[0]).toEqual({ kind: 'lead', uid: 'lead-old-1', email: 'first.lead@example.com', name: 'Lena First', createdAt: '2024-01-01T00:00:00.000Z', filledInitialForm: false });
      // No name yet: the email stands in.
      expect(page.items[1]).toMatchObject({ name: 'second.lead@example.com' });
    });

    it('pages and searches leads', async () => {
      const first = await queue({ tab: 'leads', limit: 1 });
      const second = await queue({ tab: 'leads', limit: 1, cursor: defined(first.nextCursor, 'a next page') });
      expect(requestIds([...first.items, ...second.items])).toEqual(oldLeads.map((l) => l.uid));
      expect(requestIds((await queue({ tab: 'leads', q: 'lena' })).items)).toEqual(['lead-old-1']);
      expect(requestIds((await queue({ tab: 'leads', q: lead.email.slice(0, 12) })).items)).toEqual([lead.uid]);
    });

    it('refuses a bad cursor with 400, never 500', async () => {
      const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const firstLeads = await queue({ tab: 'leads', limit: 1 });
      const bad = [
        'garbage',
        '!!!',
        b64('a string'),
        b64({ tab: 'pending', at: 1, id: 'not-a-uuid' }),
        b64({ tab: 'pending', at: 1.5, id: randomUUID() }),
        b64({ tab: 'pending', at: '2025-01-01', id: randomUUID() }),
        b64({ tab: 'pending', at: 1e300, id: randomUUID() }),
        b64({ tab: 'pending', at: 1, id: randomUUID(), extra: true }),
        b64({ tab: 'nope', at: 1, id: randomUUID() }),
        b64({ tab: 'pending', at: 1, id: `${randomUUID()}\u0000` }),
        defined(firstLeads.nextCursor, 'a next page of leads'),
        'x'.repeat(201),
      ];
      for (const cursor of bad) {
        const res = await get(`/api/staff/queue?tab=pending&cursor=${encodeURIComponent(cursor)}`);
        expect(res.statusCode, cursor).toBe(400);
        expect(res.json().error.message).toMatch(/cursor/);
      }
      // A well-formed cursor past the end is simply an empty page.
      const nul = await get(`/api/staff/queue?tab=leads&cursor=${b64({ tab: 'leads', at: 1, id: 'a\u0000b' })}`);
      expect(nul.statusCode).toBe(400);
      const far = await queue({ tab: 'pending', cursor: b64({ tab: 'pending', at: Number.MAX_SAFE_INTEGER, id: randomUUID() }) });
      expect(far.items).toEqual([]);
    });

    it('refuses other bad queries with 400 and a message', async () => {
      for (const qs of ['tab=rejected', 'limit=0', 'limit=201', 'limit=ten', `q=${'a'.repeat(201)}`, 'q=a%00b', 'unknown=1']) {
        const res = await get(`/api/staff/queue?${qs}`);
        expect(res.statusCode, qs).toBe(400);
        expect(res.json().error.message, qs).toBeTruthy();
      }
    });
  });

  describe('GET /api/staff/queue: the support tabs', () => {
    const waitOrder = () => sortedBy(waiting, (r) => `${r.awaitingSince} ${r.id}`);
    const refundOrder = () => sortedBy(undecided, (r) => `${r.createdAt} ${r.id}`);

    it('lists the threads awaiting our reply, the longest wait first, ties broken by id', async () => {
      const page = await queue({ tab: 'threads' });
      expect(requestIds(page.items)).toEqual(waitOrder());
      expect(page.nextCursor).toBeNull();
      const first = defined(waiting.find((r) => r.id === waitOrder()[0]), 'the longest wait');
      expect(page.items[0]).toEqual({ kind: 'thread', id: first.id, subject: first.subject, awaitingSince: '2025-06-01T00:00:00.000Z', client: { uid: carol.uid, email: carol.email, name: 'Carol' } });
    });

    it('pages through the threads one at a time, every row exactly once and in order', async () => {
      expect(await allPages('threads', 1)).toEqual(waitOrder());
      expect(await allPages('threads', 3)).toEqual(waitOrder());
    });

    it('finds threads by client or by thread id', async () => {
      const bobs = waiting.filter((r) => r.userId === bob.uid).map((r) => r.id);
      expect(requestIds((await queue({ tab: 'threads', q: 'builder' })).items)).toEqual(waitOrder().filter((id) => bobs.includes(id)));
      expect(requestIds((await queue({ tab: 'threads', q: waiting[4].id.toUpperCase() })).items)).toEqual([waiting[4].id]);
      expect((await queue({ tab: 'threads', q: 'countess' })).items).toEqual([]);
    });

    it('lists the refunds to decide oldest first, with what was paid and the client', async () => {
      const page = await queue({ tab: 'refunds' });
      expect(requestIds(page.items)).toEqual(refundOrder());
      expect(page.items[0]).toEqual({
        kind: 'refund',
        id: undecided[0].id,
        requestId: refundRequests[0].id,
        productRequestType: TOOL.ToolNameBackend,
        refundRequestType: 'FULL',
        reason: 'Reason 0',
        createdAt: '2025-07-01T00:00:00.000Z',
        paid: 100,
        client: { uid: carol.uid, email: carol.email, name: 'Carol' },
      });
    });

    it('pages through the refunds, every row exactly once and in order', async () => {
      expect(await allPages('refunds', 1)).toEqual(refundOrder());
      expect(await allPages('refunds', 2)).toEqual(refundOrder());
    });

    it('finds refunds by client, refund id or request id', async () => {
      const bobs = undecided.filter((r) => r.userId === bob.uid).map((r) => r.id);
      expect(requestIds((await queue({ tab: 'refunds', q: 'Bob Builder' })).items)).toEqual(refundOrder().filter((id) => bobs.includes(id)));
      expect(requestIds((await queue({ tab: 'refunds', q: undecided[2].id })).items)).toEqual([undecided[2].id]);
      expect(requestIds((await queue({ tab: 'refunds', q: refundRequests[3].id })).items)).toEqual([undecided[3].id]);
    });

    it("refuses another tab's cursor", async () => {
      const threads = await queue({ tab: 'threads', limit: 1 });
      const res = await get(`/api/staff/queue?tab=refunds&cursor=${defined(threads.nextCursor, 'a next page')}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(/threads tab/);
    });

    async function allPages(tab: 'threads' | 'refunds', limit: number): Promise<string[]> {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: QueuePage = await queue({ tab, limit, ...(cursor ? { cursor } : {}) });
        expect(page.items.length).toBeLessThanOrEqual(limit);
        seen.push(...requestIds(page.items));
        cursor = page.nextCursor;
      } while (cursor);
      return seen;
    }
  });

  describe('GET /api/staff/clients/:uid', () => {
    let evidenceBytes: Buffer;
    let evidenceId: string;
    let generalId: string;

    beforeAll(async () => {
      const db = t.services.db;
      const adaRequest = defined(pending.find((r) => r.userId === ada.uid), "a request of Ada's");
      evidenceBytes = Buffer.from('Screenshot of the chat, as text.\n');
      const stored = await t.services.storage.save(evidenceBytes, 'chat.txt');
      evidenceId = randomUUID();
      generalId = randomUUID();
      const general = await t.services.storage.save(Buffer.from('bank statement'), 'statement.txt');
      await db.insert(files).values([
        { id: evidenceId, userId: ada.uid, kind: 'attachment', requestId: adaRequest.id, field: 'screenshots', originalName: 'chat.txt', ...stored },
        { id: generalId, userId: ada.uid, kind: 'general', originalName: 'statement.txt', ...general },
      ]);
      await db.insert(deals).values({ requestId: ids.done, userId: ada.uid, productRequestType: TOOL.ToolNameBackend, amountCents: centsFromDollars(500), method: 'WIRE', reference: 'REF-1', paidAt: '2025-04-03' });
      await db.insert(refunds).values({ requestId: ids.done, userId: ada.uid, tool: TOOL.ToolNameBackend, refundRequestType: 'FULL', reason: 'Changed my mind' });
      const [call] = await db.insert(contactRequests).values({ userId: ada.uid, subject: 'Call me', message: 'Please call after 6pm', createdAt: '2025-04-01T00:00:00Z' }).returning();
      await db.insert(contactRequests).values({ userId: ada.uid, subject: 'Call me again', message: 'Still waiting', createdAt: '2025-04-02T00:00:00Z' });
      const reply = { threadId: call.id, userId: ada.uid };
      await db.insert(contactReplies).values([
        { ...reply, author: 'client', authorUid: ada.uid, message: 'Thanks, after 6pm please', createdAt: '2025-04-01T02:00:00Z' },
        { ...reply, author: 'staff', authorUid: staff.uid, message: 'We will call you', createdAt: '2025-04-01T01:00:00Z' },
      ]);
      const note = { authorUid: staff.uid, authorEmail: staff.email };
      await db.insert(staffNotes).values([
        { ...note, subjectUid: ada.uid, body: 'Prefers email', createdAt: '2025-04-01T00:00:00Z' },
        { ...note, subjectUid: ada.uid, requestId: ids.done, body: 'Asked for a call back', createdAt: '2025-04-02T00:00:00Z' },
        { ...note, subjectUid: bob.uid, body: "Bob's note" },
      ]);
      await db.insert(notifications).values([
        { userId: ada.uid, message: 'Your report is ready' },
        { userId: null, message: 'Maintenance on Sunday' },
      ]);
      await writeAudit(db, {
        actor: { uid: staff.uid, email: staff.email },
        action: 'approve',
        entityType: 'user',
        entityId: ada.uid,
        subjectUid: ada.uid,
        before: { isClient: false },
        after: { isClient: true },
      });
    });

    it('holds the whole client file', async () => {
      const res = await get(`/api/staff/clients/${ada.uid}`);
      expect(res.statusCode, res.body).toBe(200);
      const file = ClientFile.parse(res.json().data);
      expect(file.client).toMatchObject({ uid: ada.uid, email: ada.email, firstName: 'Ada', lastName: 'Lovelace', isClient: true, isStaff: false, version: 1 });
      const adaPending = pending.filter((r) => r.userId === ada.uid);
      // Her pending ones, plus one awaiting payment, one in progress, one done and one rejected.
      expect(file.requests).toHaveLength(adaPending.length + 4);
      const times = file.requests.map((r) => Date.parse(r.Created_Time));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(file.requests[0]).toMatchObject({ status: 'Rejected', rejectionReason: 'Out of scope', userId: ada.uid, version: 1, finalFileId: null });

      expect(file.evidence).toEqual([
        expect.objectContaining({ id: evidenceId, name: 'chat.txt', field: 'screenshots', size: evidenceBytes.length, sha256: sha256(evidenceBytes), contentType: 'text/plain', requestId: adaPending[0].id }),
      ]);
      expect(file.files.map((f) => f.id)).toEqual([generalId]);
      expect(file.deals).toEqual([expect.objectContaining({ requestId: ids.done, amount: 500, method: 'WIRE', reference: 'REF-1', paidAt: '2025-04-03' })]);
      expect(file.refunds).toEqual([
        expect.objectContaining({ processId: ids.done, refundRequestType: 'FULL', reason: 'Changed my mind', status: 'requested', amount: null, paid: 500, version: 1, decidedBy: null }),
      ]);
      expect(file.threads.map((th) => th.subject)).toEqual(['Call me again', 'Call me']);
      expect(file.threads[1]).toMatchObject({ message: 'Please call after 6pm', status: 'open', version: 1 });
      expect(file.threads[1].awaitingSince).toEqual(expect.any(String));
      // Replies oldest first, whoever wrote them; only this thread's.
      expect(file.threads[1].replies.map((r) => [r.author, r.message])).toEqual([
        ['staff', 'We will call you'],
        ['client', 'Thanks, after 6pm please'],
      ]);
      expect(file.threads[0].replies).toEqual([]);
      // Notes on her and on her requests, newest first; never another client's.
      expect(file.notes.map((n) => [n.body, n.requestId])).toEqual([
        ['Asked for a call back', ids.done],
        ['Prefers email', null],
      ]);
      expect(file.notes[0]).toMatchObject({ clientUid: ada.uid, author: { uid: staff.uid, email: staff.email } });
      expect(file.notifications.map((n) => n.message)).toEqual(['Your report is ready']);
      expect(file.history).toEqual([
        expect.objectContaining({ action: 'approve', actor: { uid: staff.uid, email: staff.email }, entityType: 'user', entityId: ada.uid, requestId: null, before: { isClient: false }, after: { isClient: true } }),
      ]);
    });

    it("keeps the opened page in the staff member's offline replica, and a 404 keeps nothing", async () => {
      expect((await get(`/api/staff/clients/${bob.uid}`, admin)).statusCode).toBe(200);
      expect((await get('/api/staff/clients/nobody-at-all', admin)).statusCode).toBe(404);
      const rows = await t.services.db.select().from(staffWatches).where(eq(staffWatches.staffUid, admin.uid));
      expect(rows.map((w) => [w.kind, w.entityId, w.subjectUid])).toEqual([['client', bob.uid, bob.uid]]);
    });

    it('is 404 for an unknown uid and a 4xx with a message for an over-long one', async () => {
      expect((await get('/api/staff/clients/a%00b')).statusCode).toBe(400);
      for (const uid of ['nobody-here', 'x'.repeat(128)]) {
        const unknown = await get(`/api/staff/clients/${uid}`);
        expect(unknown.statusCode).toBe(404);
        expect(unknown.json().error.message).toContain(uid);
      }
      // A Firebase uid is at most 128 characters: longer is the route's own 400, with a message.
      const long = await get(`/api/staff/clients/${'x'.repeat(129)}`);
      expect(long.statusCode).toBe(400);
      expect(long.json().error.message).toMatch(/uid/);
    });
  });

  describe('GET /api/staff/requests/:requestId', () => {
    const finals: { id: string; bytes: Buffer }[] = [];

    beforeAll(async () => {
      for (const [i, title] of ['First report', 'Corrected report'].entries()) {
        const bytes = minimalPdf(title, ['Findings']);
        const stored = await t.services.storage.save(bytes, `report-${i}.pdf`);
        const id = randomUUID();
        await t.services.db.insert(files).values({ id, userId: ada.uid, kind: 'final', requestId: ids.done, originalName: `report-${i}.pdf`, createdAt: `2025-04-0${i + 3}T00:00:00Z`, ...stored });
        finals.push({ id, bytes });
      }
      await t.services.db.update(productRequests).set({ finalFileId: finals[1].id }).where(eq(productRequests.id, ids.done));
      await writeAudit(t.services.db, { actor: { uid: staff.uid, email: staff.email }, action: 'deliver', entityType: 'file', entityId: finals[1].id, subjectUid: ada.uid, requestId: ids.done, before: null, after: { fileId: finals[1].id } });
    });

    async function requestPage(id: string): Promise<RequestFile> {
      const res = await get(`/api/staff/requests/${id}`);
      expect(res.statusCode, res.body).toBe(200);
      return RequestFile.parse(res.json().data);
    }

    it('offers exactly the actions the lifecycle allows, for a Pending, a priced and a Done request', async () => {
      const cases = [pending[1].id, ids.awaiting, ids.done];
      const seen: string[][] = [];
      for (const id of cases) {
        const page = await requestPage(id);
        const { request } = page;
        expect(page.allowedActions).toEqual(allowedActions({ status: request.status, hasFinalFile: request.finalFileId !== null, contractSigned: request.contractSigned, leftToPay: request.leftToPay }));
        seen.push(page.allowedActions);
      }
      expect(seen[0]).toEqual(['price', 'reject']);
      expect(seen[1]).toEqual(['start', 'payment', 'contract', 'reject']);
      expect(seen[2]).toEqual(['deliver']);
    });

    it('holds the client, the final files newest first, the deals, refunds and history', async () => {
      const page = await requestPage(ids.done);
      expect(page.request).toMatchObject({ id: ids.done, status: 'Done', finalFileId: finals[1].id, leftToPay: 0 });
      expect(page.client).toEqual({ uid: ada.uid, email: ada.email, name: 'Ada Lovelace' });
      expect(page.finalFiles.map((f) => f.id)).toEqual([finals[1].id, finals[0].id]);
      expect(page.finalFiles[0]).toMatchObject({ size: finals[1].bytes.length, sha256: sha256(finals[1].bytes), contentType: 'application/pdf' });
      expect(page.evidence).toEqual([]);
      expect(page.deals).toHaveLength(1);
      expect(page.refunds).toEqual([expect.objectContaining({ processId: ids.done, status: 'requested', paid: 500, version: 1 })]);
      expect(page.notes.map((n) => n.body)).toEqual(['Asked for a call back']);
      expect(page.history).toEqual([expect.objectContaining({ action: 'deliver', requestId: ids.done })]);
    });

    it('holds the evidence of the request', async () => {
      const withEvidence = defined(pending.find((r) => r.userId === ada.uid), "a request of Ada's").id;
      const page = await requestPage(withEvidence);
      expect(page.evidence.map((f) => f.name)).toEqual(['chat.txt']);
      expect(page.finalFiles).toEqual([]);
      expect(page.notes).toEqual([]);
    });

    it('is 404 for an unknown or malformed id', async () => {
      for (const id of [randomUUID(), 'not-a-uuid', "1'; drop table users; --"]) {
        const res = await get(`/api/staff/requests/${encodeURIComponent(id)}`);
        expect(res.statusCode, id).toBe(404);
      }
    });

    it("keeps the opened request in the staff member's offline replica, under its client", async () => {
      await requestPage(ids.carolDone);
      await requestPage(ids.carolDone);
      const rows = await t.services.db
        .select()
        .from(staffWatches)
        .where(and(eq(staffWatches.staffUid, staff.uid), eq(staffWatches.kind, 'request')));
      expect(rows.filter((w) => w.entityId === ids.carolDone).map((w) => w.subjectUid)).toEqual([carol.uid]);
    });
  });

  describe('GET /api/staff/files/:fileId', () => {
    it('returns the exact bytes of any stored file, never cached', async () => {
      const bytes = minimalPdf('Invoice 1', ['Paid']);
      const stored = await t.services.storage.save(bytes, 'invoice "1".pdf');
      const [row] = await t.services.db.insert(files).values({ userId: bob.uid, kind: 'invoice', originalName: 'invoice "1".pdf', ...stored }).returning();
      const res = await get(`/api/staff/files/${row.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(bytes)).toBe(true);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(Number(res.headers['content-length'])).toBe(bytes.length);
      expect(res.headers['content-disposition']).toContain('attachment; filename="invoice _1_.pdf"');
      expect(res.headers['cache-control']).toBe('private, no-store');
    });

    it('serves evidence and final files of any client', async () => {
      const [evidence] = await t.services.db.select().from(files).where(eq(files.kind, 'attachment'));
      const res = await get(`/api/staff/files/${evidence.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('Screenshot of the chat, as text.\n');
    });

    it('is 404 for an unknown or malformed id, or bytes that are gone', async () => {
      for (const id of [randomUUID(), 'nope']) expect((await get(`/api/staff/files/${id}`)).statusCode).toBe(404);
      const [row] = await t.services.db.insert(files).values({ userId: bob.uid, kind: 'general', originalName: 'gone.txt', storedName: 'gone.txt', contentType: 'text/plain', size: 1, sha256: 'x' }).returning();
      const res = await get(`/api/staff/files/${row.id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe('File not found');
    });
  });

  describe('team (admins only)', () => {
    it('lists every staff member and admin by email', async () => {
      const res = await get('/api/staff/team', admin);
      expect(res.statusCode, res.body).toBe(200);
      const team = TeamMember.array().parse(res.json().data);
      const emails = team.map((m) => m.email);
      expect(emails).toEqual([...emails].sort());
      expect(new Set(team.map((m) => m.uid))).toEqual(new Set([staff.uid, admin.uid, 'staff-only', 'admin-only']));
      expect(team.find((m) => m.uid === 'admin-only')).toEqual({ uid: 'admin-only', email: 'boss@team.example', name: 'boss@team.example', isAdmin: true, isStaff: true, disabled: false, version: 1 });
    });

    it('looks a user up by email, in any case', async () => {
      const res = await get(`/api/staff/users/lookup?email=${encodeURIComponent('  COUNTESS@Example.com ')}`, admin);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toEqual({ uid: ada.uid, email: ada.email, name: 'Ada Lovelace', isAdmin: false, isStaff: false, disabled: false, version: 1 });
      const missing = await get('/api/staff/users/lookup?email=nobody@example.com', admin);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.message).toContain('nobody@example.com');
      for (const qs of ['', 'email=', 'email=a%00b@example.com', `email=${'a'.repeat(255)}`]) expect((await get(`/api/staff/users/lookup?${qs}`, admin)).statusCode, qs).toBe(400);
    });

    it('is refused to staff who are not admins', async () => {
      for (const url of ['/api/staff/team', `/api/staff/users/lookup?email=${ada.email}`]) expect((await get(url, staff)).statusCode).toBe(403);
    });
  });

  it('refuses clients and leads with 403 on every read', async () => {
    const urls = ['/api/staff/queue', `/api/staff/clients/${ada.uid}`, `/api/staff/requests/${ids.done}`, `/api/staff/files/${randomUUID()}`, '/api/staff/team', '/api/staff/users/lookup?email=a@b.c'];
    for (const user of [client, lead]) {
      for (const url of urls) {
        const res = await get(url, user);
        expect(res.statusCode, `${url} as ${user.email}`).toBe(403);
        expect(res.body).not.toContain('countess');
      }
    }
  });

  it('lets an admin read the staff workspace too', async () => {
    const tabs: QueueTab[] = ['leads', 'threads', 'refunds', 'pending'];
    for (const tab of tabs) expect((await get(`/api/staff/queue?tab=${tab}`, admin)).statusCode).toBe(200);
  });

  it('describes the staff reads in the OpenAPI document', async () => {
    const paths = Object.keys((await t.app.inject({ url: '/api/docs' })).json().paths);
    for (const path of ['/api/staff/queue', '/api/staff/clients/{uid}', '/api/staff/requests/{requestId}', '/api/staff/files/{fileId}', '/api/staff/team', '/api/staff/users/lookup']) {
      expect(paths).toContain(path);
    }
  });
});

/** The ids sorted by a text key (an ISO time with microseconds, then the id), as the queue sorts them. */
function sortedBy<Row extends { id: string }>(rows: Row[], key: (row: Row) => string): string[] {
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)).map((r) => r.id);
}

/** The ids in the queue's order: created_at, then id (uuids compare as their lowercase hex text). */
function oldestFirst(rows: RequestRow[]): string[] {
  const key = (r: RequestRow) => `${r.createdAt} ${r.id}`;
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)).map((r) => r.id);
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
