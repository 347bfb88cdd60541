import { type Cents, cents, dollarsFromCents, dollarsOrNull } from '../../domain/money.ts';
import type { Deal, ProductRequest, Profile, RefundRequest, Visit } from '../../domain/schemas.ts';
import type { StaffClient, StaffDeal, StaffFile, StaffRefund, StaffRequest } from '../../domain/staff.ts';
import type { deals, files, productRequests, refunds, users, visits } from '../db/schema.ts';
import type { RequestExtras } from './request-extras.ts';
import { toUserFile } from './messages.ts';
import { isoTime as iso } from '../platform/iso-time.ts';
import { INVOICE_LINK_TTL_MS, type SignedLinks } from '../files/signed-links.ts';

/**
 * Row → API shape. Kept in one place so the REST answers and the sync feed can never disagree.
 *
 * `activityStatus` is not in the users row: presence lives in user_presence (schema.ts userPresence),
 * outside the sync sequence, so a tab shown or hidden neither takes the change_seq lock nor re-sends the
 * profile. Pass `presence`, the user_presence.status read next to the row: GET /api/user and the staff
 * client file do, so what they answer is the stored presence. A caller that did not read it gets
 * IN_ACTIVE, the same as a user who never reported. Profile keeps the field (the staff client page
 * shows it), and a copy sent by a feed is only as fresh as the last change of the users row: presence
 * changes alone do not re-send it (docs/api.md, "Presence").
 */
