import { eq, sql } from 'drizzle-orm';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RequestStatus } from '../../domain/enums.ts';
import { formatCents } from '../../domain/format.ts';
import { allowedActions, blockedReason, findTransition, type LifecycleState, nextStatuses, type TransitionAction } from '../../domain/lifecycle.ts';
import { type Cents, cents, centsFromDollars, dollarsFromCents, dollarsOrNull } from '../../domain/money.ts';
import { envelope } from '../../domain/schemas.ts';
import {
  ApprovalBody,
  ContractBody,
  PaymentBody,
  paymentMethodLabel,
  RoleBody,
  StaffClient,
  StaffDeal,
  StaffRequest,
  TransitionBody,
  Version,
} from '../../domain/staff.ts';
import { findTool, requestName, toolByBackendName } from '../../domain/tools.ts';
import type { AuditRecord } from '../services/audit.ts';
import type { Db } from '../db/client.ts';
import { deals, files, productRequests, userPresence, users } from '../db/schema.ts';
import { conflict, HttpError, notFound } from '../platform/errors.ts';
import { renderInvoicePdf } from '../files/invoices.ts';
import { clientName, isFullyPaid, leftToPayCents, toStaffClient, toStaffDeal, toStaffRequest } from '../serialize/rows.ts';
import { createSignedLinks } from '../files/signed-links.ts';
import { type Actor, lockRequest, type RequestRow, type StaffChange, staffWrite, validation } from '../services/staff-write.ts';
import { UploadedFile } from '../plugins/uploads.ts';
import { formatBytes, type StoredFile } from '../files/storage.ts';

type UserRow = typeof users.$inferSelect;
type DealRow = typeof deals.$inferSelect;

const RequestParams = z.strictObject({ requestId: z.string().max(100) });
const UserParams = z.strictObject({
  uid: z
    .string()
    .trim()
    .min(1, 'uid is required')
    .max(128, 'uid must be at most 128 characters')
    .regex(/^[^\u0000-\u001f]+$/, 'uid must not contain control characters'),
});

/** Multipart text parts arrive as strings, so the version is coerced; the rules are Version's. A text part or two files are refused. */
const FinalFileBody = z.object({
  file: UploadedFile.or(z.never({ error: 'file is required: send one file part named "file"' })),
  version: z.coerce.number({ error: 'version is required' }).pipe(Version),
});

const PaymentAnswer = envelope(z.object({ request: StaffRequest, deal: StaffDeal }));

/**
 * Staff workspace writes: lifecycle transitions, contract, payments, final file, approval, roles.
 * Each one goes through staffWrite (services/staff-write.ts): it locks its row, checks the caller's
 * version and the lifecycle table (domain/lifecycle.ts), then writes the change, its audit row and the
 * client's notification in one transaction; the client is poked after the commit.
 */
