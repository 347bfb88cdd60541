import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RequestStatus } from '../../domain/enums.ts';
import { formatCents } from '../../domain/format.ts';
import { allowedActions, blockedReason, findTransition, type LifecycleState, nextStatuses, type TransitionAction } from '../../domain/lifecycle.ts';
import { centsFromDollars, dollarsOrNull } from '../../domain/money.ts';
import type { DeliveryEventKind } from '../../domain/notify-events.ts';
import type { TransitionBody } from '../../domain/staff.ts';
import { findTool, requestName, toolByBackendName } from '../../domain/tools.ts';
import type { Db } from '../db/client.ts';
import { files } from '../db/schema.ts';
import type { StoredFile } from '../files/storage.ts';
import { conflict, type HttpError } from '../platform/errors.ts';
import { isFullyPaid, leftToPayCents, toStaffRequest } from '../serialize/rows.ts';
import type { AuditRecord } from './audit.ts';
import { requestFacts } from '../notify/record.ts';
import { type Actor, lockRequest, type RequestRow, type StaffChange, staffWrite, updateRequest, validation } from './staff-write.ts';

/**
 * A request's lifecycle as staff move it: transitions (price, start, complete, reject), the signed contract
 * and the final report. Each is one staffWrite: the row lock, the caller's version, then the lifecycle table
 * (domain/lifecycle.ts), the change, its audit row and the client's notification in one transaction.
 */

/** The answer of every write here: the request as the workspace shows it, stored with the command id too. */
const requestAnswer = (row: RequestRow) => ({ data: toStaffRequest(row) });

export function transitionRequest(app: FastifyInstance, request: FastifyRequest, requestId: string, body: TransitionBody) {
  return staffWrite(app, request, {
    lock: (tx) => lockRequest(tx, requestId),
    check: (_tx, row) => checkRequestVersion(row, body.version),
    change: (tx, row, actor) => transition(tx, row, body, actor),
    status: 200,
    answer: requestAnswer,
    poke: (row) => ({ client: row.userId }),
  });
}

export function signContract(app: FastifyInstance, request: FastifyRequest, requestId: string, body: { version: number }) {
  return staffWrite(app, request, {
    lock: (tx) => lockRequest(tx, requestId),
    check: (_tx, row) => checkRequestVersion(row, body.version),
    change: markContractSigned,
    status: 200,
    answer: requestAnswer,
    poke: (row) => ({ client: row.userId }),
  });
}

/** The upload is already in the store; it is kept once the transaction that points to it commits. */
export function deliverFinalFile(app: FastifyInstance, request: FastifyRequest, requestId: string, version: number, upload: StoredFile & { name: string }) {
  return staffWrite(app, request, {
    lock: (tx) => lockRequest(tx, requestId),
    check: (_tx, row) => checkRequestVersion(row, version),
    change: (tx, row, actor) => recordFinalFile(tx, row, actor, upload),
    status: 201,
    answer: requestAnswer,
    afterCommit: () => request.keepUploads(),
    poke: (row) => ({ client: row.userId }),
  });
}

// ---- the common checks ----

export function lifecycleState(row: RequestRow, paidCents = row.paidCents): LifecycleState {
  return {
    status: row.status as RequestStatus,
    hasFinalFile: row.finalFileId !== null,
    contractSigned: row.contractSigned,
    leftToPay: dollarsOrNull(leftToPayCents({ totalCents: row.totalCents, paidCents })),
  };
}

/** What the workspace needs to redraw its buttons: the status, where it may go, what may be done. */
function lifecycleDetails(state: LifecycleState) {
  return { status: state.status, allowed: nextStatuses(state.status), allowedActions: allowedActions(state) };
}

/** 409 with the lifecycle's details. */
export function notAllowed(code: string, message: string, state: LifecycleState): HttpError {
  return conflict(code, message, lifecycleDetails(state));
}

/**
 * Checked before the lifecycle: an action made from an old view is a conflict even when the status has
 * moved on, so the workspace shows what changed instead of a bare refusal.
 */
export function checkRequestVersion(row: RequestRow, version: number): void {
  if (version === row.version) return;
  throw conflict('VERSION_CONFLICT', 'Someone else changed this request since you opened it. Look at it again, then retry.', {
    current: toStaffRequest(row),
    ...lifecycleDetails(lifecycleState(row)),
  });
}

export function toolHeader(row: RequestRow): string {
  return toolByBackendName(row.productRequestType)?.header ?? findTool(row.toolId)?.header ?? row.productRequestType;
}

// ---- transitions ----