export function toProfile(row: typeof users.$inferSelect, presence?: string | null): Profile {
  return {
    uid: row.uid,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    isClient: row.isClient,
    isAdmin: row.isAdmin,
    isStaff: row.isStaff || row.isAdmin,
    filledInitialForm: row.filledInitialForm,
    initialForm: (row.initialForm as Profile['initialForm']) ?? null,
    activityStatus: presence === 'ACTIVE' ? 'ACTIVE' : 'IN_ACTIVE',
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

type RequestRow = typeof productRequests.$inferSelect;
type DealRow = typeof deals.$inferSelect;
type RefundRow = typeof refunds.$inferSelect;
type VisitRow = typeof visits.$inferSelect;

/** What is still owed, in cents: null while no total is set, never below zero. */
export function leftToPayCents(row: Pick<RequestRow, 'totalCents' | 'paidCents'>): Cents | null {
  return row.totalCents === null ? null : cents(Math.max(0, row.totalCents - row.paidCents));
}

/** Paid in full: a total is set and nothing is left to pay. Gates the final file and Live Details. */
export function isFullyPaid(row: Pick<RequestRow, 'totalCents' | 'paidCents'>): boolean {
  return leftToPayCents(row) === 0;
}

/**
 * `extras` (server/serialize/request-extras.ts): the status history and the attachments' size, SHA-256 and upload time,
 * which the delta feed adds; other answers leave them out.
 */
/** The columns a client's request is made of (server/sync/requests.ts reads only these for the feed). */
export type ClientRequestRow = Pick<
  RequestRow,
  'id' | 'productRequestType' | 'refNo' | 'createdAt' | 'status' | 'contractSigned' | 'totalCents' | 'paidCents' | 'requestDetails' | 'attachments' | 'updatedAt' | 'rejectionReason' | 'commandId'
>;

export function toRequest(row: ClientRequestRow, extras?: RequestExtras): ProductRequest {
  return {
    id: row.id,
    productRequestType: row.productRequestType as ProductRequest['productRequestType'],
    refNo: row.refNo,
    Created_Time: iso(row.createdAt),
    status: row.status as ProductRequest['status'],
    contractSigned: row.contractSigned,
    totalAmount: dollarsOrNull(row.totalCents),
    paid: dollarsFromCents(row.paidCents),
    leftToPay: dollarsOrNull(leftToPayCents(row)),
    requestDetails: (row.requestDetails ?? {}) as ProductRequest['requestDetails'],
    attachments: ((row.attachments ?? []) as ProductRequest['attachments']).map((a) => ({ id: a.id, field: a.field, name: a.name, ...extras?.attachments.get(a.id) })),
    updatedAt: iso(row.updatedAt),
    rejectionReason: row.rejectionReason,
    ...(extras ? { statusHistory: extras.statusHistory } : {}),
    ...(row.commandId ? { commandId: row.commandId } : {}),
  };
}

/**
 * `deals.invoiceUrl` holds the `files.id` of the invoice PDF; the API turns it into a signed,
 * expiring download link. Pass `createSignedLinks(app.config.downloadSecret)` from signed-links.ts.
 */
export function toDeal(row: DealRow, links: SignedLinks): Deal {
  return {
    id: row.id,
    requestId: row.requestId,
    productRequestType: row.productRequestType as Deal['productRequestType'],
    Created_Time: iso(row.createdAt),
    amount: dollarsFromCents(row.amountCents),
    invoice: row.invoiceUrl ? links.link(row.invoiceUrl, INVOICE_LINK_TTL_MS) : null,
    invoiceNumber: row.invoiceNumber,
  };
}

export function toRefund(row: RefundRow): RefundRequest {
  return {
    id: row.id,
    tool: row.tool as RefundRequest['tool'],
    processId: row.requestId,
    refundRequestType: row.refundRequestType as RefundRequest['refundRequestType'],
    reason: row.reason,
    createdAt: iso(row.createdAt),
    status: row.status as RefundRequest['status'],
    amount: dollarsOrNull(row.decidedCents),
    note: row.decisionNote,
    decidedAt: row.decidedAt ? iso(row.decidedAt) : null,
    ...(row.commandId ? { commandId: row.commandId } : {}),
  };
}

/** Staff view of a refund: `paid` is what the client paid on its request, the most it can return. */
export function toStaffRefund(row: RefundRow, paid: Cents): StaffRefund {
  return { ...toRefund(row), version: row.version, paid: dollarsFromCents(paid), decidedBy: row.decidedBy };
}

export function toVisit(row: VisitRow): Visit {
  return {
    id: row.id,
    userId: row.userId,
    productRequestId: row.requestId,
    ip: row.ip,
    host: row.host,
    source: row.source,
    domain: row.domain,
    brand: row.brand,
    time: iso(row.time),
    country: row.country,
    isp: row.isp,
    vpn: row.vpn,
    new: row.isNew,
    archive: row.archive,
    ipDetails: (row.ipDetails as Visit['ipDetails']) ?? null,
    // The capture's fields (server/tracking/visit-details.ts); null on visits stored before tracking links.
    linkId: row.linkId,
    userAgent: row.userAgent,
    browser: row.browser,
    os: row.os,
    device: row.device,
    referrer: row.referrer,
    language: row.language,
    preview: row.preview,
  };
}

/** Staff view of a request: the client's shape plus what staff act on (version, owner, rejection, final file). */
export function toStaffRequest(row: RequestRow): StaffRequest {
  return {
    ...toRequest(row),
    toolId: row.toolId,
    version: row.version,
    userId: row.userId,
    rejectionReason: row.rejectionReason,
    finalFileId: row.finalFileId,
  };
}

export function toStaffDeal(row: DealRow, links: SignedLinks): StaffDeal {
  return {
    ...toDeal(row, links),
    method: (row.method as StaffDeal['method']) ?? null,
    reference: row.reference,
    paidAt: row.paidAt,
    invoiceNumber: row.invoiceNumber,
  };
}

export function toStaffFile(row: typeof files.$inferSelect): StaffFile {
  return { ...toUserFile(row), field: row.field };
}

/** `presence`: user_presence.status, as for toProfile. */
export function toStaffClient(row: typeof users.$inferSelect, presence?: string | null): StaffClient {
  return { ...toProfile(row, presence), phone: row.phone, country: row.country, version: row.version, disabled: row.disabledAt !== null };
}

export function clientName(row: Pick<typeof users.$inferSelect, 'firstName' | 'lastName' | 'email'>): string {
  return [row.firstName, row.lastName].filter(Boolean).join(' ') || row.email;
}
