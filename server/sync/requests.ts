import { sql } from 'drizzle-orm';
import type { ProductRequest } from '../../domain/schemas.ts';
import type { Db } from '../db/client.ts';
import { requestExtras } from '../serialize/request-extras.ts';
import { type ClientRequestRow, toRequest } from '../serialize/rows.ts';

/**
 * to_char's form of Date's toISOString (milliseconds, both cut rather than rounded), so isoTime (server/platform/iso-time.ts)
 * keeps the times as they come instead of parsing 20,000 of them a page.
 */
const ISO_UTC = sql.raw(`'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`);

/**
 * The user's requests of one feed page (seq in (cursor, upper]), oldest first, as the client reads them.
 * A catch-up brings thousands of them per page, so this reads only the columns a client's request is made of, and
 * the database hands them over as one JSON text (an array of rows, each an array of the columns below) that one
 * JSON.parse reads: row by row, the driver's wire protocol and per-column decoding cost about twice as much on
 * PGlite, the two jsonb columns half of it (docs/decisions/017). Same rows, same values; the two times
 * come already as the API's ISO text (ISO_UTC below).
 */
export async function syncRequests(db: Db, uid: string, cursor: string, upper: string): Promise<ProductRequest[]> {
  const result = await db.execute(sql`
    SELECT coalesce(json_agg(json_build_array(id, product_request_type, ref_no, to_char(created_at AT TIME ZONE 'UTC', ${ISO_UTC}), status, contract_signed,
                                              total_cents, paid_cents, request_details, attachments, to_char(updated_at AT TIME ZONE 'UTC', ${ISO_UTC}),
                                              rejection_reason, client_key) ORDER BY seq), '[]')::text AS page
    FROM product_requests
    WHERE user_id = ${uid} AND seq > ${cursor}::bigint AND seq <= ${upper}::bigint
  `);
  const [{ page }] = (result as unknown as { rows: { page: string }[] }).rows;
  // Positional, in the order selected above. The route sends them unchecked (server/routes/sync.ts, serializeSyncPage); the client
  // checks every row with zod before its replica takes it.
  const rows = (JSON.parse(page) as RowColumns[]).map(
    ([id, productRequestType, refNo, createdAt, status, contractSigned, totalCents, paidCents, requestDetails, attachments, updatedAt, rejectionReason, commandId]): ClientRequestRow => ({
      id,
      productRequestType,
      refNo,
      createdAt,
      status,
      contractSigned,
      totalCents,
      paidCents,
      requestDetails,
      attachments,
      updatedAt,
      rejectionReason,
      commandId,
    }),
  );
  // Their status history and attachment hashes: two more queries, only for a page with requests.
  const extras = await requestExtras(db, uid, rows);
  return rows.map((row) => toRequest(row, extras.get(row.id)));
}

type C = ClientRequestRow;
type RowColumns = [C['id'], C['productRequestType'], C['refNo'], C['createdAt'], C['status'], C['contractSigned'], C['totalCents'], C['paidCents'], C['requestDetails'], C['attachments'], C['updatedAt'], C['rejectionReason'], C['commandId']];