interface Change {
  set: Partial<RequestRow>;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

async function transition(tx: Db, row: RequestRow, body: TransitionBody, actor: Actor): Promise<StaffChange<RequestRow>> {
  const state = lifecycleState(row);
  const move = findTransition(state.status, body.to);
  if (!move) {
    const allowed = nextStatuses(state.status);
    const message = `A request that is ${state.status} cannot move to ${body.to}. Allowed: ${allowed.length ? allowed.join(', ') : 'none'}.`;
    throw notAllowed('ILLEGAL_TRANSITION', message, state);
  }
  const change = transitionChange(move.action, row, body, state);
  const updated = await updateRequest(tx, row, { ...change.set, status: body.to });
  const audit: AuditRecord = {
    actor,
    action: move.action === 'price' ? 'price' : 'transition',
    entityType: 'request',
    entityId: row.id,
    subjectUid: row.userId,
    requestId: row.id,
    before: { status: row.status, ...change.before },
    after: { status: updated.status, ...change.after },
  };
  return {
    done: updated,
    audit,
    notify: { userId: row.userId, message: transitionMessage(move.action, updated) },
    deliver: { kind: transitionEvents[move.action], key: `request:${row.id}:v${updated.version}`, to: { uid: row.userId }, facts: requestFacts(updated) },
  };
}

/** The push and email each move calls for. */
const transitionEvents = { price: 'priced', start: 'workStarted', complete: 'reportReady', reject: 'rejected' } as const satisfies Record<TransitionAction, DeliveryEventKind>;

/** What each transition needs from the body and what it changes besides the status. */
function transitionChange(action: TransitionAction, row: RequestRow, body: TransitionBody, state: LifecycleState): Change {
  switch (action) {
    case 'price': {
      if (body.totalAmount === undefined) throw validation('totalAmount: the price is required to move a request to Waiting for actions');
      const contractSigned = body.contractSigned ?? false;
      return {
        set: { totalCents: centsFromDollars(body.totalAmount), contractSigned },
        before: { totalAmount: dollarsOrNull(row.totalCents), contractSigned: row.contractSigned },
        after: { totalAmount: body.totalAmount, contractSigned },
      };
    }
    case 'complete': {
      const blocked = blockedReason('complete', state);
      if (blocked) throw notAllowed('FINAL_FILE_REQUIRED', blocked, state);
      return { set: {}, before: {}, after: {} };
    }
    case 'reject': {
      if (body.reason === undefined) throw validation('reason: the reason is required to reject a request (the client reads it)');
      return { set: { rejectionReason: body.reason }, before: { rejectionReason: row.rejectionReason }, after: { rejectionReason: body.reason } };
    }
    case 'start':
      return { set: {}, before: {}, after: {} };
  }
}

function transitionMessage(action: TransitionAction, row: RequestRow): string {
  // "Bank Dispute request BD-0003": the reference tells the client which of their requests it is.
  const request = requestName(row, toolHeader(row));
  switch (action) {
    case 'price':
      return `Your ${request} has been priced at ${formatCents(row.totalCents)}. You can pay it now; the work can start before full payment.`;
    case 'start':
      return `Work has started on your ${request}.`;
    case 'complete':
      return isFullyPaid(row)
        ? `Your ${request} is Done. The final report is ready to download.`
        : `Your ${request} is Done. The final report can be downloaded once it is paid in full.`;
    case 'reject':
      return `Your ${request} was rejected: ${row.rejectionReason ?? ''}`;
  }
}

// ---- contract ----

async function markContractSigned(tx: Db, row: RequestRow, actor: Actor): Promise<StaffChange<RequestRow>> {
  const state = lifecycleState(row);
  const blocked = blockedReason('contract', state);
  if (blocked) throw notAllowed('ACTION_NOT_ALLOWED', blocked, state);
  const updated = await updateRequest(tx, row, { contractSigned: true });
  const audit: AuditRecord = {
    actor,
    action: 'contract',
    entityType: 'request',
    entityId: row.id,
    subjectUid: row.userId,
    requestId: row.id,
    before: { contractSigned: false },
    after: { contractSigned: true },
  };
  return { done: updated, audit };
}
// ---- final file ----

async function recordFinalFile(tx: Db, row: RequestRow, actor: Actor, stored: StoredFile & { name: string }): Promise<StaffChange<RequestRow>> {
  const state = lifecycleState(row);
  const blocked = blockedReason('deliver', state);
  if (blocked) throw notAllowed('ACTION_NOT_ALLOWED', blocked, state);
  const previous = row.finalFileId ? (await tx.select().from(files).where(eq(files.id, row.finalFileId)))[0] : undefined;
  const [file] = await tx
    .insert(files)
    .values({
      userId: row.userId,
      kind: 'final',
      requestId: row.id,
      field: null,
      originalName: stored.name,
      storedName: stored.storedName,
      contentType: stored.contentType,
      size: stored.size,
      sha256: stored.sha256,
    })
    .returning();
  // The previous final file's row stays: the request page lists every delivery.
  const updated = await updateRequest(tx, row, { finalFileId: file.id });
  const audit: AuditRecord = {
    actor,
    action: 'deliver',
    entityType: 'file',
    entityId: file.id,
    subjectUid: row.userId,
    requestId: row.id,
    before: previous ? { finalFileId: previous.id, sha256: previous.sha256, name: previous.originalName } : { finalFileId: row.finalFileId, sha256: null, name: null },
    after: { finalFileId: file.id, sha256: file.sha256, name: file.originalName },
  };
  return { done: updated, audit };
}

