import { sql, type SQL } from 'drizzle-orm';
import { type AnyPgColumn, bigint, bigserial, boolean, check, index, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, unique, uuid, integer, customType } from 'drizzle-orm/pg-core';
import { activityStatuses, deadlineKinds, refundTypes, requestStatuses } from '../../domain/enums.ts';
import type { Cents } from '../../domain/money.ts';
import { toolNamesBackend } from '../../domain/tools.ts';

/**
 * Every row a user can see carries `seq`, set by a trigger from one sequence under a transaction-level
 * advisory lock (see migrations/0001_change_seq.sql). Commits therefore happen in seq order, so a
 * delta pull "seq > cursor" never skips a row that committed late.
 */
const seq = () => bigint('seq', { mode: 'number' }).notNull().default(0);
const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow();

/**
 * `column IN (…)` over a closed list from domain/: the database refuses a value the app does not know,
 * so a bad row can never reach a client's replica. The list is written from the domain constants, so
 * adding a status or a tool there changes this schema and `drizzle-kit generate` writes the migration
 * that widens the constraint (server/db/constraints.test.ts inserts every value to prove they agree).
 */
const oneOf = (column: AnyPgColumn, values: readonly string[]): SQL =>
  sql`${column} IN (${sql.raw(values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', '))})`;

/**
 * The latest `seq` of each scope of the client feed (GET /api/sync): a user's uid for that user's rows, '*' for
 * the rows every user's feed carries (general notifications, the business settings). AFTER triggers keep it,
 * in the transaction that writes the row, only for rows the feed carries (files of a synced kind only), so an
 * empty pull is one primary-key lookup instead of a branch per table (migrations/0015_change_heads.sql,
 * docs/decisions/018-light-sync-and-writes.md).
 */
export const changeHeads = pgTable('change_heads', {
  scope: text('scope').primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
});

