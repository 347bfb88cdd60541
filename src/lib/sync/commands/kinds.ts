import { z } from 'zod';
import { ContactBody, ContactReply, ContactRequest, InitialFormBody, InitialFormFields, ProductRequest, Profile, RefundBody, RefundRequest, ReplyBody } from '../../../../domain/schemas.ts';
import { type ToolDefinition, detailKey, tools } from '../../../../domain/tools.ts';
import { FraudType, RefundType } from '../../../../domain/enums.ts';
import { toolSubmissionSchema } from '../../../../domain/tool-schemas.ts';
import { type CommandKindDef, type CommandKinds, type PurchaseBody, type ShownCommand, StoredReply, threadIdOf } from './kind.ts';
import type { LocalRequest, OutboxCommand, PortalDb, ReplicaRow } from '../../db.ts';
import type { SyncPage } from '../../../../domain/sync.ts';
import { notificationPreferencesKind } from '../../notification-preferences.ts';
import { notificationsRead } from '../../notification-reads.ts';
import { seenKind } from '../../seen-marks.ts';
import { queueCommand } from './outbox.ts';
import { staffCommandKinds } from './staff-kinds.ts';

/** A body read back from Dexie: what does not parse is null (an unreadable command). */
function parsed<T>(result: z.ZodSafeParseResult<T>): T | null {
  return result.success ? result.data : null;
}

/*
 * Reading a stored body checks its shape (the types of the domain schema), not its rules (lengths, trimming):
 * a command queued by an older app, or one the server refused for a rule, must still open in its form so the
 * user can fix it there, where the domain schema (`validate`) then applies in full.
 */
const StoredRefund = z.object({
  refundRequest: z.object({ tool: RefundBody.shape.refundRequest.shape.tool, processId: z.string(), refundRequestType: RefundType, reason: z.string() }),
});
const StoredContact = z.object({ contactRequest: z.object({ subject: z.string(), message: z.string() }) });
const StoredInitialForm = z.object({
  initialForm: z.object({ moneyLost: z.number(), lastFundsTransfer: z.number(), fraudType: FraudType, fraudUrl: z.string(), name: z.string() }),
});

const now = () => new Date().toISOString();

// ---- purchase: one kind, its body checked by the tool's own schema from the catalogue ----

/** The tool a purchase goes to: its path is POST /api/{hrefBackend}. */
export function toolOfCommand(command: Pick<OutboxCommand, 'path'>): ToolDefinition | undefined {
  return tools.find((t) => `/${t.hrefBackend}` === command.path);
}

const PurchaseFiles = z.array(z.object({ field: z.string(), name: z.string(), type: z.string(), blob: z.instanceof(Blob) }));

const StoredValues = z.record(z.string(), z.union([z.string(), z.number()]));

/** Multipart fields are stored as text: the catalogue says which are numbers (amounts, dates as timestamps). */
function fromFormFields(tool: ToolDefinition, fields: Record<string, string>): PurchaseBody['values'] {
  const numeric = new Set(tool.formFields.filter((f) => f.type === 'number' || f.type === 'date').map((f) => f.backendHeader));
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, numeric.has(k) && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v]));
}

/** The tool's own schema from the catalogue, as the server applies it to a JSON body. */
function purchaseBodySchema(command: Pick<OutboxCommand, 'path'>): z.ZodType<PurchaseBody> {
  const tool = toolOfCommand(command);
  if (!tool) return z.never({ error: `No tool is sent to ${command.path}` });
  const values = toolSubmissionSchema(tool, 'json')
    .pipe(z.record(z.string(), z.union([z.string(), z.number()]).optional()))
    .transform((v) => Object.fromEntries(Object.entries(v).filter((e): e is [string, string | number] => e[1] !== undefined)));
  return z.object({ values, files: PurchaseFiles });
}

