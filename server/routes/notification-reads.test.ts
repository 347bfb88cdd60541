import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countUnread } from '../../domain/notification-reads.ts';
import { SyncPage } from '../../domain/sync.ts';
import { backends, createTestApp, postgresSkipReason, type TestApp, type TestUser } from '../test-helper.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[notification-reads.test] PostgreSQL run skipped: ${skip}`);

describe.each(backends())('notification read state (%s)', (backend) => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    admin = await t.user({ admin: true });
  });
  afterAll(() => t?.close());

  const send = async (to: TestUser | null, message: string) => {
    const res = await t.app.inject({ method: 'POST', url: to ? `/api/notification/${to.uid}` : '/api/notification', headers: admin.headers, payload: { notification: { message } } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; createdAt: string };
  };

  const markRead = (user: TestUser, notificationId: string, key?: string) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/notifications/read',
      headers: { ...user.headers, ...(key ? { 'idempotency-key': key } : {}) },
      payload: { notificationId },
    });

  /** What the user's device learns through the sync feed: every notification and the marker, and its unread count. */
  async function replica(user: TestUser) {
    const pages: SyncPage[] = [];
    let cursor = '0';
    for (;;) {
      const res = await t.app.inject({ method: 'GET', url: `/api/sync?cursor=${cursor}&limit=3`, headers: user.headers });
      expect(res.statusCode, res.body).toBe(200);
      const page = SyncPage.parse(res.json().data);
      pages.push(page);
      cursor = page.cursor;
      if (!page.hasMore) break;
    }
    const notifications = pages.flatMap((p) => p.notifications);
    const markers = pages.flatMap((p) => p.notificationReads);
    expect(markers.every((m) => m.userId === user.uid)).toBe(true);
    const readUpTo = markers.at(-1)?.readUpTo;
    return { notifications, readUpTo, unread: countUnread(notifications, readUpTo), cursor };
  }

  it('counts what came after the account as unread, and marking the newest shown reads it and every older one', async () => {
    const alice = await t.user({ client: true });
    const sent = [];
    for (const n of [1, 2, 3]) sent.push(await send(alice, `For Alice #${n}`));
    const before = await replica(alice);
    expect(before.readUpTo).toBeDefined();
    expect(before.unread).toBe(3);

    const res = await markRead(alice, sent[2].id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ userId: alice.uid, readUpTo: sent[2].createdAt });

    // The marker comes back through the feed (it moved above the device's cursor), and nothing is unread.
    const next = await t.app.inject({ method: 'GET', url: `/api/sync?cursor=${before.cursor}`, headers: alice.headers });
    expect(SyncPage.parse(next.json().data).notificationReads).toEqual([expect.objectContaining({ readUpTo: sent[2].createdAt })]);
    expect((await replica(alice)).unread).toBe(0);

    // An older notification (a late command from another device) never moves the marker back.
    const older = await markRead(alice, sent[0].id);
    expect(older.statusCode).toBe(200);
    expect(older.json().data.readUpTo).toBe(sent[2].createdAt);

    // A new one is unread again.
    await send(alice, 'For Alice #4');
    expect((await replica(alice)).unread).toBe(1);
  });

  it("is kept per user: one user's reading changes nobody else's, and another user's notification is 404", async () => {
    const [carol, dave] = await Promise.all([t.user({ client: true }), t.user({ client: true })]);
    const forCarol = await send(carol, 'For Carol');
    const forDave = await send(dave, 'For Dave');
    const general = await send(null, `General ${Math.random()}`);
    expect((await replica(dave)).unread).toBe(2);

    expect((await markRead(carol, general.id)).statusCode).toBe(200);
    expect((await replica(carol)).unread).toBe(0);
    // Dave read nothing: his two are still unread, and his feed carries no marker of Carol's (checked in replica()).
    expect((await replica(dave)).unread).toBe(2);

    const foreign = await markRead(carol, forDave.id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toEqual({ code: 'NOT_FOUND', message: `Notification ${forDave.id} not found` });
    expect((await replica(dave)).unread).toBe(2);

    const unknown = await markRead(carol, '00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    const bad = await markRead(carol, 'not-an-id');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/notificationId/);
    const anonymous = await t.app.inject({ method: 'PUT', url: '/api/notifications/read', payload: { notificationId: forCarol.id } });
    expect(anonymous.statusCode).toBe(401);
  });

  it('replays a resent command from its Idempotency-Key, and refuses the key for another body', async () => {
    const erin = await t.user({ client: true });
    const [first, second] = [await send(erin, 'One'), await send(erin, 'Two')];
    const key = `read-${crypto.randomUUID()}`;
    const original = await markRead(erin, second.id, key);
    expect(original.statusCode).toBe(200);
    const replay = await markRead(erin, second.id, key);
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(original.json());
    const reused = await markRead(erin, first.id, key);
    expect(reused.statusCode).toBe(422);
    expect((await replica(erin)).unread).toBe(0);
  });

  it('does not count general notifications sent before an account existed as unread for it', async () => {
    const veteran = await t.user({ client: true });
    const old = await send(null, `Before the newcomer ${Math.random()}`);
    const newcomer = await t.user({ client: true });

    const fresh = await replica(newcomer);
    // Still listed (it is general), but read.
    expect(fresh.notifications.map((n) => n.id)).toContain(old.id);
    expect(fresh.unread).toBe(0);
    // Someone who had the account then has it unread.
    const seasoned = await replica(veteran);
    expect(seasoned.notifications.map((n) => n.id)).toContain(old.id);
    expect(countUnread(seasoned.notifications.filter((n) => n.id === old.id), seasoned.readUpTo)).toBe(1);

    // One sent after the newcomer's account is unread for them.
    await send(null, `After the newcomer ${Math.random()}`);
    expect((await replica(newcomer)).unread).toBe(1);
  });
});
