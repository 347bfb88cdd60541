import { eq, sql } from 'drizzle-orm';
import { bigint, pgTable, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createTestApp, type TestApp } from '../test-helper.ts';
import { createSignedLinks } from '../files/signed-links.ts';
import { feedSources, nextChangesOf, readChangesOf, serializedSource } from './feed-sources.ts';

/** A table of the test's own, declared as the recipe says (docs/architecture.md, "A new synced table"). */
const bookmarks = pgTable('test_bookmarks', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  label: text('label').notNull(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
});
const withBookmarks = {
  ...feedSources,
  bookmarks: serializedSource({ table: bookmarks, owned: (uid) => eq(bookmarks.userId, uid), serialize: (row) => ({ id: row.id, label: row.label }) }),
};

describe.each(backends())('a synced table declared on the server (%s)', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend });
    await t.services.db.execute(sql`CREATE TABLE test_bookmarks (id text PRIMARY KEY, user_id text NOT NULL, label text NOT NULL, seq bigint NOT NULL)`);
  });
  afterAll(() => t?.close());

  it("GET /api/sync's two steps, derived from the declarations, bring its rows of the user only, in seq order", async () => {
    const [a, b] = await Promise.all([t.user(), t.user()]);
    // Far above every seq the app's own rows have, so the page is the bookmarks alone.
    const base = 9_000_000_000;
    await t.services.db.insert(bookmarks).values([
      { id: `${a.uid}-2`, userId: a.uid, label: 'second', seq: base + 3 },
      { id: `${a.uid}-1`, userId: a.uid, label: 'first', seq: base + 1 },
      { id: `${b.uid}-1`, userId: b.uid, label: 'not yours', seq: base + 2 },
    ]);
    const cursor = String(base);

    const next = await nextChangesOf(withBookmarks, t.services.db, a.uid, cursor, 10);
    expect(next).toEqual({ tables: new Set(['bookmarks']), upper: String(base + 3), hasMore: false });
    const rows = await readChangesOf(withBookmarks, t.services.db, a.uid, cursor, next.upper!, next.tables, { links: createSignedLinks('x'.repeat(32)) });
    expect(rows.get('bookmarks')).toEqual([
      { id: `${a.uid}-1`, label: 'first' },
      { id: `${a.uid}-2`, label: 'second' },
    ]);

    // Cut at the limit: the change after the page only says that more follow.
    const one = await nextChangesOf(withBookmarks, t.services.db, a.uid, cursor, 1);
    expect(one).toEqual({ tables: new Set(['bookmarks']), upper: String(base + 1), hasMore: true });
  });
});