export async function staffActionRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const staff = { onRequest: app.requireStaff };
  const links = createSignedLinks(app.config.downloadSecret);

  api.post(
    '/staff/requests/:requestId/transition',
    {
      ...staff,
      schema: {
        tags: ['staff'],
        summary: 'Moves a request to another status, as the lifecycle table allows (price, start, complete, reject)',
        params: RequestParams,
        body: TransitionBody,
        response: { 200: envelope(StaffRequest) },
      },
    },
    async (request) => {
      const { body } = await staffWrite(app, request, {
        lock: (tx) => lockRequest(tx, request.params.requestId),
        check: (_tx, row) => checkRequestVersion(row, request.body.version),
        change: (tx, row, actor) => transition(tx, row, request.body, actor),
        status: 200,
        answer: (row) => ({ data: toStaffRequest(row) }),
        poke: (row) => ({ client: row.userId }),
      });
      return body;
    },
  );

  api.post(
    '/staff/requests/:requestId/contract',
    {
      ...staff,
      schema: { tags: ['staff'], summary: 'Marks the contract as signed', params: RequestParams, body: ContractBody, response: { 200: envelope(StaffRequest) } },
    },
    async (request) => {
      const { body } = await staffWrite(app, request, {
        lock: (tx) => lockRequest(tx, request.params.requestId),
        check: (_tx, row) => checkRequestVersion(row, request.body.version),
        change: markContractSigned,
        status: 200,
        answer: (row) => ({ data: toStaffRequest(row) }),
        poke: (row) => ({ client: row.userId }),
      });
      return body;
    },
  );

  api.post(
    '/staff/requests/:requestId/payments',
    {
      ...staff,
      schema: {
        tags: ['staff'],
        summary: 'Records a payment: a deal with its invoice PDF; never more than what is left to pay',
        params: RequestParams,
        body: PaymentBody,
        response: { 201: PaymentAnswer },
      },
    },
    async (request, reply) => {
      const written: StoredFile[] = [];
      const save: SaveFile = async (pdf, name) => {
        const stored = await app.storage.save(pdf, name);
        written.push(stored);
        return stored;
      };
      try {
        const { body } = await staffWrite(app, request, {
          lock: (tx) => lockRequest(tx, request.params.requestId),
          check: (_tx, row) => checkRequestVersion(row, request.body.version),
          change: (tx, row, actor) => recordPayment(tx, row, request.body, actor, save),
          status: 201,
          answer: (recorded) => ({ data: { request: toStaffRequest(recorded.request), deal: toStaffDeal(recorded.deal, links) } }),
          poke: (recorded) => ({ client: recorded.request.userId }),
        });
        return reply.status(201).send(body);
      } catch (err) {
        // The transaction rolled back: the invoice it stored must not stay behind without its row.
        await Promise.allSettled(written.map((file) => app.storage.remove(file.storedName)));
        throw err;
      }
    },
  );

  api.post(
    '/staff/requests/:requestId/final-file',
    {
      ...staff,
      // @fastify/multipart stops a part at the size cap while the body is read, before the handler runs.
      errorHandler: (error: FastifyError) => {
        if (error.code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, 'FILE_TOO_LARGE', `The file must be at most ${formatBytes(app.storage.maxBytes)}`);
        if (error.code === 'FST_FILES_LIMIT') throw new HttpError(413, 'TOO_MANY_FILES', 'Send one file part named "file"');
        throw error;
      },
      schema: {
        tags: ['staff'],
        summary: 'Uploads (or replaces) the final report: multipart, one file part `file` and a text part `version`',
        consumes: ['multipart/form-data'],
        params: RequestParams,
        body: FinalFileBody,
        response: { 201: envelope(StaffRequest) },
      },
    },
    async (request, reply) => {
      const { filename, stored } = request.body.file;
      const { body } = await staffWrite(app, request, {
        lock: (tx) => lockRequest(tx, request.params.requestId),
        check: (_tx, row) => checkRequestVersion(row, request.body.version),
        change: (tx, row, actor) => deliverFinalFile(tx, row, actor, { ...stored, name: filename }),
        status: 201,
        answer: (row) => ({ data: toStaffRequest(row) }),
        afterCommit: () => request.keepUploads(),
        poke: (row) => ({ client: row.userId }),
      });
      return reply.status(201).send(body);
    },
  );

  api.post(
    '/staff/clients/:uid/approval',
    {
      ...staff,
      schema: {
        tags: ['staff'],
        summary: 'Approves a lead: they become a client and can order services',
        params: UserParams,
        body: ApprovalBody,
        response: { 200: envelope(StaffClient) },
      },
    },
    async (request) => {
      const { body } = await staffWrite(app, request, {
        lock: (tx) => lockUser(tx, request.params.uid),
        check: (_tx, row) => checkApproval(row, request.body.version),
        change: approveClient,
        status: 200,
        answer: (row) => ({ data: toStaffClient(row, row.presence) }),
        poke: (row) => ({ client: row.uid }),
      });
      return body;
    },
  );

  api.put(
    '/staff/users/:uid/role',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['staff', 'admin'],
        summary: 'Grants or revokes the staff role (admins only); it applies from the user\'s next request',
        params: UserParams,
        body: RoleBody,
        response: { 200: envelope(StaffClient) },
      },
    },
    async (request) => {
      const { body } = await staffWrite(app, request, {
        lock: (tx) => lockUser(tx, request.params.uid),
        check: (_tx, row, actor) => checkRoleChange(row, request.body, actor),
        change: (tx, row, actor) => setStaffRole(tx, row, request.body, actor),
        status: 200,
        answer: (row) => ({ data: toStaffClient(row, row.presence) }),
        poke: (row) => ({ client: row.uid }),
      });
      return body;
    },
  );
}

// ---- rows, locks and the common checks ----

/** A user row as staff writes read it: with their presence, so every answer and 409 shows the stored one. */
type LockedUser = UserRow & { presence: string | null };

async function lockUser(tx: Db, uid: string): Promise<LockedUser> {
  const [found] = await tx
    .select({ user: users, presence: userPresence.status })
    .from(users)
    .leftJoin(userPresence, eq(userPresence.uid, users.uid))
    .where(eq(users.uid, uid))
    .for('update', { of: users });
  if (!found) throw notFound(`User ${uid} not found`);
  return { ...found.user, presence: found.presence };
}

function lifecycleState(row: RequestRow, paidCents = row.paidCents): LifecycleState {
  return {
    status: row.status as RequestStatus,
    hasFinalFile: row.finalFileId !== null,
    contractSigned: row.contractSigned,
    leftToPay: dollarsOrNull(leftToPayCents({ totalCents: row.totalCents, paidCents })),
  };
}

