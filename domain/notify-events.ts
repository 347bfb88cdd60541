import type { PreferenceField } from './notification-preferences.ts';
import { NEUTRAL_PUSH_BODY, PUSH_TITLE } from './push.ts';

/**
 * The events that reach people outside the app (push and email), who hears of each, and the words they read
 * (docs/decisions/029-deliveries.md). The server writes one delivery per recipient and channel in the transaction
 * of the change; the worker turns it into a push or an email with the texts below. Every text is a function of the
 * event's facts, so translating them is replacing this table.
 *
 * A lock screen is often seen by others: a push says only the product name and a neutral line unless the person
 * turned on "Show details on the lock screen". Mail names the reference and the screen, never amounts, names or
 * message text (a victim's mailbox is often in the scammer's hands).
 */

/** The product's name as a lock screen and a mailbox show it: the installed app's short name. */
export const PRODUCT_NAME = PUSH_TITLE;

export interface EventFacts {
  /** The request it is about, its tool (for the link) and its reference ("BD-0003"). */
  requestId?: string;
  tool?: string;
  ref?: string;
  /** The support thread it is about, and its subject (only in the staff's texts). */
  threadId?: string;
  /** The client a staff event is about. */
  clientUid?: string;
  clientName?: string;
  /** The refund request it is about. */
  refundId?: string;
  /** A refund's outcome; a payment details proposal's too. */
  approved?: boolean;
  /** The payment details proposal it is about (admins' events). */
  proposalId?: string;
  /** The final report can be downloaded (paid in full). */
  downloadable?: boolean;
}

type Audience = 'client' | 'staff';
/**
 * general: the "General Updates" switch; personal: "Personal Updates"; essential: payments, which reach the client
 * whatever they chose (and are rare), and the payment details' proposals, which reach every admin whatever they
 * chose; staff: the staff switch named by `staffSwitch`.
 */
export type DeliveryCategory = 'general' | 'personal' | 'essential' | 'staff';

interface EventDefinition {
  audience: Audience;
  category: DeliveryCategory;
  /** For staff events: the staff switch that turns it off. */
  staffSwitch?: PreferenceField;
  /** The screen a click opens: a same-origin path of ids only. */
  url: (facts: EventFacts) => string;
  /** What opening in the app counts as having seen it (besides the notification's read marker). */
  seen?: (facts: EventFacts) => { kind: 'thread' | 'request'; id: string } | null;
  /** The neutral line of a push (lock screen default) and of an email's first paragraph. */
  neutral: (facts: EventFacts) => string;
  /** What happened, neutrally, with at most the reference: an email's subject (after the product name) and its first line. */
  line: (facts: EventFacts) => string;
  /** A staff event's detailed line (clients' details are their in-app notification's text). */
  detail?: (facts: EventFacts) => string;
}

const requestUrl = (f: EventFacts) => (f.tool && f.requestId ? `/tool/${encodeURIComponent(f.tool)}?request=${encodeURIComponent(f.requestId)}` : '/');
const seenRequest = (f: EventFacts) => (f.requestId ? { kind: 'request' as const, id: f.requestId } : null);
const ofRequest = (f: EventFacts) => (f.ref ? ` (${f.ref})` : '');
const update = NEUTRAL_PUSH_BODY;

