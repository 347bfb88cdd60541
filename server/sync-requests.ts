import { sql } from 'drizzle-orm';
import type { ProductRequest } from '../domain/schemas.ts';
import type { Db } from './db/client.ts';
import { requestExtras } from './request-extras.ts';
import { type ClientRequestRow, toRequest } from './serialize.ts';

/**
 * The user's requests of one feed page (seq in (cursor, upper]), oldest first, as the client reads them.
 * A catch-up brings thousands of them per page, so this reads only the columns a client's request is made of,
 * in one plain query: drizzle's `select()` of the whole row decoded each row about twice as slowly on PGlite
 * (docs/decisions/017). Timestamps come back as text on both drivers (drizzle's raw query parsers), as
 * `select()` gives them.
 */
export async function syncRequests(db: Db, uid: string, cursor: string, upper: string): Promise<ProductRequest[]> {
  const result = await db.execute(sql`
    SELECT id, product_request_type AS "productRequestType", ref_no AS "refNo", created_at AS "createdAt", status,
           contract_signed AS "contractSigned", total_amount AS "totalAmount", paid, request_details AS "requestDetails",
           attachments, updated_at AS "updatedAt", rejection_reason AS "rejectionReason", client_key AS "clientKey"
    FROM product_requests
    WHERE user_id = ${uid} AND seq > ${cursor}::bigint AND seq <= ${upper}::bigint
    ORDER BY seq
  `);
  // The columns are named as ClientRequestRow's fields above; the response schema checks every row sent.
  const rows = (result as unknown as { rows: ClientRequestRow[] }).rows;
  // Their status history and attachment hashes: two more queries, only for a page with requests.
  const extras = await requestExtras(db, uid, rows);
  return rows.map((row) => toRequest(row, extras.get(row.id)));
}
