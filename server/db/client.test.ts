import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresUrl, postgresSkipReason } from '../test-helper.ts';
import { openDatabase, type Database } from './client.ts';
import { notifications, users } from './schema.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[client.test] PostgreSQL run skipped: ${skip}`);

const open = async (kind: 'pglite' | 'postgres') => (kind === 'pglite' ? openDatabase({}) : openDatabase({ url: await freshPostgresUrl() }));
const kinds = (skip ? ['pglite'] : ['pglite', 'postgres']) as ('pglite' | 'postgres')[];

describe.each(kinds)('openDatabase (%s)', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await open(kind);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('applies the migrations and reports its kind', async () => {
    expect(database.kind).toBe(kind);
    const rows = await database.db.select().from(users);
    expect(rows).toEqual([]);
  });

  it('numbers every insert and update of a synced row from one increasing sequence', async () => {
    const [u] = await database.db.insert(users).values({ uid: 'seq-user', email: 's@x.example' }).returning();
    const [n] = await database.db.insert(notifications).values({ userId: null, message: 'hi' }).returning();
    expect(u.seq).toBeGreaterThan(0);
    expect(n.seq).toBeGreaterThan(u.seq);
    const [u2] = await database.db.update(users).set({ firstName: 'S' }).where(eq(users.uid, 'seq-user')).returning();
    expect(u2.seq).toBeGreaterThan(n.seq);
    // A value given by the writer is ignored: seq always comes from the sequence.
    const [forced] = await database.db.insert(notifications).values({ userId: null, message: 'x', seq: 1 }).returning();
    expect(forced.seq).toBeGreaterThan(u2.seq);
  });

  it('delivers NOTIFY payloads to listeners until they unsubscribe', async () => {
    const got: string[] = [];
    const unlisten = await database.listen('test_channel', (p) => got.push(p));
    await database.notify('test_channel', 'one');
    await waitFor(() => got.length === 1);
    expect(got).toEqual(['one']);
    await unlisten();
    await database.notify('test_channel', 'two');
    // A fixed window: what it shows is that no payload arrives after unlisten, which has no event to wait for.
    await new Promise((r) => setTimeout(r, 200));
    expect(got).toEqual(['one']);
  });
});

describe.skipIf(!!skip)('the change sequence on PostgreSQL', () => {
  let url: string;
  let database: Database;
  beforeAll(async () => {
    url = await freshPostgresUrl();
    database = await openDatabase({ url });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('writers commit in seq order: a second writer waits for the first to commit', async () => {
    const a = new pg.Client({ connectionString: url });
    const b = new pg.Client({ connectionString: url });
    await Promise.all([a.connect(), b.connect()]);
    try {
      await a.query('BEGIN');
      const first = await a.query<{ seq: string }>(`INSERT INTO notifications (message) VALUES ('first') RETURNING seq::text AS seq`);
      await b.query('BEGIN');
      let secondDone = false;
      const second = b
        .query<{ seq: string }>(`INSERT INTO notifications (message) VALUES ('second') RETURNING seq::text AS seq`)
        .then((r) => {
          secondDone = true;
          return r;
        });
      // A fixed window: what it shows is that the second writer stays blocked, which has no event to wait for.
      await new Promise((r) => setTimeout(r, 300));
      // While the first writer is open, a reader sees neither row and the second writer is blocked.
      expect(secondDone).toBe(false);
      const visible = await database.db.execute(sql`SELECT count(*)::int AS n FROM notifications WHERE message IN ('first', 'second')`);
      expect((visible as unknown as { rows: { n: number }[] }).rows[0].n).toBe(0);
      await a.query('COMMIT');
      const secondSeq = (await second).rows[0].seq;
      await b.query('COMMIT');
      expect(BigInt(secondSeq)).toBeGreaterThan(BigInt(first.rows[0].seq));
    } finally {
      await Promise.allSettled([a.end(), b.end()]);
    }
  });

  it('a NOTIFY from one connection pool reaches a listener opened by another', async () => {
    const other = await openDatabase({ url });
    try {
      const got: string[] = [];
      await database.listen('cross_channel', (p) => got.push(p));
      await other.notify('cross_channel', 'hello');
      await waitFor(() => got.length === 1);
      expect(got).toEqual(['hello']);
    } finally {
      await other.close();
    }
  });
});

async function waitFor(predicate: () => boolean, ms = 3000) {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}