function requestDetails(tool: ToolDefinition, values: PurchaseBody['values']): LocalRequest['requestDetails'] {
  const details: LocalRequest['requestDetails'] = {};
  for (const field of tool.formFields) {
    const value = values[field.backendHeader];
    if (field.type !== 'file' && value !== undefined) details[detailKey(tool, field.backendHeader)] = value;
  }
  return details;
}

function newRequestRow(tool: ToolDefinition, id: string): LocalRequest {
  const at = now();
  const type = ProductRequest.shape.productRequestType.parse(tool.ToolNameBackend);
  return { id, productRequestType: type, refNo: null, Created_Time: at, status: 'Pending', contractSigned: false, totalAmount: null, rejectionReason: null, paid: 0, leftToPay: null, requestDetails: {}, attachments: [], updatedAt: at, pending: true, commandId: id };
}

const purchase: CommandKindDef<PurchaseBody> = {
  read(command) {
    const tool = toolOfCommand(command);
    if (!tool) return null;
    if (command.form) {
      const fields = parsed(z.record(z.string(), z.string()).safeParse(command.form.fields));
      const files = parsed(PurchaseFiles.safeParse(command.form.files));
      return fields && files ? { values: fromFormFields(tool, fields), files } : null;
    }
    const json = parsed(z.object({ [tool.hrefBackend]: StoredValues }).safeParse(command.json));
    return json ? { values: json[tool.hrefBackend], files: [] } : null;
  },
  validate: (command, body) => purchaseBodySchema(command).safeParse(body),
  payload(command, body) {
    if (toolOfCommand(command)?.isFormData) {
      const fields = Object.fromEntries(Object.entries(body.values).map(([k, v]) => [k, String(v)]));
      return { json: undefined, form: { fields, files: body.files } };
    }
    // The spec's JSON bodies wrap the values in the name of the tool's path: { trackMasterProcess: { … } }.
    return { json: { [command.path.slice(1)]: body.values }, form: undefined };
  },
  async show(db, command, body) {
    const tool = toolOfCommand(command);
    if (!tool) return;
    const row = (await db.requests.get(command.target.id)) ?? newRequestRow(tool, command.target.id);
    await db.requests.put({ ...row, requestDetails: requestDetails(tool, body.values) });
  },
  revert: async (db, command) => db.requests.delete(command.target.id),
  answer: ProductRequest,
  async confirm(db, command, data) {
    const request = ProductRequest.parse(data);
    await db.requests.delete(command.target.id);
    // A pull may already hold a newer version (a status change right after the order): keep it.
    const known = await db.requests.get(request.id);
    if (!known || !isStrictlyLater(known.updatedAt, request.updatedAt)) await db.requests.put(withFeedFacts(request, known));
  },
};

/**
 * The purchase's answer lacks what only the feed carries (status history, attachment hashes: server/serialize/request-extras.ts).
 * When a pull got there first, its facts stay on the row instead of vanishing until the request next changes.
 */
export function withFeedFacts(answer: ProductRequest, known: LocalRequest | undefined): ProductRequest {
  if (!known) return answer;
  const fromFeed = new Map(known.attachments.map((a) => [a.id, a]));
  const attachments = answer.attachments.map((a) => ({ ...fromFeed.get(a.id), ...a }));
  const statusHistory = answer.statusHistory ?? known.statusHistory;
  return { ...answer, attachments, ...(statusHistory ? { statusHistory } : {}) };
}

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

// ---- refund, contact message, reply: a new row each, keyed by the first command's id ----

/** The tables whose row a command adds: one row per command, keyed by the first command's id (target.id). */
type NewRowList = 'refunds' | 'contactRequests' | 'contactReplies';

/**
 * A command that adds one row: the optimistic row is the server's fresh row (`fresh`) with the body's fields on
 * it, Discard deletes it, and the server's answer replaces it. One shape for the refund, the contact message and
 * the reply; what differs is their table, their schemas, their lane and the fresh row.
 */