/** 409 with what the workspace needs to redraw its buttons: the status, where it may go, what may be done. */
function notAllowed(code: string, message: string, state: LifecycleState): HttpError {
  return conflict(code, message, { status: state.status, allowed: nextStatuses(state.status), allowedActions: allowedActions(state) });
}

/**
 * Checked before the lifecycle: an action made from an old view is a conflict even when the status has
 * moved on, so the workspace shows what changed instead of a bare refusal.
 */
function checkRequestVersion(row: RequestRow, version: number): void {
  if (version === row.version) return;
  const state = lifecycleState(row);
  throw conflict('VERSION_CONFLICT', 'Someone else changed this request since you opened it. Look at it again, then retry.', {
    current: toStaffRequest(row),
    status: state.status,
    allowed: nextStatuses(state.status),
    allowedActions: allowedActions(state),
  });
}

function checkUserVersion(row: LockedUser, version: number): void {
  if (version === row.version) return;
  throw conflict('VERSION_CONFLICT', 'Someone else changed this user since you opened them. Look again, then retry.', { current: toStaffClient(row, row.presence) });
}

function toolHeader(row: RequestRow): string {
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
  const [updated] = await tx
    .update(productRequests)
    .set({ ...change.set, status: body.to, version: row.version + 1 })
    .where(eq(productRequests.id, row.id))
    .returning();
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
  return { done: updated, audit, notify: { userId: row.userId, message: transitionMessage(move.action, updated) } };
}

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
  const [updated] = await tx
    .update(productRequests)
    .set({ contractSigned: true, version: row.version + 1 })
    .where(eq(productRequests.id, row.id))
    .returning();
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

// ---- payments ----

/** What the deals of a request add up to, in cents: the one source of `paid`. */
async function paidCentsOf(tx: Db, requestId: string): Promise<Cents> {
  const [row] = await tx
    .select({ cents: sql<string>`coalesce(sum(${deals.amountCents}), 0)::text` })
    .from(deals)
    .where(eq(deals.requestId, requestId));
  return cents(Number(row.cents));
}

/** One sequence, so two payments recorded at once never share a number (gaps after a rollback are fine). */
async function nextInvoiceNumber(tx: Db): Promise<string> {
  const result = await tx.execute(sql`SELECT nextval('invoice_number_seq')::text AS n`);
  const [row] = (result as unknown as { rows: { n: string }[] }).rows;
  return `INV-${row.n}`;
}

type SaveFile = (data: Buffer, name: string) => Promise<StoredFile>;

async function recordPayment(tx: Db, row: RequestRow, body: PaymentBody, actor: Actor, save: SaveFile): Promise<StaffChange<{ request: RequestRow; deal: DealRow }>> {
  const paidBefore = await paidCentsOf(tx, row.id);
  const state = lifecycleState(row, paidBefore);
  const blocked = blockedReason('payment', state);
  // blockedReason refuses a payment on an unpriced request; the second test tells TypeScript so.
  if (blocked || row.totalCents === null) throw notAllowed('ACTION_NOT_ALLOWED', blocked ?? 'Nothing is left to pay on this request.', state);
  const amount = centsFromDollars(body.amount);
  const total = row.totalCents;
  const leftBefore = cents(total - paidBefore);
  if (amount > leftBefore) throw validation(`amount: ${formatCents(amount)} is more than the ${formatCents(leftBefore)} left to pay`);

  const invoiceNumber = await nextInvoiceNumber(tx);
  const invoiceFileId = await storeInvoice(tx, row, { invoiceNumber, amount, total, paidToDate: cents(paidBefore + amount), body }, save);
  const [deal] = await tx
    .insert(deals)
    .values({
      requestId: row.id,
      userId: row.userId,
      productRequestType: row.productRequestType,
      amountCents: amount,
      invoiceUrl: invoiceFileId,
      method: body.method,
      reference: body.reference || null,
      paidAt: body.paidAt,
      invoiceNumber,
      recordedBy: actor.uid,
    })
    .returning();
  const paidAfter = await paidCentsOf(tx, row.id);
  const [updated] = await tx
    .update(productRequests)
    .set({ paidCents: paidAfter, version: row.version + 1 })
    .where(eq(productRequests.id, row.id))
    .returning();
  const audit: AuditRecord = {
    actor,
    action: 'payment',
    entityType: 'deal',
    entityId: deal.id,
    subjectUid: row.userId,
    requestId: row.id,
    // The history keeps the wire's dollars, as every audit entry shows amounts.
    before: { paid: dollarsFromCents(paidBefore), leftToPay: dollarsFromCents(leftBefore) },
    after: {
      paid: dollarsFromCents(paidAfter),
      leftToPay: dollarsFromCents(cents(total - paidAfter)),
      dealId: deal.id,
      invoiceNumber,
      amount: dollarsFromCents(deal.amountCents),
      method: body.method,
    },
  };
  const message = paymentMessage(updated, deal.amountCents, invoiceNumber, paidAfter >= total);
  return { done: { request: updated, deal }, audit, notify: { userId: row.userId, message } };
}