export const deliveryEvents = {
  // ---- clients ----
  reply: {
    audience: 'client',
    category: 'personal',
    url: (f) => (f.threadId ? `/contact-requests?thread=${encodeURIComponent(f.threadId)}` : '/contact-requests'),
    seen: (f) => (f.threadId ? { kind: 'thread', id: f.threadId } : null),
    neutral: () => 'Support replied to your message',
    line: () => `Support replied to your message`,
  },
  priced: {
    audience: 'client',
    category: 'personal',
    url: requestUrl,
    seen: seenRequest,
    neutral: () => update,
    line: (f) => `Your request${ofRequest(f)} is ready to pay`,
  },
  workStarted: {
    audience: 'client',
    category: 'personal',
    url: requestUrl,
    seen: seenRequest,
    neutral: () => update,
    line: (f) => `Work has started on your request${ofRequest(f)}`,
  },
  reportReady: {
    audience: 'client',
    category: 'personal',
    url: requestUrl,
    seen: seenRequest,
    neutral: () => update,
    line: (f) => `Your request${ofRequest(f)} is done`,
  },
  rejected: {
    audience: 'client',
    category: 'personal',
    url: requestUrl,
    seen: seenRequest,
    neutral: () => update,
    line: (f) => `An update on your request${ofRequest(f)}`,
  },
  payment: {
    audience: 'client',
    category: 'essential',
    url: () => '/settings?tab=billings',
    neutral: () => update,
    line: (f) => `Payment received${ofRequest(f)}`,
  },
  refundDecided: {
    audience: 'client',
    category: 'personal',
    url: requestUrl,
    seen: seenRequest,
    neutral: () => update,
    line: (f) => `Your refund request${ofRequest(f)} was decided`,
  },
  notification: {
    audience: 'client',
    category: 'personal',
    url: () => '/notifications',
    neutral: () => update,
    line: () => `You have a new notification`,
  },
  /** A sign-in from a browser and system the account never used: anyone, staff above all, must hear of it. */
  newSignIn: {
    audience: 'client',
    category: 'essential',
    url: () => '/settings?tab=security',
    neutral: () => 'A new sign-in to your account',
    line: () => `A new sign-in to your account: not you? Sign out all devices`,
  },
  generalNotification: {
    audience: 'client',
    category: 'general',
    url: () => '/notifications',
    neutral: () => update,
    line: () => `You have a new notification`,
  },
  // ---- staff ----
  newLead: {
    audience: 'staff',
    category: 'staff',
    staffSwitch: 'staffLeads',
    url: (f) => (f.clientUid ? `/staff/clients/${encodeURIComponent(f.clientUid)}` : '/staff'),
    neutral: () => 'A new lead is awaiting approval',
    line: () => `A new lead is awaiting approval`,
    detail: (f) => `${f.clientName ?? 'A new client'} filled in the initial form and is awaiting approval.`,
  },
  newRequest: {
    audience: 'staff',
    category: 'staff',
    staffSwitch: 'staffRequests',
    url: (f) => (f.requestId ? `/staff/requests/${encodeURIComponent(f.requestId)}` : '/staff'),
    neutral: () => 'A new request is waiting to be priced',
    line: () => `A new request to price`,
    detail: (f) => `${f.clientName ?? 'A client'} ordered a new request${ofRequest(f)}; it is waiting to be priced.`,
  },
  clientMessage: {
    audience: 'staff',
    category: 'staff',
    staffSwitch: 'staffMessages',
    url: (f) => (f.clientUid ? `/staff/clients/${encodeURIComponent(f.clientUid)}` : '/staff'),
    neutral: () => 'A client wrote to support',
    line: () => `A client message awaits an answer`,
    detail: (f) => `${f.clientName ?? 'A client'} wrote to support and awaits an answer.`,
  },
  refundRequested: {
    audience: 'staff',
    category: 'staff',
    staffSwitch: 'staffRefunds',
    url: (f) => (f.requestId ? `/staff/requests/${encodeURIComponent(f.requestId)}` : '/staff'),
    neutral: () => 'A new refund request',
    line: () => `A new refund request`,
    detail: (f) => `${f.clientName ?? 'A client'} asked for a refund${ofRequest(f)}.`,
  },
  // ---- admins: the payment details clients pay into (docs/decisions/032-payment-details-four-eyes.md) ----
  // Essential: an admin cannot turn off hearing that someone (perhaps a thief in a colleague's account, or in
  // their own) asked to change where clients pay.
  paymentDetailsProposed: {
    audience: 'staff',
    category: 'essential',
    url: () => '/staff/business-settings',
    neutral: () => 'A change of the payment details awaits approval',
    line: () => `A change of the payment details awaits a second admin`,
    detail: () => 'An admin proposed new payment details for clients. Check with them in person or by phone, then approve or reject it in Business settings.',
  },
  paymentDetailsDecided: {
    audience: 'staff',
    category: 'essential',
    url: () => '/staff/business-settings',
    neutral: () => 'Your change of the payment details was decided',
    line: (f) => (f.approved ? 'Your change of the payment details was approved' : 'Your change of the payment details was rejected'),
    detail: (f) => (f.approved ? 'A second admin approved your new payment details: clients see them now.' : 'A second admin rejected your new payment details: clients keep the current ones.'),
  },
} satisfies Record<string, EventDefinition>;

export type DeliveryEventKind = keyof typeof deliveryEvents;
export const DELIVERY_EVENT_KINDS = Object.keys(deliveryEvents) as DeliveryEventKind[];

export function eventDefinition(kind: string): EventDefinition | undefined {
  return (deliveryEvents as Record<string, EventDefinition>)[kind];
}

/** An email's closing line: why it came, and that the portal never asks for passwords or payments by email. */
export const EMAIL_FOOTER = 'You receive this because of your account on the portal. We never ask for passwords, codes or payments by email: open the portal to check anything we send.';
/** An email's subject: the product name and the neutral line, never a detail. */
export const emailSubject = (line: string) => `${PRODUCT_NAME}: ${line}`;
export const DIGEST_LINE = (count: number) => `${count} new updates`;
export const OPEN_LINK = 'Open the portal';