function newRowKind<Body, List extends NewRowList>(kind: {
  list: List;
  /** The stored body, checked by shape (see above). */
  stored: z.ZodType<Body>;
  /** The feature's schema, applied in full to an edited body. */
  body: z.ZodType<Body>;
  answer: z.ZodType<SyncPage[List][number]>;
  lane?: CommandKindDef<Body>['lane'];
  label?: CommandKindDef<Body>['label'];
  /** The row as the server starts it, marked pending, without the body's fields: what the screens show before the answer. */
  fresh(command: ShownCommand): Partial<ReplicaRow<List>>;
  /** The body's fields on the row: with `fresh`, the whole row. */
  fields(body: Body): Partial<ReplicaRow<List>>;
}): CommandKindDef<Body> {
  // The list's table, looked up by name (`db.table` is untyped: the row type is the list's).
  const table = (db: PortalDb) => db.table<ReplicaRow<List>, string>(kind.list);
  return {
    read: (command) => parsed(kind.stored.safeParse(command.json)),
    lane: kind.lane,
    label: kind.label,
    validate: (_command, body) => kind.body.safeParse(body),
    payload: (_command, body) => ({ json: body }),
    async show(db, command, body) {
      const row = (await table(db).get(command.target.id)) ?? kind.fresh(command);
      await table(db).put({ ...row, ...kind.fields(body) } as ReplicaRow<List>);
    },
    revert: async (db, command) => table(db).delete(command.target.id),
    answer: kind.answer,
    async confirm(db, command, data) {
      const answer = kind.answer.parse(data);
      await table(db).delete(command.target.id);
      await table(db).put(answer as ReplicaRow<List>);
    },
  };
}

const refund = newRowKind({
  list: 'refunds',
  stored: StoredRefund,
  body: RefundBody,
  answer: RefundRequest,
  // Behind whatever else is queued for its request (the purchase that made it, another refund of it), as the server allows one undecided refund a request.
  lane: (command) => `requests:${parsed(StoredRefund.safeParse(command.json))?.refundRequest.processId ?? command.target.id}`,
  // What a fresh refund has on the server (no decision yet), so the request's row reads "Refund requested" at once.
  fresh: ({ target }) => ({ id: target.id, createdAt: now(), status: 'requested' as const, amount: null, note: null, decidedAt: null, pending: true, commandId: target.id }),
  fields: ({ refundRequest }) => refundRequest,
});

const contact = newRowKind({
  list: 'contactRequests',
  stored: StoredContact,
  body: ContactBody,
  answer: ContactRequest,
  label: (body) => `Message: ${body.contactRequest.subject}`,
  fresh: ({ target }) => ({ id: target.id, createdAt: now(), status: 'open' as const, pending: true, commandId: target.id }),
  fields: ({ contactRequest }) => contactRequest,
});

/**
 * A reply in a support thread. The server reopens a closed thread when the reply arrives; the thread's status
 * comes back through the sync, so it is not changed here.
 */
const contactReply = newRowKind({
  list: 'contactReplies',
  stored: StoredReply,
  body: ReplyBody,
  answer: ContactReply,
  // A thread's replies arrive in the order they were written (each has its own row, its target).
  lane: (command) => `contactRequests:${threadIdOf(command) ?? command.target.id}`,
  fresh: (command) => ({ id: command.target.id, threadId: threadIdOf(command) ?? '', author: 'client' as const, createdAt: now(), pending: true, commandId: command.target.id }),
  fields: ({ reply }) => ({ message: reply.message }),
});

// ---- the initial form: it changes the profile, so Discard puts back what it said before ----

const ProfileBefore = z.object({ filledInitialForm: z.boolean(), initialForm: InitialFormFields.nullable() });

