import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityStatuses, refundTypes, requestStatuses } from '../../domain/enums.ts';
import { toolNamesBackend } from '../../domain/tools.ts';
import { backends, createTestApp, freshPostgresUrl, postgresSkipReason, type TestApp } from '../test-helper.ts';
import { openDatabase, type Database } from './client.ts';
import { deals, productRequests, refunds, userPresence, users } from './schema.ts';
import { databaseBefore } from './stepwise-migrations.ts';
import { centsFromDollars } from '../../domain/money.ts';

/**
 * What the database itself guarantees (migrations/0007): closed lists on status and tool columns, so a
 * bad value can never be stored and reach a replica; product_requests.updated_at moved on every update;
 * presence kept apart from the synced users row. Run on PGlite and on PostgreSQL.
 */

const skip = postgresSkipReason();
if (skip) console.warn(`[constraints.test] PostgreSQL run skipped: ${skip}`);

const open = async (kind: 'pglite' | 'postgres') => (kind === 'pglite' ? openDatabase({}) : openDatabase({ url: await freshPostgresUrl() }));

/** The PostgreSQL error behind a refused write: drizzle wraps the driver's error in `cause`. */
async function refusal(write: PromiseLike<unknown>): Promise<{ code?: string; constraint?: string; message: string }> {
  try {
    await write;
  } catch (err) {
    for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
      const { code, constraint, message } = e as { code?: string; constraint?: string; message: string };
      if (code) return { code, constraint, message };
    }
    throw err;
  }
  throw new Error('the database accepted the write');
}

/** SQLSTATE check_violation. */
const CHECK_VIOLATION = '23514';

