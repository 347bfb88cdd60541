import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProductRequest } from '../../domain/schemas.ts';
import { requestRef } from '../../domain/tools.ts';
import { backends, createTestApp, freshPostgresUrl, type TestApp } from '../test-helper.ts';
import { productRequests } from './schema.ts';
import { databaseBefore } from './stepwise-migrations.ts';

/**
 * The short human reference of a request (TM-0042): its number comes from the database at insert
 * (product_requests.ref_no, migrations/0011), so every device shows the same one. Run on PGlite and
 * on PostgreSQL.
 */

describe.each(backends())('request references (%s)', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('each new request gets the next number, shown with its tool prefix in the client feed, the request list and the staff file', async () => {
    const [client, staff] = await Promise.all([t.user({ client: true }), t.user({ staff: true })]);
    const post = (hrefBackend: string, body: Record<string, unknown>, key: string) =>
      t.app.inject({ method: 'POST', url: `/api/${hrefBackend}`, payload: { [hrefBackend]: body }, headers: { ...client.headers, 'idempotency-key': key } });
    const tm = { fraudType: 'crypto', fraudUrl: 'https://scam.example', communicationChannel: 'Telegram', notes: 'He said his name was Sam.' };
    const ba = { cryptoNetwork: 'ETH', cryptoWallet: '0xabc', cryptoAmount: 0.5, fiatAmount: 1200, cryptoTransaction: '0xdef', exchangeUsed: 'Kraken', transactionDate: Date.UTC(2026, 0, 2) };
    const first = await post('trackMasterProcess', tm, 'ref-key-1');
    const second = await post('blockchainAnalysisProductRequest', ba, 'ref-key-2');
    expect([first.statusCode, second.statusCode], first.body + second.body).toEqual([201, 201]);
    // The same command sent again is the same request, with the same number.
    const replay = await post('trackMasterProcess', tm, 'ref-key-1');
    expect(replay.statusCode).toBe(201);

    const sync = await t.app.inject({ url: '/api/sync?cursor=0', headers: client.headers });
    expect(sync.statusCode, sync.body).toBe(200);
    const pulled = sync.json().data as { requests: unknown[] };
    const requests = pulled.requests.map((row) => ProductRequest.parse(row));
    expect(requests).toHaveLength(2);
    const [a, b] = [...requests].sort((x, y) => (x.refNo ?? 0) - (y.refNo ?? 0));
    expect(a.productRequestType).toBe('TRACK_MASTER');
    expect(b.productRequestType).toBe('BLOCKCHAIN_ANALYSIS');
    expect(a.refNo).toEqual(expect.any(Number));
    expect(b.refNo).toBe((a.refNo ?? 0) + 1);
    expect(requestRef(a)).toBe(`TM-${String(a.refNo).padStart(4, '0')}`);
    expect(requestRef(b)).toMatch(/^BA-\d{4,}$/);

    const groups = (await t.app.inject({ url: '/api/user/product-requests', headers: client.headers })).json().data as { requests: { id: string; refNo: number }[] }[];
    expect(groups.flatMap((g) => g.requests).find((r) => r.id === b.id)?.refNo).toBe(b.refNo);

    const file = await t.app.inject({ url: `/api/staff/requests/${a.id}`, headers: staff.headers });
    expect(file.statusCode).toBe(200);
    expect(file.json().data.request.refNo).toBe(a.refNo);
  });

  it('the database refuses a number already taken', async () => {
    const client = await t.user({ client: true });
    const [row] = await t.services.db.insert(productRequests).values({ userId: client.uid, toolId: 'bank-dispute', productRequestType: 'BANK_DISPUTE' }).returning();
    const duplicate = t.services.db.insert(productRequests).values({ userId: client.uid, toolId: 'bank-dispute', productRequestType: 'BANK_DISPUTE', refNo: row.refNo });
    await expect(duplicate).rejects.toThrow();
  });
});

describe.each(backends())('request references migration (%s)', (kind) => {
  // The database as 0010 left it, with requests already stored; then 0011 numbers them.
  it('numbers the existing requests by creation time, moves their seq so devices pull them again, and continues after the highest', async () => {
    const db = await databaseBefore('0011', kind === 'postgres' ? await freshPostgresUrl() : null);
    try {
      await db.query(sql`INSERT INTO users (uid, email) VALUES ('old', 'old@x.example')`);
      // Inserted in another order than they were created: the numbers follow creation.
      await db.query(sql`
        INSERT INTO product_requests (id, user_id, tool_id, product_request_type, created_at) VALUES
          ('00000000-0000-4000-8000-000000000003', 'old', 'bank-dispute', 'BANK_DISPUTE', '2026-03-01T00:00:00Z'),
          ('00000000-0000-4000-8000-000000000001', 'old', 'track-master', 'TRACK_MASTER', '2026-01-01T00:00:00Z'),
          ('00000000-0000-4000-8000-000000000002', 'old', 'web-intelligence', 'WEB_INTELLIGENCE', '2026-02-01T00:00:00Z')`);
      const before = await db.query<{ id: string; seq: string }>(sql`SELECT id, seq::text AS seq FROM product_requests`);
      const highestSeq = Math.max(...before.map((r) => Number(r.seq)));

      await db.migrateRest();

      const after = await db.query<{ id: string; ref_no: number; seq: string }>(sql`SELECT id, ref_no, seq::text AS seq FROM product_requests ORDER BY ref_no`);
      expect(after.map((r) => [r.id.slice(-1), r.ref_no])).toEqual([
        ['1', 1],
        ['2', 2],
        ['3', 3],
      ]);
      for (const row of after) expect(Number(row.seq)).toBeGreaterThan(highestSeq);

      const [next] = await db.query<{ ref_no: number }>(
        sql`INSERT INTO product_requests (user_id, tool_id, product_request_type) VALUES ('old', 'exchange-dispute', 'EXCHANGE_DISPUTE') RETURNING ref_no`,
      );
      expect(next.ref_no).toBe(4);
      const nullable = await db.query<{ is_nullable: string }>(
        sql`SELECT is_nullable FROM information_schema.columns WHERE table_name = 'product_requests' AND column_name = 'ref_no'`,
      );
      expect(nullable).toEqual([{ is_nullable: 'NO' }]);
    } finally {
      await db.close();
    }
  });
});
