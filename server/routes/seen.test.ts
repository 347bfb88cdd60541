import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactReplies, contactRequests, productRequests, seenMarks } from '../db/schema.ts';
import { backends, createTestApp, postgresSkipReason, type TestApp, type TestUser } from '../test-helper.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[seen.test] PostgreSQL run skipped: ${skip}`);

describe.each(backends())('PUT /api/seen (%s)', (backend) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  /** Alice's thread with two staff replies, and a second thread of hers with one. */
  let thread: string;
  let firstReply: string;
  let secondReply: string;
  let otherThreadReply: string;
  /** Alice's request, last changed at 12:00:00.123456. */
  let request: string;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    alice = await t.user({ client: true });
    bob = await t.user({ client: true });
    const db = t.services.db;
    const newThread = async (createdAt: string) =>
      (await db.insert(contactRequests).values({ userId: alice.uid, subject: 'Refund', message: 'Where is my money?', createdAt }).returning())[0].id;
    const newReply = async (threadId: string, createdAt: string) =>
      (await db.insert(contactReplies).values({ threadId, userId: alice.uid, author: 'staff', authorUid: bob.uid, message: 'We are on it', createdAt }).returning())[0].id;
    thread = await newThread('2026-01-01T10:00:00.000Z');
    firstReply = await newReply(thread, '2026-01-01T10:05:00.000Z');
    secondReply = await newReply(thread, '2026-01-01T10:10:00.000Z');
    otherThreadReply = await newReply(await newThread('2026-01-02T09:00:00.000Z'), '2026-01-02T09:30:00.000Z');
    request = (
      await db
        .insert(productRequests)
        .values({ userId: alice.uid, toolId: 'bank-dispute', productRequestType: 'BANK_DISPUTE', updatedAt: '2026-01-03T12:00:00.123456Z' })
        .returning()
    )[0].id;
  });
  afterAll(() => t?.close());

  const seen = (user: TestUser | null, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'PUT', url: '/api/seen', headers: { ...(user?.headers ?? {}), ...headers }, payload: payload as object });
  const markOf = async (user: TestUser, kind: 'thread' | 'request', id: string) =>
    (await t.services.db.select().from(seenMarks).where(and(eq(seenMarks.userId, user.uid), eq(seenMarks.subjectKind, kind), eq(seenMarks.subjectId, id))))[0];

  it("marks a thread seen up to its first message, then up to the reply shown, and never back to an older one", async () => {
    const opened = await seen(alice, { kind: 'thread', id: thread, replyId: null });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toEqual({ data: { kind: 'thread', id: thread, seenUpTo: '2026-01-01T10:00:00.000Z' } });

    const newest = await seen(alice, { kind: 'thread', id: thread, replyId: secondReply });
    expect(newest.json().data.seenUpTo).toBe('2026-01-01T10:10:00.000Z');

    // An older device's late call: the answer is the mark as it stands, and the mark stays.
    const late = await seen(alice, { kind: 'thread', id: thread, replyId: firstReply });
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json().data.seenUpTo).toBe('2026-01-01T10:10:00.000Z');
    const opening = await seen(alice, { kind: 'thread', id: thread, replyId: null });
    expect(opening.json().data.seenUpTo).toBe('2026-01-01T10:10:00.000Z');
    expect(Date.parse((await markOf(alice, 'thread', thread)).seenUpTo)).toBe(Date.parse('2026-01-01T10:10:00.000Z'));
  });

  it("marks a request seen up to the version shown, never past the row as it is, and only forward", async () => {
    // The device shows milliseconds; the row keeps microseconds: the mark is the earlier of the two.
    const shown = await seen(alice, { kind: 'request', id: request, updatedAt: '2026-01-03T12:00:00.123Z' });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json()).toEqual({ data: { kind: 'request', id: request, seenUpTo: '2026-01-03T12:00:00.123Z' } });
    // A device claiming a later version than exists marks no more than the row.
    const ahead = await seen(alice, { kind: 'request', id: request, updatedAt: '2027-06-01T00:00:00.000+02:00' });
    expect(ahead.json().data.seenUpTo).toBe('2026-01-03T12:00:00.123Z');
    expect((await markOf(alice, 'request', request)).seenUpTo).toMatch(/12:00:00\.123456/);
    const older = await seen(alice, { kind: 'request', id: request, updatedAt: '2026-01-03T11:00:00.000Z' });
    expect(older.json().data.seenUpTo).toBe('2026-01-03T12:00:00.123Z');
  });

  it("is 404 for another user's thread or request, a reply of another thread, and ids that exist nowhere", async () => {
    for (const body of [
      { kind: 'thread', id: thread, replyId: null },
      { kind: 'thread', id: thread, replyId: secondReply },
      { kind: 'request', id: request, updatedAt: '2026-01-03T12:00:00.123Z' },
    ]) {
      const res = await seen(bob, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
    expect((await seen(alice, { kind: 'thread', id: thread, replyId: otherThreadReply })).statusCode).toBe(404);
    expect((await seen(alice, { kind: 'thread', id: randomUUID(), replyId: null })).statusCode).toBe(404);
    expect((await seen(alice, { kind: 'request', id: randomUUID(), updatedAt: '2026-01-03T12:00:00.123Z' })).statusCode).toBe(404);
    expect(await t.services.db.select().from(seenMarks).where(eq(seenMarks.userId, bob.uid))).toEqual([]);
  });

  it('refuses a bad body with 400 naming the field, and a caller without a token with 401', async () => {
    const cases: [unknown, RegExp][] = [
      [{ kind: 'file', id: thread }, /kind/],
      [{ kind: 'thread', id: thread }, /replyId/],
      [{ kind: 'thread', id: 'not-a-uuid', replyId: null }, /id must be a thread id/],
      [{ kind: 'request', id: request, updatedAt: 'yesterday' }, /updatedAt/],
      [{ kind: 'request', id: request, updatedAt: '2026-01-03T12:00:00.123Z', extra: 1 }, /extra|Unrecognized/i],
    ];
    for (const [body, message] of cases) {
      const res = await seen(alice, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.message, JSON.stringify(body)).toMatch(message);
    }
    expect((await seen(null, { kind: 'thread', id: thread, replyId: null })).statusCode).toBe(401);
  });

  it('replays the same Idempotency-Key, and refuses it with another body', async () => {
    const key = `seen-${randomUUID()}`;
    const first = await seen(alice, { kind: 'thread', id: thread, replyId: secondReply }, { 'idempotency-key': key });
    expect(first.statusCode, first.body).toBe(200);
    const replay = await seen(alice, { kind: 'thread', id: thread, replyId: secondReply }, { 'idempotency-key': key });
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    expect((await seen(alice, { kind: 'thread', id: thread, replyId: firstReply }, { 'idempotency-key': key })).statusCode).toBe(422);
  });

  it('is in the OpenAPI document', async () => {
    const paths = (await t.app.inject({ url: '/api/docs' })).json().paths;
    expect(Object.keys(paths['/api/seen'] ?? {})).toEqual(['put']);
  });
});
