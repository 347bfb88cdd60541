import { z } from 'zod';
import { requiredText, storable } from './text.ts';
import { parseCents } from './money.ts';
import { RequestStatus } from './enums.ts';
import { ContactReply, ContactRequest, Deal, NotificationItem, ProductRequest, Profile, RefundRequest, UserFile, Visit } from './schemas.ts';
import { ToolNameBackendSchema } from './tools.ts';
import { StaffTrackingLink } from './tracking.ts';
import { queueTabs } from './queue-tabs.ts';

/**
 * The staff workspace's API (`/api/staff/…`): what the server validates and answers, and what the
 * workspace sends and reads. Every write carries the `version` of the record it was made from; a
 * record changed since answers 409 VERSION_CONFLICT (docs/decisions/006-staff-workspace.md).
 */

export const paymentMethods = ['CARD', 'WIRE', 'CRYPTO', 'ELSE'] as const;
export const PaymentMethod = z.enum(paymentMethods);
export type PaymentMethod = z.infer<typeof PaymentMethod>;
export const paymentMethodLabel: Record<PaymentMethod, string> = { CARD: 'Card', WIRE: 'Wire transfer', CRYPTO: 'Crypto', ELSE: 'Other' };

export const QueueTab = z.enum(queueTabs);
export type QueueTab = z.infer<typeof QueueTab>;
export const queueTabLabel: Record<QueueTab, string> = {
  leads: 'Leads to approve',
  threads: 'Awaiting our reply',
  refunds: 'Refunds to decide',
  pending: 'To price',
  awaiting: 'Awaiting payment',
  inProgress: 'In progress',
  done: 'Done',
};
/** The tabs that list requests of one status. */
export type RequestTab = Exclude<QueueTab, 'leads' | 'threads' | 'refunds'>;
/** The request status each request tab lists. */
export const queueTabStatus: Record<RequestTab, RequestStatus> = {
  pending: 'Pending',
  awaiting: 'Waiting for actions',
  inProgress: 'In Progress',
  done: 'Done',
};

export const QUEUE_PAGE_SIZE = 50;

/** Version of the record an action was made from (optimistic concurrency). */
export const Version = z.number({ error: 'version is required' }).int().min(1, 'version must be a positive whole number');

/** Dollars, more than zero, at most two decimals as written (domain/money.ts parseCents): whole cents exactly. */
export const Money = (name: string) =>
  z
    .number({ error: `${name} must be a number` })
    .finite(`${name} must be a number`)
    .gt(0, `${name} must be more than 0`)
    .max(100_000_000, `${name} is too large`)
    .refine((v) => parseCents(v) !== null, `${name} can have at most two decimals`);

// PostgreSQL text cannot hold a NUL character: it is refused here, as a 400 naming the field, not a failed insert.
const text = requiredText;

// ---- queries ----

export const QueueQuery = z.strictObject({
  tab: QueueTab.default('pending'),
  q: z.string().trim().max(200, 'q must be at most 200 characters').optional(),
  /** Opaque: the last row of the previous page. */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(QUEUE_PAGE_SIZE),
});
export type QueueQuery = z.infer<typeof QueueQuery>;

// ---- bodies ----

export const TransitionBody = z.strictObject({
  to: RequestStatus,
  version: Version,
  /** Pending → Waiting for actions: the price. */
  totalAmount: Money('totalAmount').optional(),
  /** Pending → Waiting for actions: whether the contract is signed already. */
  contractSigned: z.boolean().optional(),
  /** → Rejected: the reason the client reads in Request Details. */
  reason: text('reason', 1000).optional(),
});
export type TransitionBody = z.infer<typeof TransitionBody>;

export const ContractBody = z.strictObject({ version: Version });