describe.each(backends())('database constraints and triggers (%s)', (kind) => {
  let database: Database;
  let n = 0;
  const uid = () => `c-${kind}-${++n}`;

  beforeAll(async () => {
    database = await open(kind);
  });
  afterAll(async () => {
    await database?.close();
  });

  async function aUser(): Promise<string> {
    const [row] = await database.db.insert(users).values({ uid: uid(), email: `${n}@constraints.example` }).returning();
    return row.uid;
  }
  async function aRequest(userId: string, values: Partial<typeof productRequests.$inferInsert> = {}) {
    const [row] = await database.db.insert(productRequests).values({ userId, toolId: 'bank-dispute', productRequestType: 'BANK_DISPUTE', ...values }).returning();
    return row;
  }

  describe('every value the app knows is accepted', () => {
    // Also proves the migration's lists agree with domain/: a value added there without a new migration fails here.
    it('each request status and tool name', async () => {
      const userId = await aUser();
      for (const status of requestStatuses) expect((await aRequest(userId, { status })).status).toBe(status);
      for (const type of toolNamesBackend) {
        const request = await aRequest(userId, { productRequestType: type });
        await database.db.insert(deals).values({ requestId: request.id, userId, productRequestType: type, amountCents: centsFromDollars(1) });
        await database.db.insert(refunds).values({ requestId: request.id, userId, tool: type, refundRequestType: 'FULL', reason: 'r', status: 'declined' });
      }
    });

    it('each refund type and activity status', async () => {
      const userId = await aUser();
      const request = await aRequest(userId);
      for (const type of refundTypes) await database.db.insert(refunds).values({ requestId: request.id, userId, tool: 'BANK_DISPUTE', refundRequestType: type, reason: 'r', status: 'declined' });
      for (const status of activityStatuses) {
        await database.db.insert(userPresence).values({ uid: userId, status }).onConflictDoUpdate({ target: userPresence.uid, set: { status } });
        expect((await database.db.select().from(userPresence).where(eq(userPresence.uid, userId)))[0].status).toBe(status);
      }
    });
  });

  describe('a value outside the lists is refused by the database', () => {
    let userId: string;
    let requestId: string;
    beforeAll(async () => {
      userId = await aUser();
      requestId = (await aRequest(userId)).id;
    });

    const cases: [string, () => PromiseLike<unknown>, string][] = [
      ['an unknown request status', () => aRequest(userId, { status: 'Archived' }), 'product_requests_status_check'],
      ['a request status in the wrong case', () => aRequest(userId, { status: 'pending' }), 'product_requests_status_check'],
      ['an unknown request tool', () => aRequest(userId, { productRequestType: 'FUNDS_TRACKING' }), 'product_requests_type_check'],
      ['an unknown deal tool', () => database.db.insert(deals).values({ requestId, userId, productRequestType: 'bank-dispute', amountCents: centsFromDollars(1) }), 'deals_type_check'],
      [
        'an unknown refund tool',
        () => database.db.insert(refunds).values({ requestId, userId, tool: 'TRACKMASTER', refundRequestType: 'FULL', reason: 'r' }),
        'refunds_tool_check',
      ],
      [
        'an unknown refund type',
        () => database.db.insert(refunds).values({ requestId, userId, tool: 'BANK_DISPUTE', refundRequestType: 'HALF', reason: 'r' }),
        'refunds_type_check',
      ],
      ['an unknown activity status', () => database.db.insert(userPresence).values({ uid: userId, status: 'AWAY' }), 'user_presence_status_check'],
    ];
    for (const [label, write, constraint] of cases) {
      it(`${label} (${constraint})`, async () => {
        const error = await refusal(write());
        expect(error.code).toBe(CHECK_VIOLATION);
        expect(error.message).toContain(constraint);
      });
    }

    it('an UPDATE to a bad status is refused and leaves the row as it was', async () => {
      const error = await refusal(database.db.update(productRequests).set({ status: 'Lost' }).where(eq(productRequests.id, requestId)));
      expect(error.code).toBe(CHECK_VIOLATION);
      const [row] = await database.db.select().from(productRequests).where(eq(productRequests.id, requestId));
      expect(row.status).toBe('Pending');
    });

    it('a raw SQL insert is refused too (the rule is in the database, not in the app)', async () => {
      const error = await refusal(
        database.db.execute(sql`INSERT INTO product_requests (user_id, tool_id, product_request_type, status) VALUES (${userId}, 'x', 'BANK_DISPUTE', 'Deleted')`),
      );
      expect(error.code).toBe(CHECK_VIOLATION);
    });
  });

  describe('product_requests.updated_at', () => {
    // In microseconds, exactly (extract gives numeric): the API's ISO strings keep only milliseconds.
    const micros = sql<string>`(extract(epoch FROM ${productRequests.updatedAt}) * 1000000)::bigint::text`;
    const stampOf = async (id: string) => BigInt((await database.db.select({ at: micros }).from(productRequests).where(eq(productRequests.id, id)))[0].at);

    it('moves on every update, whoever writes and whatever they set', async () => {
      const request = await aRequest(await aUser());
      const created = await stampOf(request.id);
      await database.db.update(productRequests).set({ rejectionReason: 'a write that forgets updated_at' }).where(eq(productRequests.id, request.id));
      const first = await stampOf(request.id);
      expect(first > created).toBe(true);
      // A stale value given by the writer is not kept: the database stamps the change itself.
      await database.db.update(productRequests).set({ paidCents: centsFromDollars(1), updatedAt: '2000-01-01T00:00:00Z' }).where(eq(productRequests.id, request.id));
      const second = await stampOf(request.id);
      expect(second > first).toBe(true);
    });

    it('moves forward on each of several updates in one transaction (clock_timestamp, not now)', async () => {
      const request = await aRequest(await aUser());
      const stamps = await database.db.transaction(async (tx) => {
        const seen: bigint[] = [];
        for (const paid of [1, 2, 3]) {
          const [row] = await tx
            .update(productRequests)
            .set({ paidCents: centsFromDollars(paid) })
            .where(eq(productRequests.id, request.id))
            .returning({ at: micros });
          seen.push(BigInt(row.at));
        }
        return seen;
      });
      expect(stamps[1] > stamps[0] && stamps[2] > stamps[1]).toBe(true);
    });

    it('moves forward even when the clock has not: one microsecond past the value before (migration 0014)', async () => {
      // A row stamped ahead of the clock stands for a clock too coarse to tell two updates apart.
      const ahead = new Date(Date.now() + 3_600_000).toISOString();
      const request = await aRequest(await aUser(), { updatedAt: ahead });
      const before = await stampOf(request.id);
      await database.db.update(productRequests).set({ paidCents: centsFromDollars(1) }).where(eq(productRequests.id, request.id));
      expect(await stampOf(request.id)).toBe(before + 1n);
    });

    it('an insert keeps the value given (the seed dates its rows in the past)', async () => {
      const request = await aRequest(await aUser(), { updatedAt: '2025-01-02T03:04:05Z' });
      expect(new Date(request.updatedAt).toISOString()).toBe('2025-01-02T03:04:05.000Z');
    });
  });

  it('presence has no seq: writing it draws no change_seq number', async () => {
    const userId = await aUser();
    const lastSeq = async () => String(((await database.db.execute(sql`SELECT last_value::text AS v FROM change_seq`)) as unknown as { rows: { v: string }[] }).rows[0].v);
    const start = await lastSeq();
    await database.db.insert(userPresence).values({ uid: userId, status: 'ACTIVE' });
    await database.db.update(userPresence).set({ status: 'IN_ACTIVE' }).where(eq(userPresence.uid, userId));
    expect(await lastSeq()).toBe(start);
  });
});

