import { z } from 'zod';
import { storable } from './text.ts';
import { ActivityStatus, FraudType, RecordModule, RefundType, RequestStatus } from './enums.ts';
import { ToolNameBackendSchema } from './tools.ts';

// PostgreSQL text cannot hold a NUL character: refused here, as a 400 naming the field, not a failed insert.
export const trimmed = (name: string, max: number) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(1, `${name} is required`)
    .max(max, `${name} must be at most ${max} characters`)
    .check(storable(name));

// ---- request bodies (the spec's payloads, validated on both sides) ----

export const InitialFormFields = z.strictObject({
  moneyLost: z.number({ error: 'moneyLost must be a number' }).finite().min(0, 'moneyLost cannot be negative').max(1e12, 'moneyLost is too large'),
  lastFundsTransfer: z.number({ error: 'lastFundsTransfer is required' }).int().min(0).max(Date.UTC(2200, 0, 1), 'lastFundsTransfer must be a timestamp'),
  fraudType: FraudType,
  fraudUrl: trimmed('fraudUrl', 300),
  name: trimmed('name', 200),
});
export type InitialFormFields = z.infer<typeof InitialFormFields>;
export const InitialFormBody = z.strictObject({ initialForm: InitialFormFields });

export const ContactBody = z.strictObject({
  contactRequest: z.strictObject({ subject: trimmed('subject', 150), message: trimmed('message', 2000) }),
});
export type ContactBody = z.infer<typeof ContactBody>;

export const ActiveStatusBody = z.strictObject({ status: ActivityStatus });

export const RefundBody = z.strictObject({
  refundRequest: z.strictObject({
    tool: ToolNameBackendSchema,
    processId: trimmed('processId', 100),
    refundRequestType: RefundType,
    reason: trimmed('reason', 1000),
  }),
});
export type RefundBody = z.infer<typeof RefundBody>;

export const NotificationBody = z.strictObject({ notification: z.strictObject({ message: trimmed('message', 1000) }) });

export const NewUserBody = z.strictObject({
  firstName: trimmed('firstName', 100),
  lastName: trimmed('lastName', 100),
  email: z.email('email must be a valid email address').max(254),
  country: trimmed('country', 100),
  phone: trimmed('phone', 40),
});
export type NewUserBody = z.infer<typeof NewUserBody>;

export const ExistingUserBody = z.strictObject({ recordId: trimmed('recordId', 128), recordModule: RecordModule });
export type ExistingUserBody = z.infer<typeof ExistingUserBody>;

export const NotCrmExistsBody = z.strictObject({ email: z.email('email must be a valid email address').max(254) });

// ---- entities as the API returns them and Dexie stores them ----

export const Profile = z.object({
  uid: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  isClient: z.boolean(),
  isAdmin: z.boolean(),
  /** Support staff (admins are staff too). Absent in replicas written before the staff workspace. */
  isStaff: z.boolean().default(false),
  filledInitialForm: z.boolean(),
  initialForm: InitialFormFields.nullable(),
  activityStatus: ActivityStatus,
  createdAt: z.string(),
});
export type Profile = z.infer<typeof Profile>;

export const Deal = z.object({
  id: z.string(),
  requestId: z.string(),
  productRequestType: ToolNameBackendSchema,
  Created_Time: z.string(),
  amount: z.number(),
  invoice: z.string().nullable(),
  /** Staff-recorded payments have an invoice number (INV-2001…); older deals may not. */
  invoiceNumber: z.string().nullable().default(null),
});
export type Deal = z.infer<typeof Deal>;

/**
 * A file sent with the order. Size, SHA-256 and upload time come with the delta feed (the files row of the
 * attachment); an optimistic row and the purchase's answer carry only id, field and name.
 */
export const RequestAttachment = z.object({
  id: z.string(),
  field: z.string(),
  name: z.string(),
  size: z.number().int().nonnegative().optional(),
  sha256: z.string().optional(),
  uploadedAt: z.string().optional(),
});
export type RequestAttachment = z.infer<typeof RequestAttachment>;

/** One status a request entered and when: client-visible facts only (never who made the change). */
export const StatusChange = z.object({ status: RequestStatus, at: z.string() });
export type StatusChange = z.infer<typeof StatusChange>;

export const ProductRequest = z.object({
  id: z.string(),
  productRequestType: ToolNameBackendSchema,
  /**
   * The number of the request's short reference (requestRef in tools.ts makes TM-0042 of it), given by the
   * server at insert. Null on a row still waiting to be sent, and in replicas written before references.
   */
  refNo: z.number().int().positive().nullable().default(null),
  Created_Time: z.string(),
  status: RequestStatus,
  contractSigned: z.boolean(),
  totalAmount: z.number().nullable(),
  paid: z.number(),
  leftToPay: z.number().nullable(),
  requestDetails: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
  attachments: z.array(RequestAttachment),
  updatedAt: z.string(),
  /** Why staff rejected it, shown in Request Details; null unless Rejected. */
  rejectionReason: z.string().nullable().default(null),
  /**
   * Every status the request entered, oldest first, starting with Pending at its creation (the delta feed
   * builds it from the audit rows of its status changes). Absent from other answers and optimistic rows.
   */
  statusHistory: z.array(StatusChange).optional(),
  /** The command that created it, when it came through the outbox (see the sync's retiring of optimistic rows). */
  commandId: z.string().optional(),
});
export type ProductRequest = z.infer<typeof ProductRequest>;