const initialForm: CommandKindDef<z.infer<typeof InitialFormBody>> = {
  read: (command) => parsed(StoredInitialForm.safeParse(command.json)),
  validate: (_command, body) => InitialFormBody.safeParse(body),
  payload: (_command, body) => ({ json: body }),
  show: async (db, { target }, body) => void (await db.profile.update(target.id, { filledInitialForm: true, initialForm: body.initialForm })),
  /** Fields a pull brought since are kept: only those the command set go back, and only when no other initial form still waits. */
  async revert(db, command) {
    const before = ProfileBefore.safeParse(command.revert);
    const later = await db.outbox.filter((c) => c.kind === 'initialForm' && c.seq !== command.seq).count();
    if (before.success && later === 0) await db.profile.update(command.target.id, before.data);
  },
  answer: Profile,
  // Only what the command changed: the rest of the profile (roles…) may be newer from a pull.
  async confirm(db, _command, data) {
    const profile = Profile.parse(data);
    const updated = await db.profile.update(profile.uid, { filledInitialForm: profile.filledInitialForm, initialForm: profile.initialForm });
    if (updated === 0) await db.profile.put(profile);
  },
};

/** Every kind of command, defined once: the sender, Discard and Edit all go through these. */
export const commandKinds: CommandKinds = {
  purchase,
  refund,
  contact,
  contactReply,
  initialForm,
  notificationsRead,
  notificationPreferences: notificationPreferencesKind,
  seen: seenKind,
  ...staffCommandKinds,
};

// ---- what the features call ----

export type PurchaseValues = Record<string, string | number | undefined>;

/** Queues a purchase (the form's values, as toPurchaseBody makes them); its optimistic row shows at once as Pending, badged until sent. */
export async function queuePurchase(db: PortalDb, tool: ToolDefinition, body: PurchaseBody): Promise<string> {
  const commandId = crypto.randomUUID();
  const command = { commandId, kind: 'purchase' as const, label: `${tool.header} request`, method: 'POST' as const, path: `/${tool.hrefBackend}`, target: { table: 'requests' as const, id: commandId } };
  await queueCommand(db, purchase, command, body);
  return commandId;
}

/** Queues a refund request; the body is exactly the spec's payload. */
export async function queueRefund(db: PortalDb, refundRequest: RefundBody['refundRequest'], toolName: string): Promise<string> {
  const commandId = crypto.randomUUID();
  const command = { commandId, kind: 'refund' as const, label: `Refund for ${toolName}`, method: 'POST' as const, path: '/refund', target: { table: 'refunds' as const, id: commandId } };
  await queueCommand(db, refund, command, { refundRequest });
  return commandId;
}

export async function queueContact(db: PortalDb, subject: string, message: string): Promise<string> {
  const commandId = crypto.randomUUID();
  const body = { contactRequest: { subject, message } };
  const command = { commandId, kind: 'contact' as const, label: contact.label!(body), method: 'POST' as const, path: '/contact', target: { table: 'contactRequests' as const, id: commandId } };
  await queueCommand(db, contact, command, body);
  return commandId;
}

/** Queues a reply in a support thread (`threadId` is the server's id of the contact request); it shows at once, badged until sent. */
export async function queueContactReply(db: PortalDb, threadId: string, subject: string, message: string): Promise<string> {
  const commandId = crypto.randomUUID();
  const path = `/contact/${encodeURIComponent(threadId)}/replies`;
  const command = { commandId, kind: 'contactReply' as const, label: `Reply: ${subject}`, method: 'POST' as const, path, target: { table: 'contactReplies' as const, id: commandId } };
  await queueCommand(db, contactReply, command, { reply: { message } });
  return commandId;
}

export async function queueInitialForm(db: PortalDb, uid: string, form: InitialFormFields): Promise<string> {
  const commandId = crypto.randomUUID();
  // What the profile said before, read when the command is written: Discard puts it back.
  const before = await db.profile.get(uid);
  const revert = { filledInitialForm: before?.filledInitialForm ?? false, initialForm: before?.initialForm ?? null };
  const command = { commandId, kind: 'initialForm' as const, label: 'Initial form', method: 'PUT' as const, path: '/user/initial-form', target: { table: 'profile' as const, id: uid }, revert };
  await queueCommand(db, initialForm, command, { initialForm: form });
  return commandId;
}