interface InvoiceFacts {
  invoiceNumber: string;
  amount: Cents;
  total: Cents;
  paidToDate: Cents;
  body: PaymentBody;
}

/** Renders and stores the invoice PDF and its files row; returns the file id the deal points to. */
async function storeInvoice(tx: Db, row: RequestRow, facts: InvoiceFacts, save: SaveFile): Promise<string> {
  const [client] = await tx.select().from(users).where(eq(users.uid, row.userId));
  const pdf = await renderInvoicePdf({
    number: facts.invoiceNumber,
    date: new Date(),
    client: { name: clientName(client), email: client.email },
    service: toolHeader(row),
    requestId: row.id,
    amount: facts.amount,
    paidAt: facts.body.paidAt,
    method: paymentMethodLabel[facts.body.method],
    reference: facts.body.reference,
    total: facts.total,
    paidToDate: facts.paidToDate,
    leftToPay: cents(facts.total - facts.paidToDate),
  });
  const name = `${facts.invoiceNumber}.pdf`;
  const stored = await save(pdf, name);
  const [file] = await tx
    .insert(files)
    .values({
      userId: row.userId,
      kind: 'invoice',
      requestId: row.id,
      originalName: name,
      storedName: stored.storedName,
      contentType: stored.contentType,
      size: stored.size,
      sha256: stored.sha256,
    })
    .returning({ id: files.id });
  return file.id;
}

function paymentMessage(row: RequestRow, amount: Cents, invoiceNumber: string, paidInFull: boolean): string {
  const request = requestName(row, toolHeader(row));
  const received = `We received your payment of ${formatCents(amount)} for your ${request}. Invoice ${invoiceNumber} is in Settings → Billings.`;
  return paidInFull ? `${received} It is now paid in full.` : received;
}

// ---- final file ----

async function deliverFinalFile(tx: Db, row: RequestRow, actor: Actor, stored: StoredFile & { name: string }): Promise<StaffChange<RequestRow>> {
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
  const [updated] = await tx
    .update(productRequests)
    .set({ finalFileId: file.id, version: row.version + 1 })
    .where(eq(productRequests.id, row.id))
    .returning();
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

// ---- approval and roles ----

/** Already approved is the clearer answer, whatever the version. */
function checkApproval(row: LockedUser, version: number): void {
  if (row.isClient) throw conflict('ALREADY_APPROVED', `${row.email} is already an approved client.`, { current: toStaffClient(row, row.presence) });
  checkUserVersion(row, version);
}

async function approveClient(tx: Db, row: LockedUser, actor: Actor): Promise<StaffChange<LockedUser>> {
  const [updated] = await tx
    .update(users)
    .set({ isClient: true, version: row.version + 1 })
    .where(eq(users.uid, row.uid))
    .returning();
  const audit: AuditRecord = {
    actor,
    action: 'approve',
    entityType: 'user',
    entityId: row.uid,
    subjectUid: row.uid,
    before: { isClient: false },
    after: { isClient: true },
  };
  const notify = { userId: row.uid, message: 'Your account has been approved. You can now order our services.' };
  return { done: { ...updated, presence: row.presence }, audit, notify };
}

function checkRoleChange(row: LockedUser, body: z.infer<typeof RoleBody>, actor: Actor): void {
  // An admin is staff whatever is_staff says, so revoking one would change nothing and mislead.
  if (!body.staff && row.uid === actor.uid) throw conflict('CANNOT_REVOKE_SELF', 'You cannot remove your own staff role. Ask another admin.');
  if (!body.staff && row.isAdmin) throw conflict('ADMIN_IS_STAFF', `${row.email} is an admin, and admins are always staff. Their staff role cannot be removed here.`);
  checkUserVersion(row, body.version);
}

async function setStaffRole(tx: Db, row: LockedUser, body: z.infer<typeof RoleBody>, actor: Actor): Promise<StaffChange<LockedUser>> {
  const [updated] = await tx
    .update(users)
    .set({ isStaff: body.staff, version: row.version + 1 })
    .where(eq(users.uid, row.uid))
    .returning();
  const audit: AuditRecord = {
    actor,
    action: 'role',
    entityType: 'user',
    entityId: row.uid,
    subjectUid: row.uid,
    before: { isStaff: row.isStaff },
    after: { isStaff: body.staff },
  };
  return { done: { ...updated, presence: row.presence }, audit };
}