export const StatusCounts = z.object({
  done: z.number(),
  inProgress: z.number(),
  pending: z.number(),
  waitingForActions: z.number(),
});
export type StatusCounts = z.infer<typeof StatusCounts>;

export const NotificationItem = z.object({ id: z.string(), message: z.string(), createdAt: z.string(), userId: z.string().nullable() });
export type NotificationItem = z.infer<typeof NotificationItem>;

export const threadStatuses = ['open', 'closed'] as const;
export const ThreadStatus = z.enum(threadStatuses);
export type ThreadStatus = z.infer<typeof ThreadStatus>;

/** A contact request is the first message of a support thread; `status` is absent in replicas written before threads. */
export const ContactRequest = z.object({
  id: z.string(),
  subject: z.string(),
  message: z.string(),
  createdAt: z.string(),
  status: ThreadStatus.default('open'),
  commandId: z.string().optional(),
});
export type ContactRequest = z.infer<typeof ContactRequest>;

/** A later message of a thread, from the client or from support. Staff names are not shown to clients. */
export const ContactReply = z.object({
  id: z.string(),
  threadId: z.string(),
  author: z.enum(['client', 'staff']),
  message: z.string(),
  createdAt: z.string(),
  commandId: z.string().optional(),
});
export type ContactReply = z.infer<typeof ContactReply>;

/** POST /api/contact/:threadId/replies (client) and POST /api/staff/threads/:threadId/replies (staff). */
export const ReplyBody = z.strictObject({ reply: z.strictObject({ message: trimmed('message', 2000) }) });
export type ReplyBody = z.infer<typeof ReplyBody>;

export const refundStatuses = ['requested', 'approved', 'declined'] as const;
export const RefundStatus = z.enum(refundStatuses);
export type RefundStatus = z.infer<typeof RefundStatus>;
/** The mark a request's row shows next to its status. */
export const refundStatusLabel: Record<RefundStatus, string> = {
  requested: 'Refund requested',
  approved: 'Refund approved',
  declined: 'Refund declined',
};

/** A refund request and, once staff decided, the decision; the decision fields default for replicas written before decisions. */
export const RefundRequest = z.object({
  id: z.string(),
  tool: ToolNameBackendSchema,
  processId: z.string(),
  refundRequestType: RefundType,
  reason: z.string(),
  createdAt: z.string(),
  status: RefundStatus.default('requested'),
  /** Approved: the amount returned, in dollars. */
  amount: z.number().nullable().default(null),
  /** The staff's note: why it was declined, or a word on the approval. */
  note: z.string().nullable().default(null),
  decidedAt: z.string().nullable().default(null),
  commandId: z.string().optional(),
});
export type RefundRequest = z.infer<typeof RefundRequest>;

export const UserFile = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number(),
  contentType: z.string(),
  sha256: z.string(),
  createdAt: z.string(),
});
export type UserFile = z.infer<typeof UserFile>;

export const IpDetails = z.record(z.string(), z.union([z.string(), z.number(), z.null()]));
export const Visit = z.object({
  id: z.string(),
  userId: z.string(),
  productRequestId: z.string(),
  ip: z.string(),
  host: z.string().nullable(),
  source: z.string().nullable(),
  domain: z.string().nullable(),
  brand: z.string().nullable(),
  time: z.string(),
  country: z.string().nullable(),
  isp: z.string().nullable(),
  vpn: z.boolean(),
  new: z.boolean(),
  archive: z.boolean(),
  ipDetails: IpDetails.nullable(),
  // Beyond the spec's fields, from the capture at /t/{slug} (domain/tracking.ts). Defaults keep visits
  // stored before tracking links (and copies cached by older apps) readable.
  /** The tracking link the visit came through; null for visits recorded before links existed. */
  linkId: z.string().nullable().default(null),
  userAgent: z.string().nullable().default(null),
  /** From the user agent: "Chrome 131", "iOS 18.1", "mobile" / "tablet" / "desktop". */
  browser: z.string().nullable().default(null),
  os: z.string().nullable().default(null),
  device: z.string().nullable().default(null),
  referrer: z.string().nullable().default(null),
  language: z.string().nullable().default(null),
  /** Set when a messaging app fetched the link to draw its preview ("WhatsApp"): not the scammer's visit. */
  preview: z.string().nullable().default(null),
});
export type Visit = z.infer<typeof Visit>;

/** Before payment in full, `data` is the number of placeholder rows; after, the visits. */
export const LiveDetails = z.object({ id: z.string(), data: z.union([z.number(), z.array(Visit)]) });
export type LiveDetails = z.infer<typeof LiveDetails>;

// ---- envelopes ----

export const ApiError = z.object({ error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }) });
export type ApiError = z.infer<typeof ApiError>;
export const envelope = <T extends z.ZodType>(data: T) => z.object({ data });
