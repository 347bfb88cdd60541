import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncPage } from '../../domain/sync.ts';
import { feedHead, hasNewer } from './change-heads.ts';
import { databaseBefore } from '../db/stepwise-migrations.ts';
import { businessSettings, contactReplies, contactRequests, deals, files, notificationReads, notifications, productRequests, refunds, staffNotes, staffWatches, trackingLinks, users } from '../db/schema.ts';
import { SYNCED_FILE_KINDS } from './feed-sources.ts';
import { demoBusinessSettings } from '../seed/seed-data.ts';
import { backends, createTestApp, freshPostgresUrl, type TestApp, type TestUser } from '../test-helper.ts';
import { centsFromDollars } from '../../domain/money.ts';

const TOOL = 'TRACK_MASTER';

describe.each(backends())('the empty pull\'s "anything new?" from change_heads (%s)', (backend) => {
  let t: TestApp;
  let changed: (uid: string, cursor: string) => Promise<boolean>;
  beforeAll(async () => {
    t = await createTestApp({ backend });
    // The head as the auth plugin's statement reads it with the caller's roles, and the route's comparison.
    changed = async (uid, cursor) => {
      const [row] = await t.services.db.select({ head: feedHead(users.uid) }).from(users).where(eq(users.uid, uid));
      return hasNewer(row.head, cursor);
    };
  });
  afterAll(() => t?.close());

  /** The whole feed from 0, through the route's full query (the per-table union, not the heads): its last cursor is the feed's latest seq. */
  async function latestSeq(user: TestUser): Promise<string> {
    let cursor = '0';
    for (;;) {
      const res = await t.app.inject({ method: 'GET', url: `/api/sync?cursor=${cursor}&limit=5000`, headers: user.headers });
      expect(res.statusCode, res.body).toBe(200);
      const page = SyncPage.parse(res.json().data);
      cursor = page.cursor;
      if (!page.hasMore) return cursor;
    }
  }

  /** The head agrees with the feed: nothing above its latest seq, something above the seq before it. */
  async function expectHeadAtFeed(user: TestUser) {
    const latest = await latestSeq(user);
    expect(await changed(user.uid, latest)).toBe(false);
    expect(await changed(user.uid, String(BigInt(latest) - 1n))).toBe(true);
  }

  async function request(uid: string) {
    const [row] = await t.services.db
      .insert(productRequests)
      .values({ userId: uid, toolId: 'funds-tracking', productRequestType: TOOL, totalCents: centsFromDollars(100), requestDetails: {} })
      .returning();
    return row;
  }

  it('a write to each table of the feed is news for its user only, and the head is the feed\'s latest seq', async () => {
    const [a, b] = await Promise.all([t.user(), t.user()]);
    const db = t.services.db;
    const req = await request(a.uid);
    const [thread] = await db.insert(contactRequests).values({ userId: a.uid, subject: 's', message: 'm' }).returning();
    const writes: Array<[string, () => Promise<unknown>]> = [
      ['profile', () => db.update(users).set({ firstName: 'Ada' }).where(eq(users.uid, a.uid))],
      ['request', () => request(a.uid)],
      ['request update', () => db.update(productRequests).set({ totalCents: centsFromDollars(200) }).where(eq(productRequests.id, req.id))],
      ['deal', () => db.insert(deals).values({ requestId: req.id, userId: a.uid, productRequestType: TOOL, amountCents: centsFromDollars(50) })],
      ['refund', () => db.insert(refunds).values({ userId: a.uid, requestId: req.id, tool: TOOL, refundRequestType: 'FULL', reason: 'r' })],
      ['notification', () => db.insert(notifications).values({ userId: a.uid, message: 'for you' })],
      ['contact request', () => db.insert(contactRequests).values({ userId: a.uid, subject: 's2', message: 'm' })],
      ['contact reply', () => db.insert(contactReplies).values({ threadId: thread.id, userId: a.uid, author: 'staff', authorUid: 'staff-uid', message: 'answer' })],
      ['general file', () => db.insert(files).values({ userId: a.uid, kind: 'general', originalName: 'f.pdf', storedName: 'x', contentType: 'application/pdf', size: 1, sha256: 'h' })],
      ['tracking link', () => db.insert(trackingLinks).values({ requestId: req.id, userId: a.uid, slug: randomBytes(16).toString('base64url'), label: 'link' })],
      ['read marker', () => db.update(notificationReads).set({ readUpTo: sql`now()` }).where(eq(notificationReads.userId, a.uid))],
    ];
    for (const [what, write] of writes) {
      const [before, other] = await Promise.all([latestSeq(a), latestSeq(b)]);
      expect(await changed(a.uid, before), `${what}: nothing new before it`).toBe(false);
      await write();
      expect(await changed(a.uid, before), `${what}: news for its user`).toBe(true);
      expect(await changed(b.uid, other), `${what}: no news for another user`).toBe(false);
      await expectHeadAtFeed(a);
    }
  });

  it('a general notification and the business settings are news for every user', async () => {
    const [a, b] = await Promise.all([t.user(), t.user()]);
    for (const write of [
      () => t.services.db.insert(notifications).values({ userId: null, message: 'Scheduled maintenance' }),
      () => t.services.db.insert(businessSettings).values(demoBusinessSettings).onConflictDoUpdate({ target: businessSettings.id, set: { bankName: 'Another bank' } }),
    ]) {
      const [ca, cb] = await Promise.all([latestSeq(a), latestSeq(b)]);
      await write();
      expect(await changed(a.uid, ca)).toBe(true);
      expect(await changed(b.uid, cb)).toBe(true);
      await expectHeadAtFeed(a);
      await expectHeadAtFeed(b);
    }
  });

  it('what the feed does not carry is no news: staff notes and watches, files of other kinds', async () => {
    const [client, staff] = await Promise.all([t.user({ client: true }), t.user({ staff: true })]);
    const req = await request(client.uid);
    const cursor = await latestSeq(client);
    await t.services.db.insert(staffNotes).values({ subjectUid: client.uid, requestId: req.id, authorUid: staff.uid, authorEmail: staff.email, body: 'internal' });
    await t.services.db.insert(staffWatches).values({ staffUid: staff.uid, kind: 'client', entityId: client.uid, subjectUid: client.uid });
    const base = { userId: client.uid, originalName: 'x.pdf', storedName: 's', contentType: 'application/pdf', size: 1, sha256: 'h' };
    for (const kind of ['attachment', 'final', 'invoice', ...SYNCED_FILE_KINDS]) {
      const before = await latestSeq(client);
      await t.services.db.insert(files).values({ ...base, kind });
      // The trigger's list of kinds (migration 0015) is the route's SYNCED_FILE_KINDS.
      expect(await changed(client.uid, before), kind).toBe((SYNCED_FILE_KINDS as readonly string[]).includes(kind));
    }
    expect(await changed(client.uid, cursor)).toBe(true);
    await expectHeadAtFeed(client);
  });

  it('a write that stores nothing, or is rolled back, moves no head', async () => {
    const u = await t.user();
    const before = await latestSeq(u);
    // The BEFORE trigger draws a seq for the row that conflicts; only an AFTER trigger sees what was stored.
    await t.services.db.insert(users).values({ uid: u.uid, email: u.email }).onConflictDoNothing();
    await t.services.db
      .transaction(async (tx) => {
        await tx.insert(notifications).values({ userId: u.uid, message: 'never' });
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await changed(u.uid, before)).toBe(false);
  });

  it('an empty pull answers from the heads: nothing new keeps the cursor, a new row comes at once', async () => {
    const u = await t.user();
    const cursor = await latestSeq(u);
    const empty = await t.app.inject({ method: 'GET', url: `/api/sync?cursor=${cursor}`, headers: u.headers });
    expect(empty.json().data).toMatchObject({ cursor, hasMore: false, requests: [], profile: null });
    const row = await request(u.uid);
    const page = SyncPage.parse((await t.app.inject({ method: 'GET', url: `/api/sync?cursor=${cursor}`, headers: u.headers })).json().data);
    expect(page.requests.map((r) => r.id)).toEqual([row.id]);
    expect(page.cursor).toBe(await latestSeq(u));
  });
});

describe.each(backends())('migration 0015 fills change_heads from the rows stored before it (%s)', (backend) => {
  it('each scope\'s head is the latest seq of its feed rows, "*" the latest of everyone\'s', async () => {
    const database = await databaseBefore('0015', backend === 'postgres' ? await freshPostgresUrl() : null);
    try {
      await database.query(sql`INSERT INTO users (uid, email) VALUES ('a', 'a@x.example'), ('b', 'b@x.example')`);
      await database.query(sql`INSERT INTO notifications (user_id, message) VALUES ('a', 'for a'), (NULL, 'general')`);
      await database.query(sql`INSERT INTO files (user_id, kind, original_name, stored_name, content_type, size, sha256) VALUES ('a', 'general', 'f', 's', 'x', 1, 'h')`);
      // A file the feed does not carry, written last: it must not become a's head.
      await database.query(sql`INSERT INTO files (user_id, kind, original_name, stored_name, content_type, size, sha256) VALUES ('a', 'final', 'f', 's', 'x', 1, 'h')`);
      await database.migrateRest();
      // Every user also has a notification read marker (0012) and, from 0020, their notification choices: synced rows
      // made with the user, and for the users already there by the migration, whose heads move with them.
      const expected = await database.query<{ scope: string; seq: string }>(sql`
        SELECT scope, max(seq)::text AS seq FROM (
          SELECT uid AS scope, seq FROM users
          UNION ALL SELECT user_id, seq FROM notification_reads
          UNION ALL SELECT user_id, seq FROM notification_preferences
          UNION ALL SELECT coalesce(user_id, '*'), seq FROM notifications
          UNION ALL SELECT user_id, seq FROM files WHERE kind = 'general'
        ) AS rows GROUP BY scope`);
      expect(expected.map((e) => e.scope).sort()).toEqual(['*', 'a', 'b']);
      const heads = await database.query<{ scope: string; seq: string }>(sql`SELECT scope, seq::text AS seq FROM change_heads`);
      const byScope = (x: { scope: string }, y: { scope: string }) => (x.scope < y.scope ? -1 : 1);
      expect(heads.sort(byScope)).toEqual(expected.sort(byScope));
    } finally {
      await database.close();
    }
  });
});
