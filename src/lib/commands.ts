import { z } from 'zod';
import { ContactReply, ContactRequest, type InitialFormFields, ProductRequest, Profile, type RefundBody, RefundRequest } from '../../domain/schemas.ts';
import { type ToolDefinition, detailKey } from '../../domain/tools.ts';
import type { FormPayload, LocalRequest, OutboxCommand, PortalDb } from './db.ts';
import { type CommandHandler, enqueue } from './outbox.ts';
import { staffCommandHandlers } from './staff-commands.ts';

/** What each kind of command does with the server's answer: swap the optimistic row for the real one. */
export const commandHandlers: Record<OutboxCommand['kind'], CommandHandler> = {
  purchase: {
    schema: ProductRequest,
    async apply(db, command, data) {
      const request = data as z.infer<typeof ProductRequest>;
      await db.requests.delete(command.target.id);
      // A pull may already hold a newer version (a status change right after the order): keep it.
      const known = await db.requests.get(request.id);
      if (!known || !isStrictlyLater(known.updatedAt, request.updatedAt)) await db.requests.put(request);
    },
  },
  refund: {
    schema: RefundRequest,
    async apply(db, command, data) {
      await db.refunds.delete(command.target.id);
      await db.refunds.put(data as z.infer<typeof RefundRequest>);
    },
  },
  contact: {
    schema: ContactRequest,
    async apply(db, command, data) {
      await db.contactRequests.delete(command.target.id);
      await db.contactRequests.put(data as z.infer<typeof ContactRequest>);
    },
  },
  contactReply: {
    schema: ContactReply,
    async apply(db, command, data) {
      await db.contactReplies.delete(command.target.id);
      await db.contactReplies.put(ContactReply.parse(data));
    },
  },
  ...staffCommandHandlers,
  initialForm: {
    schema: Profile,
    // Only what the command changed: the rest of the profile (roles…) may be newer from a pull.
    async apply(db, _command, data) {
      const profile = data as z.infer<typeof Profile>;
      const updated = await db.profile.update(profile.uid, { filledInitialForm: profile.filledInitialForm, initialForm: profile.initialForm });
      if (updated === 0) await db.profile.put(profile);
    },
  },
};

/**
 * Compared as instants, not as text: "…10:00:00.5Z" is later than "…10:00:00Z" although it sorts before it.
 * On a tie the server's answer wins (it was written no earlier than the row it describes); a time that cannot be
 * read gives no evidence that the device's row is newer, so the answer wins then too.
 */
function isStrictlyLater(known: string, answer: string): boolean {
  const knownAt = Date.parse(known);
  const answerAt = Date.parse(answer);
  return Number.isFinite(knownAt) && Number.isFinite(answerAt) && knownAt > answerAt;
}

export type PurchaseValues = Record<string, string | number | undefined>;

/** Queues a purchase; its optimistic row shows at once as Pending, badged until sent. */
export async function queuePurchase(db: PortalDb, tool: ToolDefinition, values: PurchaseValues, files: Record<string, File | undefined>): Promise<string> {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  const details: Record<string, string | number | null> = {};
  for (const field of tool.formFields) {
    if (field.type !== 'file' && values[field.backendHeader] !== undefined) details[detailKey(tool, field.backendHeader)] = values[field.backendHeader] ?? null;
  }
  const row: LocalRequest = {
    id,
    productRequestType: tool.ToolNameBackend as LocalRequest['productRequestType'],
    Created_Time: now,
    status: 'Pending',
    contractSigned: false,
    totalAmount: null,
    rejectionReason: null,
    paid: 0,
    leftToPay: null,
    requestDetails: details,
    attachments: [],
    updatedAt: now,
    pending: true,
    commandId: id,
  };
  const clean = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== ''));
  const form: FormPayload | undefined = tool.isFormData
    ? {
        fields: Object.fromEntries(Object.entries(clean).map(([k, v]) => [k, String(v)])),
        files: Object.entries(files)
          .filter((e): e is [string, File] => e[1] !== undefined)
          .map(([field, file]) => ({ field, name: file.name, type: file.type, blob: file })),
      }
    : undefined;
  await enqueue(
    db,
    {
      id,
      kind: 'purchase',
      label: `${tool.header} request`,
      method: 'POST',
      path: `/${tool.hrefBackend}`,
      json: tool.isFormData ? undefined : { [tool.hrefBackend]: clean },
      form,
      target: { table: 'requests', id },
    },
    () => db.requests.add(row),
  );
  return id;
}

/**
 * Queues a refund request. The body is exactly the spec's payload; the optimistic row adds what a fresh
 * refund has on the server (no decision yet), so the request's row reads "Refund requested" at once.
 */
export async function queueRefund(db: PortalDb, refund: RefundBody['refundRequest'], toolName: string): Promise<string> {
  const id = crypto.randomUUID();
  const row = { ...refund, id, createdAt: new Date().toISOString(), status: 'requested' as const, amount: null, note: null, decidedAt: null };
  await enqueue(
    db,
    { id, kind: 'refund', label: `Refund for ${toolName}`, method: 'POST', path: '/refund', json: { refundRequest: refund }, target: { table: 'refunds', id } },
    () => db.refunds.add({ ...row, pending: true, commandId: id }),
  );
  return id;
}

export async function queueContact(db: PortalDb, subject: string, message: string): Promise<string> {
  const id = crypto.randomUUID();
  await enqueue(
    db,
    { id, kind: 'contact', label: `Message: ${subject}`, method: 'POST', path: '/contact', json: { contactRequest: { subject, message } }, target: { table: 'contactRequests', id } },
    () => db.contactRequests.add({ id, subject, message, createdAt: new Date().toISOString(), status: 'open', pending: true, commandId: id }),
  );
  return id;
}

/**
 * Queues a reply in a support thread (`threadId` is the server's id of the contact request). The reply shows
 * at once, badged until sent. The server reopens a closed thread when the reply arrives; the thread's status
 * comes back through the sync, so it is not changed here.
 */
export async function queueContactReply(db: PortalDb, threadId: string, subject: string, message: string): Promise<string> {
  const id = crypto.randomUUID();
  const path = `/contact/${encodeURIComponent(threadId)}/replies`;
  await enqueue(
    db,
    { id, kind: 'contactReply', label: `Reply: ${subject}`, method: 'POST', path, json: { reply: { message } }, target: { table: 'contactReplies', id } },
    () => db.contactReplies.add({ id, threadId, author: 'client', message, createdAt: new Date().toISOString(), pending: true, commandId: id }),
  );
  return id;
}

export async function queueInitialForm(db: PortalDb, uid: string, form: InitialFormFields): Promise<string> {
  const id = crypto.randomUUID();
  // What the profile said before, read when the command is written: Discard puts it back.
  const before = await db.profile.get(uid);
  const revert = { filledInitialForm: before?.filledInitialForm ?? false, initialForm: before?.initialForm ?? null };
  await enqueue(
    db,
    { id, kind: 'initialForm', label: 'Initial form', method: 'PUT', path: '/user/initial-form', json: { initialForm: form }, target: { table: 'profile', id: uid }, revert },
    () => db.profile.update(uid, { filledInitialForm: true, initialForm: form }),
  );
  return id;
}