const isoDate = z
  .string({ error: 'paidAt is required' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'paidAt must be a date (YYYY-MM-DD)')
  // A real day round-trips; Date.parse alone would roll 2025-02-30 over to March.
  .refine((v) => {
    const day = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === v;
  }, 'paidAt must be a real date');

export const PaymentBody = z.strictObject({
  version: Version,
  amount: Money('amount'),
  method: PaymentMethod,
  paidAt: isoDate,
  reference: z
    .string()
    .trim()
    .max(200, 'reference must be at most 200 characters')
    .check(storable('reference'))
    .default(''),
});
export type PaymentBody = z.infer<typeof PaymentBody>;

export const ApprovalBody = z.strictObject({ version: Version });

/** POST /api/staff/threads/:threadId/status: close or reopen a support thread. */
export const ThreadStatusBody = z.strictObject({ version: Version, status: z.enum(['open', 'closed'], { error: 'status must be open or closed' }) });
export type ThreadStatusBody = z.infer<typeof ThreadStatusBody>;

/**
 * POST /api/staff/refunds/:refundId/decision. Approve: `amount` more than 0 and at most what was paid
 * (a FULL refund is everything paid); decline: `note` is the reason the client reads.
 */
export const RefundDecisionBody = z.discriminatedUnion(
  'decision',
  [
    z.strictObject({ decision: z.literal('approve'), version: Version, amount: Money('amount'), note: text('note', 1000).optional() }),
    z.strictObject({ decision: z.literal('decline'), version: Version, note: text('note', 1000) }),
  ],
  { error: 'decision must be approve or decline' },
);
export type RefundDecisionBody = z.infer<typeof RefundDecisionBody>;

/** POST /api/staff/notes: an internal note on a client, or on one of their requests. Staff only, ever. */
export const NoteBody = z.strictObject({
  clientUid: z
    .string({ error: 'clientUid is required' })
    .min(1, 'clientUid is required')
    .max(128, 'clientUid must be at most 128 characters')
    .check(storable('clientUid')),
  requestId: z.uuid('requestId must be a request id').optional(),
  body: text('body', 4000),
});
export type NoteBody = z.infer<typeof NoteBody>;
/**
 * PUT /api/staff/users/:uid/role: one role per call, the staff role or the admin role. An admin is staff too, so
 * taking the admin role away leaves a staff member; taking the staff role away is a second call.
 */
export const RoleBody = z
  .strictObject({
    version: Version,
    staff: z.boolean({ error: 'staff must be true or false' }).optional(),
    admin: z.boolean({ error: 'admin must be true or false' }).optional(),
  })
  .refine((body) => (body.staff === undefined) !== (body.admin === undefined), { error: 'Send either staff or admin (true or false), not both' });
export type RoleBody = z.infer<typeof RoleBody>;

// ---- answers ----

export const ClientSummary = z.object({
  uid: z.string(),
  email: z.string(),
  name: z.string(),
});
export type ClientSummary = z.infer<typeof ClientSummary>;

/** A stored file as staff see it: the client's shape plus the form field it was attached to (evidence), or null. */
export const StaffFile = UserFile.extend({ field: z.string().nullable() });
export type StaffFile = z.infer<typeof StaffFile>;

export const StaffDeal = Deal.extend({
  method: PaymentMethod.nullable(),
  reference: z.string().nullable(),
  paidAt: z.string().nullable(),
  invoiceNumber: z.string().nullable(),
});
export type StaffDeal = z.infer<typeof StaffDeal>;

export const StaffRequest = ProductRequest.extend({
  toolId: z.string(),
  version: z.number(),
  userId: z.string(),
  rejectionReason: z.string().nullable(),
  finalFileId: z.string().nullable(),
});
export type StaffRequest = z.infer<typeof StaffRequest>;

export const QueueLead = z.object({
  kind: z.literal('lead'),
  uid: z.string(),
  email: z.string(),
  name: z.string(),
  createdAt: z.string(),
  filledInitialForm: z.boolean(),
});
export const QueueRequest = z.object({
  kind: z.literal('request'),
  id: z.string(),
  toolId: z.string(),
  productRequestType: ToolNameBackendSchema,
  status: RequestStatus,
  createdAt: z.string(),
  totalAmount: z.number().nullable(),
  paid: z.number(),
  leftToPay: z.number().nullable(),
  client: ClientSummary,
});
export const QueueThread = z.object({
  kind: z.literal('thread'),
  id: z.string(),
  subject: z.string(),
  /** Since when the client's last message waits for an answer. */
  awaitingSince: z.string(),
  client: ClientSummary,
});
export const QueueRefund = z.object({
  kind: z.literal('refund'),
  id: z.string(),
  requestId: z.string(),
  productRequestType: ToolNameBackendSchema,
  refundRequestType: RefundRequest.shape.refundRequestType,
  reason: z.string(),
  createdAt: z.string(),
  /** What the client paid on the request: the most a refund can return. */
  paid: z.number(),
  client: ClientSummary,
});
export const QueueItem = z.discriminatedUnion('kind', [QueueLead, QueueRequest, QueueThread, QueueRefund]);
export type QueueItem = z.infer<typeof QueueItem>;

export const QueuePage = z.object({
  tab: QueueTab,
  counts: z.record(QueueTab, z.number()),
  items: z.array(QueueItem),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type QueuePage = z.infer<typeof QueuePage>;

export const auditActions = ['approve', 'price', 'transition', 'payment', 'contract', 'deliver', 'role', 'notification', 'reply', 'thread', 'refund', 'tracking-link', 'business-settings', 'payment-details-proposed', 'payment-details-approved', 'payment-details-rejected', 'payment-details-withdrawn', 'delivery-retry', 'second-factor', 'session', 'account-disabled', 'client-data-exported'] as const;
export const AuditEntry = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({ uid: z.string(), email: z.string() }),
  action: z.enum(auditActions),
  entityType: z.string(),
  entityId: z.string(),
  requestId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** A user as staff see them: the profile plus contact details and the version staff writes carry. */
export const StaffClient = Profile.extend({
  phone: z.string().nullable(),
  country: z.string().nullable(),
  version: z.number(),
  /** Disabled by an admin (PUT /api/staff/users/:uid/disabled); absent from replicas made before it was sent. */
  disabled: z.boolean().optional(),
});
export type StaffClient = z.infer<typeof StaffClient>;

/** A support thread as staff see it: the first message, its state, every reply, and the version close/reopen carry. */
export const StaffThread = ContactRequest.extend({
  version: z.number(),
  awaitingSince: z.string().nullable(),
  replies: z.array(ContactReply),
});
export type StaffThread = z.infer<typeof StaffThread>;

/** A refund as staff see it: the client's shape plus the request's id, what was paid on it, and the version a decision carries. */
export const StaffRefund = RefundRequest.extend({ version: z.number(), paid: z.number(), decidedBy: z.string().nullable() });
export type StaffRefund = z.infer<typeof StaffRefund>;

/** An internal note: staff only, never in a client answer or the client feed. */
export const StaffNote = z.object({
  id: z.string(),
  clientUid: z.string(),
  requestId: z.string().nullable(),
  author: z.object({ uid: z.string(), email: z.string() }),
  body: z.string(),
  createdAt: z.string(),
  commandId: z.string().optional(),
});
export type StaffNote = z.infer<typeof StaffNote>;

export const ClientFile = z.object({
  client: StaffClient,
  requests: z.array(StaffRequest),
  /** Evidence attached to the requests, by request id. */
  evidence: z.array(StaffFile.extend({ requestId: z.string() })),
  deals: z.array(StaffDeal),
  refunds: z.array(StaffRefund),
  /** Support threads, newest first, each with its replies oldest first. */
  threads: z.array(StaffThread),
  files: z.array(UserFile),
  /** Notifications addressed to this client (general ones are not listed). */
  notifications: z.array(NotificationItem),
  /** Internal notes on the client and on their requests, newest first. */
  notes: z.array(StaffNote),
  history: z.array(AuditEntry),
});
export type ClientFile = z.infer<typeof ClientFile>;

export const RequestFile = z.object({
  request: StaffRequest,
  client: ClientSummary,
  evidence: z.array(StaffFile),
  /** Every final file ever delivered, newest first; the current one is `request.finalFileId`. */
  finalFiles: z.array(StaffFile),
  deals: z.array(StaffDeal),
  refunds: z.array(StaffRefund),
  /** Internal notes on this request, newest first. */
  notes: z.array(StaffNote),
  /** Track Master: the request's tracking links, newest first, and every visit they captured, newest first. */
  trackingLinks: z.array(StaffTrackingLink).default([]),
  visits: z.array(Visit).default([]),
  history: z.array(AuditEntry),
  allowedActions: z.array(z.string()),
});
export type RequestFile = z.infer<typeof RequestFile>;

export const TeamMember = z.object({ uid: z.string(), email: z.string(), name: z.string(), isAdmin: z.boolean(), isStaff: z.boolean(), disabled: z.boolean(), version: z.number() });
export type TeamMember = z.infer<typeof TeamMember>;

/** The `details` of a 409 VERSION_CONFLICT: the record as it is now. */
export const ConflictDetails = z.object({ current: z.unknown() });
/** The `details` of a 409 ILLEGAL_TRANSITION. */
export const IllegalTransitionDetails = z.object({ status: RequestStatus, allowed: z.array(RequestStatus), allowedActions: z.array(z.string()) });

// ---- the staff feed (GET /api/staff/sync) ----

export const StaffSyncQuery = z.strictObject({
  cursor: z.string().regex(/^\d{1,18}$/, 'cursor must be a non-negative integer').default('0'),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/** How long an opened page stays in the staff member's offline replica. */
export const STAFF_WATCH_DAYS = 30;

/**
 * One page of the staff feed: the files of the client and request pages this staff member opened in the
 * last 30 days that changed after `cursor` (whole files: a page opened offline reads as it did online),
 * the queue counts, and which pages are still kept (the replica drops the others).
 */
export const StaffSyncPage = z.object({
  cursor: z.string(),
  hasMore: z.boolean(),
  counts: z.record(QueueTab, z.number()),
  clients: z.array(ClientFile),
  requests: z.array(RequestFile),
  keep: z.object({ clients: z.array(z.string()), requests: z.array(z.string()) }),
});
export type StaffSyncPage = z.infer<typeof StaffSyncPage>;
