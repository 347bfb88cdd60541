import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { isRequestStatus } from '../../domain/enums.ts';
import type { StatusChange } from '../../domain/schemas.ts';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { isoTime as iso } from '../platform/iso-time.ts';
import { auditLog, files, type productRequests } from '../db/schema.ts';

type RequestRow = Pick<typeof productRequests.$inferSelect, 'id' | 'createdAt' | 'status' | 'updatedAt'>;

/** What the feed adds to a request row beyond its own columns: facts the case file prints. */
export interface RequestExtras {
  statusHistory: StatusChange[];
  /** By attachment (files row) id. */
  attachments: Map<string, { size: number; sha256: string; uploadedAt: string }>;
}

/** The audit actions that move a request's status (server/services/request-lifecycle.ts): price is Pending → Awaiting Payment. */
const STATUS_ACTIONS = ['price', 'transition'];

/**
 * `column = ANY('{…}'::uuid[])`: the ids as one array parameter. A feed page has up to 5,000 requests, and
 * `IN ($1, …, $5000)` cost the database more than the rows themselves (docs/decisions/017). The ids are the
 * rows' own uuids, read from the database just before.
 */
function anyOf(column: AnyPgColumn, ids: string[]): SQL {
  return sql`${column} = ANY(${`{${ids.join(',')}}`}::uuid[])`;
}

/**
 * The status history and attachment hashes of these requests of `uid`'s, in two indexed queries whatever the
 * number of rows: the audit rows of their status changes (only the new status and when, never who or why) and
 * their attachments' files rows. Both are filtered by the user as well as by request, so nothing of another
 * user's can come back. Called only for a feed page that has requests, so an empty pull costs nothing more.
 */
export async function requestExtras(db: Db, uid: string, rows: RequestRow[]): Promise<Map<string, RequestExtras>> {
  const extras = new Map<string, RequestExtras>();
  if (rows.length === 0) return extras;
  const ids = rows.map((r) => r.id);
  const [changes, attachments] = await Promise.all([
    db
      .select({ requestId: auditLog.requestId, at: auditLog.at, status: sql<string | null>`${auditLog.after}->>'status'` })
      .from(auditLog)
      .where(and(eq(auditLog.subjectUid, uid), anyOf(auditLog.requestId, ids), inArray(auditLog.action, STATUS_ACTIONS)))
      .orderBy(asc(auditLog.id)),
    db
      .select({ id: files.id, requestId: files.requestId, size: files.size, sha256: files.sha256, createdAt: files.createdAt })
      .from(files)
      .where(and(eq(files.userId, uid), eq(files.kind, 'attachment'), anyOf(files.requestId, ids))),
  ]);
  for (const row of rows) extras.set(row.id, { statusHistory: [{ status: 'Pending', at: iso(row.createdAt) }], attachments: new Map() });
  for (const change of changes) {
    const history = change.requestId ? extras.get(change.requestId)?.statusHistory : undefined;
    if (history && change.status && isRequestStatus(change.status) && history[history.length - 1].status !== change.status) {
      history.push({ status: change.status, at: iso(change.at) });
    }
  }
  for (const file of attachments) {
    if (file.requestId) extras.get(file.requestId)?.attachments.set(file.id, { size: file.size, sha256: file.sha256, uploadedAt: iso(file.createdAt) });
  }
  // A status set without an audit row (the demo seed writes rows directly) still ends the history, as of the
  // row's last change: the history never contradicts the status shown beside it.
  for (const row of rows) {
    const history = extras.get(row.id)!.statusHistory;
    if (isRequestStatus(row.status) && history[history.length - 1].status !== row.status) history.push({ status: row.status, at: iso(row.updatedAt) });
  }
  return extras;
}
