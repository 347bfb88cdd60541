import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SyncPage } from '../../domain/sync.ts';
import { contactReplies, contactRequests } from '../db/schema.ts';
import { backends, createTestApp, postgresSkipReason, type TestApp, type TestUser } from '../test-helper.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[contact.test] PostgreSQL run skipped: ${skip}`);

describe.each(backends())('contact (%s)', (backend) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    [alice, bob] = await Promise.all([t.user({ client: true }), t.user()]);
  });
  afterAll(() => t?.close());

  const send = (user: TestUser | null, payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/contact', headers: user?.headers ?? {}, payload: payload as object });
  const list = async (user: TestUser) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/contact', headers: user.headers });
    expect(res.statusCode).toBe(200);
    return res.json().data as { id: string; subject: string; message: string; createdAt: string; status: string }[];
  };
  const replyTo = (user: TestUser | null, threadId: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `/api/contact/${threadId}/replies`, headers: { ...(user?.headers ?? {}), ...headers }, payload: payload as object });
  const open = (user: TestUser | null, threadId: string) => t.app.inject({ method: 'GET', url: `/api/contact/${threadId}`, headers: user?.headers ?? {} });
  const newThread = async (user: TestUser, subject = 'Where is my report?') => {
    const res = await send(user, { contactRequest: { subject, message: 'First message' } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  };
  const threadRow = async (id: string) => (await t.services.db.select().from(contactRequests).where(eq(contactRequests.id, id)))[0];

  describe('contact requests', () => {
    it('need a token', async () => {
      expect((await send(null, { contactRequest: { subject: 'a', message: 'b' } })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: '/api/contact' })).statusCode).toBe(401);
    });

    it('are created with 201 and listed newest first, to their author only', async () => {
      const first = await send(alice, { contactRequest: { subject: 'Refund question', message: 'When will I hear back?' } });
      expect(first.statusCode).toBe(201);
      expect(first.json().data).toMatchObject({ id: expect.any(String), subject: 'Refund question', message: 'When will I hear back?' });
      expect(Number.isNaN(Date.parse(first.json().data.createdAt))).toBe(false);
      const second = await send(alice, { contactRequest: { subject: 'Second', message: 'More details' } });
      expect(second.statusCode).toBe(201);

      const mine = await list(alice);
      expect(mine.map((c) => c.id)).toEqual([second.json().data.id, first.json().data.id]);
      // A new thread is open and waits for our first answer.
      expect(mine[0].status).toBe('open');
      expect(first.json().data.status).toBe('open');
      const row = await threadRow(first.json().data.id);
      expect(row).toMatchObject({ status: 'open', version: 1 });
      expect(row.awaitingSince).not.toBeNull();
      const theirs = await list(bob);
      expect(theirs).toEqual([]);
    });

    it('refuse empty, missing and over-long fields with a message', async () => {
      const cases: [unknown, RegExp][] = [
        [{ contactRequest: { subject: '  ', message: 'x' } }, /subject/],
        [{ contactRequest: { subject: 'x', message: '' } }, /message/],
        [{ contactRequest: { subject: 'x' } }, /message/],
        [{ contactRequest: { subject: 'x'.repeat(151), message: 'x' } }, /subject/],
        [{ contactRequest: { subject: 'x', message: 'x'.repeat(2001) } }, /message/],
        [{}, /contactRequest/],
      ];
      for (const [payload, field] of cases) {
        const res = await send(alice, payload);
        expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
        expect(res.json().error.message).toMatch(field);
      }
      expect((await list(bob)).length).toBe(0);
    });
  });

  describe('a conversation', () => {
    it('the owner\'s reply is 201, and shows in the thread and in the sync feed', async () => {
      const id = await newThread(alice);
      const { cursor } = SyncPage.parse((await t.app.inject({ url: '/api/sync', headers: alice.headers })).json().data);
      const res = await replyTo(alice, id, { reply: { message: '  Any news?  ' } });
      expect(res.statusCode, res.body).toBe(201);
      const reply = res.json().data;
      expect(reply).toEqual({ id: expect.any(String), threadId: id, author: 'client', message: 'Any news?', createdAt: expect.any(String) });
      // The staff member's uid is never part of the client's view, and neither is the author's.
      expect(res.body).not.toContain(alice.uid);

      const thread = await open(alice, id);
      expect(thread.statusCode, thread.body).toBe(200);
      expect(thread.json().data).toEqual({
        thread: { id, subject: 'Where is my report?', message: 'First message', createdAt: expect.any(String), status: 'open' },
        replies: [reply],
      });

      const page = SyncPage.parse((await t.app.inject({ url: `/api/sync?cursor=${cursor}`, headers: alice.headers })).json().data);
      expect(page.contactReplies).toEqual([reply]);
    });

    it('lists replies from both sides, oldest first', async () => {
      const id = await newThread(alice);
      const [staffReply] = await t.services.db
        .insert(contactReplies)
        .values({ threadId: id, userId: alice.uid, author: 'staff', authorUid: bob.uid, message: 'We are on it.' })
        .returning();
      // The client's answer comes after the staff reply, whatever the clocks say within one transaction.
      const res = await replyTo(alice, id, { reply: { message: 'Thanks' } });
      expect(res.statusCode).toBe(201);
      const { replies } = (await open(alice, id)).json().data;
      expect(replies.map((r: { id: string }) => r.id)).toEqual([staffReply.id, res.json().data.id]);
      expect(replies[0]).toEqual({ id: staffReply.id, threadId: id, author: 'staff', message: 'We are on it.', createdAt: expect.any(String) });
      expect(JSON.stringify(replies)).not.toContain(bob.uid);
    });

    it('someone else\'s thread, an unknown id or a malformed one is 404 for reading and replying', async () => {
      const id = await newThread(alice);
      for (const threadId of [id, randomUUID(), 'not-a-uuid', "1'%20or%201=1"]) {
        for (const res of [await open(bob, threadId), await replyTo(bob, threadId, { reply: { message: 'Hi' } })]) {
          expect(res.statusCode, threadId).toBe(404);
          expect(res.json().error).toEqual({ code: 'NOT_FOUND', message: 'Conversation not found' });
        }
      }
      const [n] = await t.services.db.select({ n: count() }).from(contactReplies).where(eq(contactReplies.threadId, id));
      expect(Number(n.n)).toBe(0);
    });

    it('needs a token', async () => {
      const id = await newThread(alice);
      expect((await open(null, id)).statusCode).toBe(401);
      expect((await replyTo(null, id, { reply: { message: 'Hi' } })).statusCode).toBe(401);
    });

    it('a reply reopens a closed thread, waits again, and bumps the version once', async () => {
      const id = await newThread(alice);
      await t.services.db.update(contactRequests).set({ status: 'closed', awaitingSince: null }).where(eq(contactRequests.id, id));
      const res = await replyTo(alice, id, { reply: { message: 'It is not solved yet.' } });
      expect(res.statusCode).toBe(201);
      const reopened = await threadRow(id);
      expect(reopened).toMatchObject({ status: 'open', version: 2 });
      expect(reopened.awaitingSince).not.toBeNull();
      expect((await open(alice, id)).json().data.thread.status).toBe('open');

      // An open thread already waiting keeps its older wait and its version.
      const again = await replyTo(alice, id, { reply: { message: 'Hello?' } });
      expect(again.statusCode).toBe(201);
      expect(await threadRow(id)).toMatchObject({ status: 'open', version: 2, awaitingSince: reopened.awaitingSince });
    });

    it('a reply after staff answered makes the thread wait again, without a version bump', async () => {
      const id = await newThread(alice);
      await t.services.db.update(contactRequests).set({ awaitingSince: null }).where(eq(contactRequests.id, id));
      expect((await replyTo(alice, id, { reply: { message: 'One more thing' } })).statusCode).toBe(201);
      const row = await threadRow(id);
      expect(row).toMatchObject({ status: 'open', version: 1 });
      expect(row.awaitingSince).not.toBeNull();
    });

    it('the same Idempotency-Key sent twice stores one reply', async () => {
      const id = await newThread(alice);
      const headers = { 'idempotency-key': `reply-${randomUUID()}` };
      const first = await replyTo(alice, id, { reply: { message: 'Sent twice' } }, headers);
      const second = await replyTo(alice, id, { reply: { message: 'Sent twice' } }, headers);
      expect(first.statusCode).toBe(201);
      expect(second.statusCode).toBe(201);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.json()).toEqual(first.json());
      expect(first.json().data.commandId).toBe(headers['idempotency-key']);
      const [n] = await t.services.db.select({ n: count() }).from(contactReplies).where(eq(contactReplies.threadId, id));
      expect(Number(n.n)).toBe(1);
    });

    it('refuses an empty, over-long or NUL-holding message and unknown fields, naming the field', async () => {
      const id = await newThread(alice);
      const cases: [unknown, RegExp][] = [
        [{ reply: { message: '   ' } }, /message/],
        [{ reply: { message: '' } }, /message/],
        [{ reply: {} }, /message/],
        [{ reply: { message: 'x'.repeat(2001) } }, /message/],
        // PostgreSQL text cannot hold a NUL: a 400 naming the field, not a failed insert.
        [{ reply: { message: 'a\u0000b' } }, /message/],
        [{ reply: { message: 'ok', author: 'staff' } }, /author/],
        [{ reply: { message: 'ok' }, threadId: id }, /threadId/],
        [{}, /reply/],
      ];
      for (const [payload, field] of cases) {
        const res = await replyTo(alice, id, payload);
        expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
        expect(res.json().error.message).toMatch(field);
      }
      const [n] = await t.services.db.select({ n: count() }).from(contactReplies).where(eq(contactReplies.threadId, id));
      expect(Number(n.n)).toBe(0);
    });
  });

  describe('POST /api/user/not-crm-exists', () => {
    const check = (email: unknown, remoteAddress: string) =>
      t.app.inject({ method: 'POST', url: '/api/user/not-crm-exists', remoteAddress, payload: { email } });

    it('answers the same for an email with an account and one without, without a token', async () => {
      const known = await check(alice.email, '10.0.0.1');
      const knownUpper = await check(alice.email.toUpperCase(), '10.0.0.1');
      const unknown = await check('nobody-here@test.example', '10.0.0.1');
      for (const res of [known, knownUpper, unknown]) {
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ data: { received: true } });
      }
      expect(unknown.body).toBe(known.body);
      expect(unknown.headers['content-type']).toBe(known.headers['content-type']);
      expect(unknown.headers['content-length']).toBe(known.headers['content-length']);
    });

    it('refuses an invalid email with 400', async () => {
      for (const email of ['not-an-email', '', 42]) {
        const res = await check(email, '10.0.0.2');
        expect(res.statusCode).toBe(400);
        expect(res.json().error.message).toMatch(/email/);
      }
    });

    it('answers 429 in the error shape after 5 calls a minute from one address', async () => {
      // The windows are fixed minutes: the six calls are made at one frozen instant, so they cannot
      // straddle a minute boundary (only Date is faked; the database keeps its own clock).
      vi.useFakeTimers({ toFake: ['Date'], now: Math.floor(Date.now() / 60_000) * 60_000 + 60_000 + 5_000 });
      try {
        for (let i = 0; i < 5; i++) expect((await check(`x${i}@test.example`, '10.0.0.3')).statusCode).toBe(200);
        const limited = await check(alice.email, '10.0.0.3');
        expect(limited.statusCode).toBe(429);
        expect(limited.json()).toEqual({ error: { code: 'RATE_LIMITED', message: expect.stringMatching(/Too many requests/) } });
        expect(limited.headers['retry-after']).toBeDefined();
        // Another address is not affected.
        expect((await check(alice.email, '10.0.0.4')).statusCode).toBe(200);
      } finally {
        vi.useRealTimers();
      }
    });
  });
});