describe.skipIf(!!skip)('updated_at follows the order of the writes on PostgreSQL', () => {
  let url: string;
  let database: Database;
  beforeAll(async () => {
    url = await freshPostgresUrl();
    database = await openDatabase({ url });
  });
  afterAll(async () => {
    await database?.close();
  });

  const MICROS = '(extract(epoch FROM updated_at) * 1000000)::bigint::text';

  // now() would stamp the transaction's start: a writer that began first but waited for the row lock
  // would write an older time than the change it follows, and the client would keep the wrong copy.
  it('a transaction that began first but wrote second stamps the later time', async () => {
    const [user] = await database.db.insert(users).values({ uid: 'order-user', email: 'o@x.example' }).returning();
    const [request] = await database.db.insert(productRequests).values({ userId: user.uid, toolId: 'bank-dispute', productRequestType: 'BANK_DISPUTE' }).returning();
    const early = new pg.Client({ connectionString: url });
    const late = new pg.Client({ connectionString: url });
    await Promise.all([early.connect(), late.connect()]);
    try {
      await early.query('BEGIN');
      // now() is fixed from BEGIN: the stamp this writer would give with now(), had the trigger used it.
      const started = await early.query<{ at: string }>('SELECT (extract(epoch FROM now()) * 1000000)::bigint::text AS at');
      // The clock itself must move between the two BEGINs, so that the later writer's now() is later.
      await new Promise((r) => setTimeout(r, 20));
      await late.query('BEGIN');
      const first = await late.query<{ at: string }>(`UPDATE product_requests SET status = 'Rejected' WHERE id = $1 RETURNING ${MICROS} AS at`, [request.id]);
      await late.query('COMMIT');
      const second = await early.query<{ at: string }>(`UPDATE product_requests SET status = 'Pending' WHERE id = $1 RETURNING ${MICROS} AS at`, [request.id]);
      await early.query('COMMIT');
      expect(BigInt(started.rows[0].at) < BigInt(first.rows[0].at)).toBe(true);
      expect(BigInt(second.rows[0].at) > BigInt(first.rows[0].at)).toBe(true);
    } finally {
      await Promise.all([early.end(), late.end()]);
    }
  });
});

describe.each(backends())('presence migration (%s)', (kind) => {
  // The database as 0006 left it, with presence still in users; then 0007 runs on it.
  it('copies each reported status into user_presence and drops the users columns', async () => {
    const db = await databaseBefore('0007', kind === 'postgres' ? await freshPostgresUrl() : null);
    try {
      await db.query(sql`
        INSERT INTO users (uid, email, activity_status, last_seen_at) VALUES
          ('on', 'on@x.example', 'ACTIVE', '2026-01-02T03:04:05Z'),
          ('off', 'off@x.example', 'IN_ACTIVE', '2026-01-03T00:00:00Z'),
          ('odd', 'odd@x.example', 'away', NULL),
          ('never', 'never@x.example', 'IN_ACTIVE', NULL)`);
      const seqBefore = await db.query(sql`SELECT uid, seq FROM users ORDER BY uid`);
      await db.migrateRest();

      const rows = await db.query<{ uid: string; status: string; seen: string }>(sql`SELECT uid, status, last_seen_at::text AS seen FROM user_presence ORDER BY uid`);
      expect(rows.map(({ uid, status }) => ({ uid, status }))).toEqual([
        { uid: 'odd', status: 'IN_ACTIVE' },
        { uid: 'off', status: 'IN_ACTIVE' },
        { uid: 'on', status: 'ACTIVE' },
      ]);
      expect(new Date(rows.find((r) => r.uid === 'on')?.seen ?? '').toISOString()).toBe('2026-01-02T03:04:05.000Z');
      const columns = await db.query(sql`SELECT column_name FROM information_schema.columns WHERE table_name = 'users' AND column_name IN ('activity_status', 'last_seen_at')`);
      expect(columns).toEqual([]);
      // Dropping the columns renumbered nobody: the profiles are not re-sent for it.
      expect(await db.query(sql`SELECT uid, seq FROM users ORDER BY uid`)).toEqual(seqBefore);
    } finally {
      await db.close();
    }
  });
});

describe.each(backends())('updated_at in the client feed (%s)', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a staff transition moves the request’s updatedAt past the one the client had', async () => {
    const [staff, client] = await Promise.all([t.user({ staff: true }), t.user({ client: true })]);
    const [row] = await t.services.db.insert(productRequests).values({ userId: client.uid, toolId: 'bank-dispute', productRequestType: 'BANK_DISPUTE' }).returning();
    const pull = async (cursor: string) => (await t.app.inject({ method: 'GET', url: `/api/sync?cursor=${cursor}`, headers: client.headers })).json().data;
    const before = await pull('0');
    const had = before.requests.find((r: { id: string }) => r.id === row.id);
    expect(had.status).toBe('Pending');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/staff/requests/${row.id}/transition`,
      headers: staff.headers,
      payload: { to: 'Rejected', version: row.version, reason: 'Outside our scope.' },
    });
    expect(res.statusCode).toBe(200);
    const after = await pull(before.cursor);
    const now = after.requests.find((r: { id: string }) => r.id === row.id);
    expect(now.status).toBe('Rejected');
    expect(Date.parse(now.updatedAt)).toBeGreaterThan(Date.parse(had.updatedAt));
  });
});
