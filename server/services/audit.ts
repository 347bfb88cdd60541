import { asc, eq } from 'drizzle-orm';
import type { AuditEntry } from '../../domain/staff.ts';
import type { Db } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';

export type AuditAction = AuditEntry['action'];

export interface AuditRecord {
  actor: { uid: string; email: string };
  action: AuditAction;
  entityType: 'request' | 'user' | 'deal' | 'file' | 'notification' | 'thread' | 'refund' | 'tracking-link' | 'business-settings' | 'delivery' | 'session';
  entityId: string;
  /** The client whose case it is. */
  subjectUid: string | null;
  requestId?: string | null;
  before: unknown;
  after: unknown;
}

/**
 * Appends one row to the audit history. Call it with the transaction that makes the change, so the
 * change and its record commit together or not at all. The table refuses UPDATE and DELETE.
 */
export async function writeAudit(tx: Db, record: AuditRecord): Promise<void> {
  await tx.insert(auditLog).values({
    actorUid: record.actor.uid,
    actorEmail: record.actor.email,
    action: record.action,
    entityType: record.entityType,
    entityId: record.entityId,
    subjectUid: record.subjectUid,
    requestId: record.requestId ?? null,
    before: record.before ?? null,
    after: record.after ?? null,
  });
}

/** A client's history (everything done on their account and requests), oldest first. */
export async function clientHistory(db: Db, uid: string): Promise<AuditEntry[]> {
  const rows = await db.select().from(auditLog).where(eq(auditLog.subjectUid, uid)).orderBy(asc(auditLog.id));
  return rows.map(toAuditEntry);
}

/** One request's history, oldest first. */
export async function requestHistory(db: Db, requestId: string): Promise<AuditEntry[]> {
  const rows = await db.select().from(auditLog).where(eq(auditLog.requestId, requestId)).orderBy(asc(auditLog.id));
  return rows.map(toAuditEntry);
}

function toAuditEntry(row: typeof auditLog.$inferSelect): AuditEntry {
  return {
    id: String(row.id),
    at: new Date(row.at).toISOString(),
    actor: { uid: row.actorUid, email: row.actorEmail },
    action: row.action as AuditAction,
    entityType: row.entityType,
    entityId: row.entityId,
    requestId: row.requestId,
    before: row.before,
    after: row.after,
  };
}
