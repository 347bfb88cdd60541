import { formatDate, formatDateTime, formatMoney } from '../../../../domain/format.ts';
import type { ContactReply, ContactRequest, Deal, Profile, UserFile } from '../../../../domain/schemas.ts';
import { requestRef, stripDetailPrefix, toolByBackendName } from '../../../../domain/tools.ts';
import type { TrackingLink } from '../../../../domain/tracking.ts';
import type { LocalRefund, LocalRequest } from '../../../lib/db.ts';
import type { PdfSection } from '../shared/pdf-document.ts';

/** Everything of the client's case the replica holds: what the case file is made of. */
export interface CaseData {
  profile: Profile | undefined;
  requests: LocalRequest[];
  deals: Deal[];
  refunds: LocalRefund[];
  files: UserFile[];
  trackingLinks: TrackingLink[];
  threads: ContactRequest[];
  replies: ContactReply[];
  /** When the device last heard from the server (ms), if ever. */
  lastSyncedAt: number | null;
  generatedAt: Date;
}

export type CaseSection = PdfSection;

const byTime = <T>(at: (x: T) => string) => (a: T, b: T) => Date.parse(at(a)) - Date.parse(at(b));

/** A section listing `items` oldest first, its heading given their count, or the one line `none` when there are none. */
function listSection<T>(heading: (count: number) => string, items: T[], at: (x: T) => string, line: (x: T) => string | string[], none: string): CaseSection {
  const sorted = [...items].sort(byTime(at));
  return { heading: heading(sorted.length), lines: sorted.length ? sorted.map(line) : [none] };
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB (${bytes} bytes)`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB (${bytes} bytes)`;
}

function toolName(type: string): string {
  return toolByBackendName(type)?.header ?? type;
}

/** "TM-0042 (id 3f…)": the short reference people quote, and the id that is unique for ever. */
function requestName(request: Pick<LocalRequest, 'id' | 'productRequestType' | 'refNo'>): string {
  const ref = requestRef(request);
  return ref ? `${ref} (id ${request.id})` : `Request id ${request.id}`;
}

function detailValue(key: string, value: unknown): string {
  // Dates are stored as timestamps (the catalogue's date fields).
  if (typeof value === 'number' && /date|time|transfer/i.test(key) && value > 1e11) return formatDate(value);
  return String(value);
}

/**
 * The case file's text, section by section, oldest first inside each: who the client is, what they told us,
 * every request with its details and status, the money, the evidence with its SHA-256, Track Master and the
 * support conversation. Only what the device holds: it is built offline too.
 */
export function caseFileSections(data: CaseData): CaseSection[] {
  const { profile } = data;
  const requestsById = new Map(data.requests.map((r) => [r.id, r]));
  const nameOf = (id: string) => {
    const request = requestsById.get(id);
    return request ? requestName(request) : `Request id ${id}`;
  };
  const sections: CaseSection[] = [];

  sections.push({
    heading: 'About this document',
    lines: [
      `Generated ${formatDateTime(data.generatedAt)} from the copy of the case kept on this device.`,
      data.lastSyncedAt ? `Last brought up to date with the portal ${formatDateTime(data.lastSyncedAt)}.` : 'Never brought up to date with the portal on this device.',
      'The SHA-256 of each evidence file lets anyone check that a copy is exactly the file uploaded.',
    ],
  });

  const name = [profile?.firstName, profile?.lastName].filter(Boolean).join(' ');
  sections.push({
    heading: 'The client',
    lines: profile
      ? [`Name: ${name || profile.initialForm?.name || 'not given'}`, `Email: ${profile.email}`, `Portal account: ${profile.uid}`, `Account opened: ${formatDate(profile.createdAt)}`]
      : ['The profile is not on this device yet.'],
  });

  const form = profile?.initialForm;
  sections.push({
    heading: 'What happened (initial form)',
    lines: form
      ? [
          `Name given: ${form.name}`,
          `Money lost: ${formatMoney(form.moneyLost)}`,
          `Last transfer of funds: ${formatDate(form.lastFundsTransfer)}`,
          `Type of fraud: ${form.fraudType}`,
          `Website or profile of the fraud: ${form.fraudUrl}`,
        ]
      : ['The initial form has not been filled in.'],
  });

  sections.push(
    listSection(
      (n) => `Requests (${n})`,
      data.requests,
      (r) => r.Created_Time,
      (r) => [
        `${requestName(r)}: ${toolName(r.productRequestType)}`,
        `Ordered ${formatDateTime(r.Created_Time)}; status ${r.status}${r.pending ? ' (not sent yet)' : ''}, last changed ${formatDateTime(r.updatedAt)}`,
        `Price ${formatMoney(r.totalAmount)}; paid ${formatMoney(r.paid)}; left to pay ${formatMoney(r.leftToPay)}`,
        ...(r.rejectionReason ? [`Reason given for the rejection: ${r.rejectionReason}`] : []),
        ...Object.entries(r.requestDetails).map(([key, value]) => `${stripDetailPrefix(r.productRequestType, key)}: ${detailValue(key, value)}`),
        ...r.attachments.map((a) => `Attached file: ${a.name}`),
      ],
      'No requests.',
    ),
    listSection(
      (n) => `Payments and invoices (${n})`,
      data.deals,
      (d) => d.Created_Time,
      (d) => `${formatDate(d.Created_Time)}: ${formatMoney(d.amount)} for ${toolName(d.productRequestType)}, ${nameOf(d.requestId)}${d.invoiceNumber ? `, invoice ${d.invoiceNumber}` : ''}`,
      'No payments recorded.',
    ),
    listSection(
      (n) => `Refunds (${n})`,
      data.refunds,
      (r) => r.createdAt,
      (r) => [
        `${formatDate(r.createdAt)}: ${r.refundRequestType.toLowerCase()} refund asked for ${nameOf(r.processId)}: ${r.reason}`,
        `Status ${r.status}${r.decidedAt ? ` on ${formatDate(r.decidedAt)}` : ''}${r.amount !== null ? `, ${formatMoney(r.amount)}` : ''}${r.note ? `: ${r.note}` : ''}`,
      ],
      'No refunds asked for.',
    ),
    listSection(
      (n) => `Evidence files (${n})`,
      data.files,
      (f) => f.createdAt,
      (f) => [f.name, `Uploaded ${formatDateTime(f.createdAt)}, ${size(f.size)}, ${f.contentType}`, `SHA-256 ${f.sha256}`],
      'No files uploaded.',
    ),
    listSection(
      (n) => `Track Master links (${n})`,
      data.trackingLinks,
      (l) => l.createdAt,
      (l) =>
        `${l.label} (${nameOf(l.productRequestId)}): ${l.visits} visit${l.visits === 1 ? '' : 's'}, ${l.previews} link preview${l.previews === 1 ? '' : 's'}${l.lastVisitAt ? `, last visit ${formatDateTime(l.lastVisitAt)}` : ''}${l.disabled ? ', disabled' : ''}`,
      'No tracking links.',
    ),
    listSection(
      (n) => `Support conversation (${n} thread${n === 1 ? '' : 's'})`,
      data.threads,
      (t) => t.createdAt,
      (t) => [
        `${t.subject} (${t.status})`,
        `${formatDateTime(t.createdAt)} client: ${t.message}`,
        ...data.replies
          .filter((m) => m.threadId === t.id)
          .sort(byTime((m) => m.createdAt))
          .map((m) => `${formatDateTime(m.createdAt)} ${m.author === 'client' ? 'client' : 'support'}: ${m.message}`),
      ],
      'No messages.',
    ),
  );
  return sections;
}
