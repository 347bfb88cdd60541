import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { backends, freshPostgresUrl, postgresSkipReason } from '../test-helper.ts';
import { databaseBefore } from './stepwise-migrations.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[money-cents.test] PostgreSQL run skipped: ${skip}`);

// Amounts a double holds inexactly: 0.1 + 0.2 (0.30000000000000004, as older code could store a sum), 1,234,567.89,
// 0.29 (28.999999999999996 once multiplied by 100 in binary), 1.005 typed as a price, and the largest amount staff
// could enter (domain/staff.ts Money).
const AWKWARD: [dollars: string, cents: number][] = [
  ['0.1::float8 + 0.2::float8', 30],
  ['1234567.89', 123456789],
  ['0.29', 29],
  ['1.01', 101],
  ['19.99', 1999],
  ['100000000', 10000000000],
  ['0.01', 1],
];

describe.each(backends())('money moves to whole cents (%s)', (backend) => {
  it('converts every amount exactly, keeps a missing price missing, and stores cents from then on', async () => {
    const db = await databaseBefore('0018', backend === 'postgres' ? await freshPostgresUrl() : null);
    try {
      await db.query(sql`INSERT INTO users (uid, email) VALUES ('client', 'client@demo.test')`);
      for (const [i, [dollars]] of AWKWARD.entries()) {
        const id = `00000000-0000-4000-8000-00000000000${i}`;
        const amount = sql.raw(dollars);
        await db.query(sql`INSERT INTO product_requests (id, user_id, tool_id, product_request_type, status, total_amount, paid)
                           VALUES (${id}, 'client', 'bank-dispute', 'BANK_DISPUTE', 'Done', ${amount}, ${amount})`);
        await db.query(sql`INSERT INTO deals (request_id, user_id, product_request_type, amount) VALUES (${id}, 'client', 'BANK_DISPUTE', ${amount})`);
        await db.query(sql`INSERT INTO refunds (user_id, request_id, tool, refund_request_type, reason, status, decided_amount)
                           VALUES ('client', ${id}, 'BANK_DISPUTE', 'FULL', 'r', 'approved', ${amount})`);
      }
      // A request not priced yet, and one with its default nothing paid.
      await db.query(sql`INSERT INTO product_requests (id, user_id, tool_id, product_request_type) VALUES ('00000000-0000-4000-8000-0000000000aa', 'client', 'bank-dispute', 'BANK_DISPUTE')`);
      expect(await db.query(sql`SELECT paid FROM product_requests WHERE id = '00000000-0000-4000-8000-000000000000'`)).toEqual([{ paid: 0.30000000000000004 }]);

      await db.migrateRest();

      const expected = AWKWARD.map(([, cents], i) => ({ id: `00000000-0000-4000-8000-00000000000${i}`, cents: String(cents) }));
      const requests = await db.query<{ id: string; total: string | null; paid: string }>(
        sql`SELECT id, total_cents::text AS total, paid_cents::text AS paid FROM product_requests ORDER BY id`,
      );
      expect(requests).toEqual([...expected.map(({ id, cents }) => ({ id, total: cents, paid: cents })), { id: '00000000-0000-4000-8000-0000000000aa', total: null, paid: '0' }]);
      expect(await db.query(sql`SELECT request_id AS id, amount_cents::text AS cents FROM deals ORDER BY request_id`)).toEqual(expected);
      expect(await db.query(sql`SELECT request_id AS id, decided_cents::text AS cents FROM refunds ORDER BY request_id`)).toEqual(expected);
      const types = await db.query(sql`SELECT table_name, column_name, data_type FROM information_schema.columns
                                       WHERE column_name IN ('total_cents', 'paid_cents', 'amount_cents', 'decided_cents', 'total_amount', 'paid', 'amount', 'decided_amount')
                                         AND table_name IN ('product_requests', 'deals', 'refunds') ORDER BY table_name, column_name`);
      expect(types).toEqual([
        { table_name: 'deals', column_name: 'amount_cents', data_type: 'bigint' },
        { table_name: 'product_requests', column_name: 'paid_cents', data_type: 'bigint' },
        { table_name: 'product_requests', column_name: 'total_cents', data_type: 'bigint' },
        { table_name: 'refunds', column_name: 'decided_cents', data_type: 'bigint' },
      ]);
      // A new request still starts with nothing paid.
      await db.query(sql`INSERT INTO product_requests (id, user_id, tool_id, product_request_type) VALUES ('00000000-0000-4000-8000-0000000000bb', 'client', 'bank-dispute', 'BANK_DISPUTE')`);
      expect(await db.query(sql`SELECT paid_cents::text AS paid FROM product_requests WHERE id = '00000000-0000-4000-8000-0000000000bb'`)).toEqual([{ paid: '0' }]);
    } finally {
      await db.close();
    }
  });
});