export const users = pgTable(
  'users',
  {
    uid: text('uid').primaryKey(),
    email: text('email').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    phone: text('phone'),
    country: text('country'),
    isClient: boolean('is_client').notNull().default(false),
    isAdmin: boolean('is_admin').notNull().default(false),
    /** Support staff: the workspace under /staff. An admin is staff too, whatever this says. */
    isStaff: boolean('is_staff').notNull().default(false),
    filledInitialForm: boolean('filled_initial_form').notNull().default(false),
    initialForm: jsonb('initial_form'),
    /** Bumped by every change staff may act on (approval, role, initial form): a staff write made from an older version is 409. */
    version: integer('version').notNull().default(1),
    /**
     * Sessions signed in before this time are ended (sign-out of other devices, disabling): the per-request role
     * lookup compares each token's auth_time with it, so the cut applies at the very next request (docs/decisions/031).
     */
    sessionsValidAfter: timestamp('sessions_valid_after', { withTimezone: true, mode: 'string' }),
    /** Disabled by an admin through the portal (and in the identity provider): every session is refused. */
    disabledAt: timestamp('disabled_at', { withTimezone: true, mode: 'string' }),
    disabledBy: text('disabled_by'),
    createdAt: createdAt(),
    seq: seq(),
  },
  (t) => [
    index('users_leads_queue').on(t.isClient, t.createdAt, t.uid),
    // One portal user per email, compared as the staff lookup and the contact form compare it (lower case).
    // An account without an email (a phone sign-in) has '' and is not counted.
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`).where(sql`email <> ''`),
  ],
);

/**
 * Whether the user's app is open (PATCH /api/user/active-status, sent on every tab shown or hidden).
 * Kept apart from `users` on purpose: no seq trigger, so a presence write takes neither the global
 * change_seq advisory lock nor re-sends the profile to the user's devices and the staff feed. A user
 * without a row has never reported and reads as IN_ACTIVE (the old column default).
 */
export const userPresence = pgTable(
  'user_presence',
  {
    uid: text('uid')
      .primaryKey()
      .references(() => users.uid),
    status: text('status').notNull(),
    /** The last report of either status: the last time the user's app was heard from. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    /** When `status` last changed (a repeated report of the same status leaves it): "active since", "away since". */
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  },
  (t) => [check('user_presence_status_check', oneOf(t.status, activityStatuses))],
);

export const productRequests = pgTable(
  'product_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.uid),
    toolId: text('tool_id').notNull(),
    productRequestType: text('product_request_type').notNull(),
    /**
     * The request's number in its short human reference ("TM-0042": the tool's prefix and this number,
     * domain/tools.ts requestRef). Drawn from one sequence at insert, so it is the same on every device
     * and never reused; a rolled-back insert leaves a gap, which a reference may have. Rows older than
     * the column were numbered by creation time (migrations/0011).
     */
    refNo: serial('ref_no').notNull(),
    status: text('status').notNull().default('Pending'),
    contractSigned: boolean('contract_signed').notNull().default(false),
    /** The price in cents (domain/money.ts), null until staff set it; the API sends it as dollars (totalAmount). */
    totalCents: bigint('total_cents', { mode: 'number' }).$type<Cents>(),
    /** What the deals of the request add up to, in cents; the API sends it as dollars (paid). */
    paidCents: bigint('paid_cents', { mode: 'number' }).$type<Cents>().notNull().default(sql`0`),
    requestDetails: jsonb('request_details')
      .notNull()
      .default(sql`'{}'::jsonb`),
    attachments: jsonb('attachments')
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** The Idempotency-Key (the client's command id) that created this row: lets a pull retire the optimistic copy. */
    commandId: text('client_key'),
    finalFileId: uuid('final_file_id'),
    /** Why staff rejected it; the client reads it in Request Details. */
    rejectionReason: text('rejection_reason'),
    /** Bumped by every staff write: a write made from an older version is 409 (no lost updates). */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    /** Moved by the database on every UPDATE (trigger in migrations/0007): the client keeps the newer copy by it. */
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    seq: seq(),
  },
  (t) => [
    index('product_requests_user_seq').on(t.userId, t.seq),
    // The staff queue: one status, oldest first, paged by (created_at, id).
    index('product_requests_queue').on(t.status, t.createdAt, t.id),
    // One row per command: a rerun of the same Idempotency-Key finds the first row instead of adding one.
    uniqueIndex('product_requests_client_key').on(t.userId, t.commandId).where(sql`client_key IS NOT NULL`),
    uniqueIndex('product_requests_ref_no').on(t.refNo),
    check('product_requests_status_check', oneOf(t.status, requestStatuses)),
    check('product_requests_type_check', oneOf(t.productRequestType, toolNamesBackend)),
  ],
);

export const deals = pgTable(
  'deals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => productRequests.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.uid),
    productRequestType: text('product_request_type').notNull(),
    /** The payment in cents; the API sends it as dollars (amount). */
    amountCents: bigint('amount_cents', { mode: 'number' }).$type<Cents>().notNull(),
    invoiceUrl: text('invoice_url'),
    /** Recorded by staff: CARD, WIRE, CRYPTO or ELSE. */
    method: text('method'),
    reference: text('reference'),
    paidAt: text('paid_at'),
    invoiceNumber: text('invoice_number'),
    recordedBy: text('recorded_by'),
    createdAt: createdAt(),
    seq: seq(),
  },
  (t) => [index('deals_user_seq').on(t.userId, t.seq), check('deals_type_check', oneOf(t.productRequestType, toolNamesBackend))],
);

export const visits = pgTable(
  'visits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => productRequests.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.uid),
    ip: text('ip').notNull(),
    host: text('host'),
    source: text('source'),
    domain: text('domain'),
    brand: text('brand'),
    time: timestamp('time', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    country: text('country'),
    isp: text('isp'),
    vpn: boolean('vpn').notNull().default(false),
    isNew: boolean('is_new').notNull().default(true),
    archive: boolean('archive').notNull().default(false),
    ipDetails: jsonb('ip_details'),
    /** The tracking link the visit came through (server/tracking/capture.ts); null for visits stored before links. */
    linkId: uuid('link_id').references(() => trackingLinks.id),
    userAgent: text('user_agent'),
    /** Parsed from the user agent by ua-parser-js: "Chrome 131", "Android 14", "mobile" / "tablet" / "desktop". */
    browser: text('browser'),
    os: text('os'),
    device: text('device'),
    referrer: text('referrer'),
    /** The Accept-Language header as sent (cut to 200 characters). */
    language: text('language'),
    /** The messaging app whose link-preview fetcher made this request ("WhatsApp"); null for a person's visit. */
    preview: text('preview'),
  },
  (t) => [index('visits_request').on(t.requestId, t.time), index('visits_link').on(t.linkId)],
);

/**
 * Track Master tracking links (docs/decisions/010-track-master-links.md). Served at /t/{slug}; a capture
 * bumps `visits` or `previews` in the transaction that inserts the visit, so the row's seq moves and
 * the client's delta sync (and the staff feed) learn of the visit without a seq on `visits`.
 */
export const trackingLinks = pgTable(
  'tracking_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => productRequests.id),
    /** The client whose request it is: whose feed carries the link. */
    userId: text('user_id')
      .notNull()
      .references(() => users.uid),
    /** 16 random bytes, base64url (domain/tracking.ts TrackingSlug). */
    slug: text('slug').notNull(),
    label: text('label').notNull(),
    /** Where a visitor is redirected; null = the portal's neutral page. */
    destination: text('destination'),
    disabled: boolean('disabled').notNull().default(false),
    visits: integer('visits').notNull().default(0),
    previews: integer('previews').notNull().default(0),
    lastVisitAt: timestamp('last_visit_at', { withTimezone: true, mode: 'string' }),
    createdBy: text('created_by'),
    /** The Idempotency-Key of the staff request that created the link: a replay finds it instead of adding one. */
    commandId: text('client_key'),
    /** Bumped by every staff write (disable, enable); captures leave it alone. */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    seq: seq(),
  },
  (t) => [
    uniqueIndex('tracking_links_slug').on(t.slug),
    index('tracking_links_user_seq').on(t.userId, t.seq),
    index('tracking_links_request').on(t.requestId, t.createdAt),
    uniqueIndex('tracking_links_client_key').on(t.createdBy, t.commandId).where(sql`client_key IS NOT NULL`),
    check('tracking_links_counts_check', sql`${t.visits} >= 0 AND ${t.previews} >= 0`),
  ],
);

export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.uid),
    requestId: uuid('request_id')
      .notNull()
      .references(() => productRequests.id),
    tool: text('tool').notNull(),
    refundRequestType: text('refund_request_type').notNull(),
    reason: text('reason').notNull(),
    /** The Idempotency-Key (the client's command id) that created this row: lets a pull retire the optimistic copy. */
    commandId: text('client_key'),
    /** requested → approved | declined, decided once by staff (domain/schemas.ts RefundStatus). */
    status: text('status').notNull().default('requested'),
    /** Approved: the amount returned, in cents, more than 0 and at most what was paid; the API sends it as dollars (amount). */
    decidedCents: bigint('decided_cents', { mode: 'number' }).$type<Cents>(),
    /** The staff's note to the client: the reason of a decline, or a word on an approval. */
    decisionNote: text('decision_note'),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'string' }),
    decidedBy: text('decided_by'),
    /** Bumped by every staff write: a decision made from an older version is 409. */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    seq: seq(),
  },
  (t) => [
    index('refunds_user_seq').on(t.userId, t.seq),
    // The staff queue's "Refunds to decide", oldest first.
    index('refunds_queue').on(t.status, t.createdAt, t.id),
    // At most one undecided refund per request: a second one is refused even when two race.
    uniqueIndex('refunds_one_undecided').on(t.requestId).where(sql`status = 'requested'`),
    uniqueIndex('refunds_client_key').on(t.userId, t.commandId).where(sql`client_key IS NOT NULL`),
    check('refunds_status_check', sql`${t.status} IN ('requested', 'approved', 'declined')`),
    check('refunds_tool_check', oneOf(t.tool, toolNamesBackend)),
    check('refunds_type_check', oneOf(t.refundRequestType, refundTypes)),
  ],
);

/** userId null = a general notification, shown to every user. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id').references(() => users.uid),
    message: text('message').notNull(),
    createdAt: createdAt(),
    seq: seq(),
  },
  (t) => [index('notifications_user_seq').on(t.userId, t.seq)],
);

/**
 * How far each user has read their notifications: one marker, the creation time of the newest notification they
 * were shown (docs/decisions/014-notification-read-state.md). A trigger on users gives every new user one set just
 * before their account existed (migrations/0012), so earlier general notifications are never unread for them.
 * A synced row: its seq comes from change_seq like the others, and the primary key serves the feed's lookup.
 */
export const notificationReads = pgTable('notification_reads', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.uid, { onDelete: 'cascade' }),
  readUpTo: timestamp('read_up_to', { withTimezone: true, mode: 'string' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  seq: seq(),
});

/**
 * The business's settings (domain/business-settings.ts): payment instructions and official channels, one row with
 * id 'business', edited by admins (versioned, audited) and synced to every user like a general notification.
 * No row means "not configured yet". A synced row: its seq comes from change_seq (migrations/0013).
 */
export const businessSettings = pgTable(
  'business_settings',
  {
    id: text('id').primaryKey(),
    accountHolder: text('account_holder').notNull(),
    bankName: text('bank_name').notNull(),
    accountNumber: text('account_number').notNull(),
    bic: text('bic').notNull().default(''),
    paymentNote: text('payment_note').notNull().default(''),
    officialEmails: jsonb('official_emails').$type<string[]>().notNull().default([]),
    officialDomains: jsonb('official_domains').$type<string[]>().notNull().default([]),
    officialPhones: jsonb('official_phones').$type<string[]>().notNull().default([]),
    /** Bumped by every admin write: a write made from an older version is 409. */
    version: integer('version').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    /** When a second admin last approved new payment details; clients are warned for 14 days after. */
    paymentDetailsChangedAt: timestamp('payment_details_changed_at', { withTimezone: true, mode: 'string' }),
    seq: seq(),
  },
  (t) => [check('business_settings_one_row', sql`${t.id} = 'business'`)],
);

/**
 * Proposed changes of the payment details (docs/decisions/032-payment-details-four-eyes.md): an admin's save that
 * changes where clients pay writes one here, and only a second admin's approval copies it into business_settings.
 * Never synced to anyone: not in any feed, no seq. At most one is pending (a partial unique index), so two
 * proposals never race for approval. A proposal never changes its values: an edit is a new row that replaces it.
 */
export const paymentDetailsProposals = pgTable(
  'payment_details_proposals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    status: text('status').notNull().default('pending'),
    proposedByUid: text('proposed_by_uid').notNull(),
    proposedByEmail: text('proposed_by_email').notNull(),
    proposedAt: timestamp('proposed_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    /** The payment details when it was proposed. */
    before: jsonb('before').$type<{ accountHolder: string; bankName: string; accountNumber: string; bic: string }>().notNull(),
    accountHolder: text('account_holder').notNull(),
    bankName: text('bank_name').notNull(),
    accountNumber: text('account_number').notNull(),
    bic: text('bic').notNull().default(''),
    decidedByUid: text('decided_by_uid'),
    decidedByEmail: text('decided_by_email'),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'string' }),
  },
  (t) => [
    check('payment_details_proposals_status', sql`${t.status} IN ('pending', 'approved', 'rejected', 'withdrawn', 'replaced')`),
    // Nobody approves their own: the database refuses it too, whatever the code above it does.
    check('payment_details_proposals_four_eyes', sql`${t.status} <> 'approved' OR (${t.decidedByUid} IS NOT NULL AND ${t.decidedByUid} <> ${t.proposedByUid})`),
    uniqueIndex('payment_details_proposals_one_pending').on(t.status).where(sql`status = 'pending'`),
    index('payment_details_proposals_proposed_at').on(t.proposedAt),
  ],
);

export const contactRequests = pgTable(
  'contact_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.uid),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    /** The Idempotency-Key (the client's command id) that created this row: lets a pull retire the optimistic copy. */
    commandId: text('client_key'),
    /** The thread's state: staff close and reopen it; a client's reply reopens it. */
    status: text('status').notNull().default('open'),
    /** Since when the client's last message waits for our reply; null once staff answered or closed it. */
    awaitingSince: timestamp('awaiting_since', { withTimezone: true, mode: 'string' }).defaultNow(),
    /** Bumped by close and reopen: a state change made from an older version is 409. */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    seq: seq(),
  },
  (t) => [
    index('contact_requests_user_seq').on(t.userId, t.seq),
    // The staff queue's "Awaiting our reply", oldest wait first.
    index('contact_requests_awaiting').on(t.awaitingSince, t.id).where(sql`awaiting_since IS NOT NULL`),
    uniqueIndex('contact_requests_client_key').on(t.userId, t.commandId).where(sql`client_key IS NOT NULL`),
    check('contact_requests_status_check', sql`${t.status} IN ('open', 'closed')`),
  ],
);

/** The messages of a support thread after its first one (the contact request itself), from either side. */
export const contactReplies = pgTable(
  'contact_replies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    threadId: uuid('thread_id')
      .notNull()
      .references(() => contactRequests.id),
    /** The client whose thread it is (who may read it), whoever wrote the reply. */
    userId: text('user_id')
      .notNull()
      .references(() => users.uid),
    author: text('author').notNull(),
    authorUid: text('author_uid').notNull(),
    message: text('message').notNull(),
    commandId: text('client_key'),
    createdAt: createdAt(),
    seq: seq(),
  },
  (t) => [
    index('contact_replies_user_seq').on(t.userId, t.seq),
    index('contact_replies_thread').on(t.threadId, t.createdAt),
    // By author, not by thread owner: the key is the writer's (client or staff) command id.
    uniqueIndex('contact_replies_client_key').on(t.authorUid, t.commandId).where(sql`client_key IS NOT NULL`),
    check('contact_replies_author_check', sql`${t.author} IN ('client', 'staff')`),
  ],
);

/**
 * Staff-only notes on a client or one of their requests. No client route or client feed reads this
 * table; it carries `seq` so the staff feed sees a new note as a change of the client's file.
 */
export const staffNotes = pgTable(
  'staff_notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subjectUid: text('subject_uid')
      .notNull()
      .references(() => users.uid),
    requestId: uuid('request_id').references(() => productRequests.id),
    authorUid: text('author_uid').notNull(),
    authorEmail: text('author_email').notNull(),
    body: text('body').notNull(),
    commandId: text('client_key'),
    createdAt: createdAt(),
    seq: seq(),
  },
  (t) => [
    index('staff_notes_subject_seq').on(t.subjectUid, t.seq),
    index('staff_notes_request').on(t.requestId, t.createdAt),
    uniqueIndex('staff_notes_client_key').on(t.authorUid, t.commandId).where(sql`client_key IS NOT NULL`),
  ],
);

/**
 * The client and request pages a staff member opened: what their offline replica holds (the last 30
 * days of them). `seq` moves on every opening, so the staff feed sends that page's file again.
 */
export const staffWatches = pgTable(
  'staff_watches',
  {
    staffUid: text('staff_uid')
      .notNull()
      .references(() => users.uid),
    /** 'client' (entityId = the client's uid) or 'request' (entityId = the request id). */
    kind: text('kind').notNull(),
    entityId: text('entity_id').notNull(),
    /** The client whose file it is. */
    subjectUid: text('subject_uid')
      .notNull()
      .references(() => users.uid),
    openedAt: timestamp('opened_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    seq: seq(),
  },
  (t) => [
    primaryKey({ columns: [t.staffUid, t.kind, t.entityId] }),
    index('staff_watches_subject').on(t.subjectUid),
    check('staff_watches_kind_check', sql`${t.kind} IN ('client', 'request')`),
  ],
);

/** Stored uploads: general files (kind 'general'), purchase attachments ('attachment') and final reports ('final'). */
export const files = pgTable(
  'files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.uid),
    kind: text('kind').notNull(),
    requestId: uuid('request_id'),
    field: text('field'),
    originalName: text('original_name').notNull(),
    storedName: text('stored_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    /** The Idempotency-Key of the upload (POST /api/user/files) that stored this row, and the row's place in it. */
    commandId: text('client_key'),
    commandIdPart: integer('client_key_part'),
    createdAt: createdAt(),
    seq: seq(),
  },
  (t) => [
    index('files_user_seq').on(t.userId, t.seq),
    // One set of rows per upload: a rerun of the same Idempotency-Key finds the first rows instead of adding more.
    uniqueIndex('files_client_key').on(t.userId, t.commandId, t.commandIdPart).where(sql`client_key IS NOT NULL`),
    // The orphan sweep asks which stored names a row names (server/files/orphan-files.ts).
    index('files_stored_name').on(t.storedName),
  ],
);

/** The spec's PATCH /user/attachments: a free-form payload the user attaches to their record. */
export const userAttachments = pgTable('user_attachments', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: text('user_id')
    .notNull()
    .references(() => users.uid),
  payload: jsonb('payload').notNull(),
  createdAt: createdAt(),
});

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: text('user_id').notNull(),
    // The command id a client sent as Idempotency-Key (the column keeps its first name).
    commandId: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    bodyHash: text('body_hash').notNull(),
    state: text('state').notNull(),
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.commandId] }), index('idempotency_created').on(t.createdAt)],
);

/**
 * Fixed-window counters of the write limits (server/plugins/write-limits.ts), shared by every instance
 * on this database: one row per key and window, bumped by one atomic upsert per request. The key names
 * the limit, its window length and whom it counts (`writes:1m:<uid>`). Old windows are pruned by a job.
 * bigint: the byte quota adds sizes, and a refused attempt still counts.
 */
export const rateCounters = pgTable(
  'rate_counters',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index('rate_counters_window').on(t.windowStart)],
);

/**
 * Append-only history of staff actions, written in the same transaction as the change. The database
 * refuses UPDATE, DELETE and TRUNCATE on it (migrations/0004_audit_append_only.sql).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: createdAt(),
    actorUid: text('actor_uid').notNull(),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    /** The client whose case it is, when there is one. */
    subjectUid: text('subject_uid'),
    requestId: uuid('request_id'),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [index('audit_subject').on(t.subjectUid, t.id), index('audit_request').on(t.requestId, t.id)],
);

/** A file's bytes stored as raw binary (bytea), one row per chunk. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Uploaded and generated files kept in the database when several instances share one PostgreSQL
 * (server/files/storage.ts, docs/decisions/013-file-storage.md): every instance can read what another
 * stored. Chunks of DB_CHUNK_BYTES (128 KB) keep writes and reads streamed, never a whole file in memory.
 */
export const fileChunks = pgTable(
  'file_chunks',
  {
    storedName: text('stored_name').notNull(),
    part: integer('part').notNull(),
    data: bytea('data').notNull(),
    /** When the chunk was written: the orphan sweep leaves chunks of an upload still being written alone. */
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.storedName, t.part] })],
);

/**
 * A browser's Web Push subscription (RFC 8030/8291): where to POST and the keys to encrypt for. The endpoint is a
 * capability URL, unique across users: a device signed in to another account moves it (server/services/push-subscriptions.ts).
 * Not synced: the server alone uses it to send.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.uid, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    /** The browser's P-256 public key (65 bytes) and auth secret (16 bytes), base64url as PushSubscription.toJSON() gives them. */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** When the push service ends the subscription, if it says (PushSubscription.expirationTime). */
    expirationTime: timestamp('expiration_time', { withTimezone: true, mode: 'string' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint').on(t.endpoint), index('push_subscriptions_user').on(t.userId, t.createdAt)],
);

/**
 * Each user's notification choices (domain/notification-preferences.ts): one row, made by a trigger on users
 * (migrations/0020) with everything on and the lock screen neutral. A synced row: its seq comes from change_seq.
 */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.uid, { onDelete: 'cascade' }),
  generalUpdates: boolean('general_updates').notNull().default(true),
  personalUpdates: boolean('personal_updates').notNull().default(true),
  email: boolean('email').notNull().default(true),
  push: boolean('push').notNull().default(true),
  lockScreenDetails: boolean('lock_screen_details').notNull().default(false),
  staffLeads: boolean('staff_leads').notNull().default(true),
  staffRequests: boolean('staff_requests').notNull().default(true),
  staffMessages: boolean('staff_messages').notNull().default(true),
  staffRefunds: boolean('staff_refunds').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  seq: seq(),
});

export const deliveryChannels = ['push', 'email', 'fanout'] as const;
export const deliveryStates = ['queued', 'sending', 'sent', 'skipped', 'failed', 'unknown'] as const;

/**
 * One message to one person on one channel, written in the transaction of the change it tells about
 * (docs/decisions/029-deliveries.md), so a change that rolls back sends nothing and a crash after the commit loses
 * nothing. A general notification is one `fanout` row (no recipient) that the worker expands page by page.
 * `event_key` names the causing row: a rerun of the same change finds its rows there and writes none.
 */
export const deliveries = pgTable(
  'deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventKind: text('event_kind').notNull(),
    eventKey: text('event_key').notNull(),
    recipientUid: text('recipient_uid').references(() => users.uid, { onDelete: 'cascade' }),
    channel: text('channel', { enum: deliveryChannels }).notNull(),
    /** What the texts are made of (domain/notify-events.ts): references, amounts, ids for the link. */
    facts: jsonb('facts').notNull(),
    /** The in-app notification this tells about: read in the app (the marker passed it) means no email. */
    notificationId: uuid('notification_id'),
    /** A thread or request whose opening in the app also counts as read (seen_marks). */
    seenKind: text('seen_kind', { enum: ['thread', 'request'] }),
    seenId: text('seen_id'),
    state: text('state', { enum: deliveryStates }).notNull().default('queued'),
    dueAt: timestamp('due_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'string' }),
    claimedBy: text('claimed_by'),
    /** An email row gathered into another row's digest: sent (or not) with it. */
    digestOf: uuid('digest_of'),
    /** A fan-out's progress: the last user id it expanded. */
    cursor: text('cursor'),
    skipReason: text('skip_reason'),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'string' }),
  },
  (t) => [
    unique('deliveries_event_recipient_channel').on(t.eventKey, t.recipientUid, t.channel).nullsNotDistinct(),
    index('deliveries_due').on(t.dueAt, t.id).where(sql`state = 'queued'`),
    index('deliveries_lease').on(t.leaseUntil).where(sql`state = 'sending'`),
    index('deliveries_recipient_email').on(t.recipientUid, t.dueAt).where(sql`state = 'queued' AND channel = 'email'`),
    index('deliveries_trouble').on(t.finishedAt).where(sql`state IN ('failed', 'unknown')`),
    index('deliveries_created').on(t.createdAt),
  ],
);

/** The devices a push delivery reached: a retry sends only to the others, so no device gets it twice. */
export const pushSends = pgTable(
  'push_sends',
  {
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.subscriptionId] })],
);

/**
 * How far a user has seen a support thread or a request in the app (PUT /api/seen): an email about something they
 * have already seen is not sent. Only forward; not synced.
 */
export const seenMarks = pgTable(
  'seen_marks',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.uid, { onDelete: 'cascade' }),
    subjectKind: text('subject_kind', { enum: ['thread', 'request'] }).notNull(),
    subjectId: text('subject_id').notNull(),
    seenUpTo: timestamp('seen_up_to', { withTimezone: true, mode: 'string' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.subjectKind, t.subjectId] })],
);

/**
 * One Firebase sign-in on one device: the user and the ID token's `auth_time`, which every token refreshed from that
 * sign-in keeps (docs/decisions/031-second-factor-and-sessions.md). Made by the per-request role lookup on the
 * sign-in's first call; the second factor is verified per session. Not synced: read only through /api/security.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    uid: text('uid')
      .notNull()
      .references(() => users.uid, { onDelete: 'cascade' }),
    /** The token's auth_time (seconds since the epoch). */
    authTime: bigint('auth_time', { mode: 'number' }).notNull(),
    browser: text('browser').notNull(),
    os: text('os').notNull(),
    /** "Lagos, NG" from the offline geo-IP, or null (a private address, an unknown one). */
    place: text('place'),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    /** When this session last verified a second factor: required for staff routes, and recent for step-up. */
    secondFactorAt: timestamp('second_factor_at', { withTimezone: true, mode: 'string' }),
    /** Kept by a "sign out other devices" at this time: the users.sessions_valid_after it set does not end this one. */
    keptAt: timestamp('kept_at', { withTimezone: true, mode: 'string' }),
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'string' }),
    endReason: text('end_reason', { enum: ['signed-out-elsewhere', 'signed-out-everywhere', 'account-disabled'] }),
  },
  (t) => [unique('sessions_uid_auth_time').on(t.uid, t.authTime), index('sessions_uid_last_seen').on(t.uid, t.lastSeenAt)],
);

/**
 * A user's authenticator app (TOTP, RFC 6238): the confirmed secret and a pending one being set up. The server must
 * read the secret to check a code, so it is kept as it is; it never leaves the server after the setup answer.
 */
export const totpFactors = pgTable('totp_factors', {
  uid: text('uid')
    .primaryKey()
    .references(() => users.uid, { onDelete: 'cascade' }),
  /** Base32; null until a first code confirmed a pending secret. */
  secret: text('secret'),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'string' }),
  pendingSecret: text('pending_secret'),
  pendingCreatedAt: timestamp('pending_created_at', { withTimezone: true, mode: 'string' }),
  /** The 30-second step of the last code accepted: a code is accepted once. */
  lastStep: bigint('last_step', { mode: 'number' }),
});

/** A registered passkey (WebAuthn credential) of a user. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    uid: text('uid')
      .notNull()
      .references(() => users.uid, { onDelete: 'cascade' }),
    /** The credential id, base64url, as the browser names it. */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'string' }),
  },
  (t) => [uniqueIndex('passkeys_credential').on(t.credentialId), index('passkeys_uid').on(t.uid)],
);

/** One-time recovery codes, stored as SHA-256 hashes (with the uid), each usable once. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    uid: text('uid')
      .notNull()
      .references(() => users.uid, { onDelete: 'cascade' }),
    hash: text('hash').notNull(),
    createdAt: createdAt(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'string' }),
  },
  (t) => [uniqueIndex('recovery_codes_hash').on(t.uid, t.hash)],
);

/** The pending WebAuthn challenge of a session, one per purpose, expiring after a few minutes. */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['register', 'authenticate'] }).notNull(),
    challenge: text('challenge').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'string' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.purpose] })],
);

/** Wrong second-factor attempts, counted per account in the database so the limit holds across instances. */
export const secondFactorFailures = pgTable(
  'second_factor_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    uid: text('uid')
      .notNull()
      .references(() => users.uid, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  },
  (t) => [index('second_factor_failures_uid_at').on(t.uid, t.at)],
);

/**
 * A client's case (a lead's too) as the service desk shares it out: who owns it. Kept apart from `users` so that an
 * assignment neither moves the client's own feed nor pokes them. A synced row for the staff feed only: its seq comes
 * from change_seq, so a reassignment reaches every staff replica holding the file. Nothing writes it yet: the rows are
 * opened and kept by the migration that assigns cases.
 */
export const cases = pgTable(
  'cases',
  {
    uid: text('uid')
      .primaryKey()
      .references(() => users.uid),
    /** The staff member who owns the case; null while it is unassigned. */
    ownerUid: text('owner_uid').references(() => users.uid),
    assignedAt: timestamp('assigned_at', { withTimezone: true, mode: 'string' }),
    /** Bumped by every assignment: one made from an older version is 409. */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    seq: seq(),
  },
  (t) => [index('cases_owner').on(t.ownerUid, t.uid)],
);

/**
 * One deadline of the service desk (an SLA timer): from `startedAt` staff have `targetMinutes` of business time to
 * do one thing (reply to a thread, price a request, decide on a lead). `warnAt` (75 % of the target) and `dueAt` are
 * computed by the server in business time when the deadline starts, and again for every running deadline when the
 * business hours or the targets change. It stops when the thing is done (`stoppedAt`, `stoppedByUid`, `met`); at most
 * one runs per kind and thing. Staff-only: no client route or client feed reads it; its seq lets the staff feed send
 * the file again when a deadline moves.
 */
export const deadlines = pgTable(
  'deadlines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    /** The client (or lead) whose case it is. */
    subjectUid: text('subject_uid')
      .notNull()
      .references(() => users.uid),
    /** What must be done: the thread's id (firstReply, nextReply), the request's id (pricing), the lead's uid (approval). */
    entityId: text('entity_id').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'string' }).notNull(),
    targetMinutes: integer('target_minutes').notNull(),
    warnAt: timestamp('warn_at', { withTimezone: true, mode: 'string' }).notNull(),
    dueAt: timestamp('due_at', { withTimezone: true, mode: 'string' }).notNull(),
    stoppedAt: timestamp('stopped_at', { withTimezone: true, mode: 'string' }),
    stoppedByUid: text('stopped_by_uid'),
    /** Whether it stopped by its due time; null while it runs (and when it was cancelled rather than met or missed). */
    met: boolean('met'),
    seq: seq(),
  },
  (t) => [
    uniqueIndex('deadlines_one_running').on(t.kind, t.entityId).where(sql`stopped_at IS NULL`),
    index('deadlines_running_due').on(t.kind, t.dueAt, t.entityId).where(sql`stopped_at IS NULL`),
    index('deadlines_subject_seq').on(t.subjectUid, t.seq),
    index('deadlines_stopped').on(t.stoppedAt).where(sql`stopped_at IS NOT NULL`),
    check('deadlines_kind_check', oneOf(t.kind, deadlineKinds)),
  ],
);
