import { statusLabelOf } from '../../../../domain/enums.ts';
import { formatDate, formatDateTime, formatMoney } from '../../../../domain/format.ts';
import type { ContactReply, ContactRequest, Deal, LiveDetails, Profile, UserFile, Visit } from '../../../../domain/schemas.ts';
import { texts } from '../../../../domain/texts.ts';
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
  /** Live Details as last fetched (by the popup or the case file page): Track Master visits once paid, a row count before. */
  liveDetails: (LiveDetails & { fetchedAt: number })[];
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

/** "Pending 02/10/2026 09:00; Awaiting Payment 03/10/2026 10:15": every status the request entered, oldest first. */
function statusHistoryLine(request: LocalRequest): string {
  if (request.pending) return 'Status history: starts when the request is sent.';
  if (!request.statusHistory?.length) return 'Status history: not on this device yet (it comes with the next update from the portal).';
  return `Status history: ${request.statusHistory.map((change) => `${statusLabelOf(change.status)} ${formatDateTime(change.at)}`).join('; ')}`;
}

/** A file listed as evidence: a general upload or a file sent with an order, with what proves its content. */
interface EvidenceFile {
  name: string;
  uploadedAt: string | undefined;
  /** Sorts the list; a file whose upload time the device does not have yet sorts by its request's. */
  at: string;
  size: number | undefined;
  sha256: string | undefined;
  what: string;
}

function evidenceFiles(data: CaseData, nameOf: (id: string) => string): EvidenceFile[] {
  const general = data.files.map((f) => ({ name: f.name, uploadedAt: f.createdAt, at: f.createdAt, size: f.size, sha256: f.sha256, what: f.contentType }));
  const attached = data.requests.flatMap((r) =>
    r.attachments.map((a) => ({ name: a.name, uploadedAt: a.uploadedAt, at: a.uploadedAt ?? r.Created_Time, size: a.size, sha256: a.sha256, what: `sent with ${nameOf(r.id)}` })),
  );
  return [...general, ...attached];
}

function evidenceLines(f: EvidenceFile): string[] {
  if (!f.uploadedAt || f.size === undefined || !f.sha256) return [f.name, `Not yet confirmed by the portal on this device, ${f.what}`, 'SHA-256 not on this device yet'];
  return [f.name, `Uploaded ${formatDateTime(f.uploadedAt)}, ${size(f.size)}, ${f.what}`, `SHA-256 ${f.sha256}`];
}

/** "Chrome 131 · Android 14 · mobile". */
function deviceOf(visit: Visit): string {
  return [visit.browser, visit.os, visit.device].filter(Boolean).join(' · ') || 'device not known';
}

/** "Lagos, Nigeria". */
function placeOf(visit: Visit): string {
  const city = visit.ipDetails?.city_name;
  return [typeof city === 'string' && city !== '-' ? city : null, visit.country].filter(Boolean).join(', ') || 'place not known';
}

function visitLine(visit: Visit, links: Map<string, TrackingLink>): string {
  const link = visit.linkId ? links.get(visit.linkId) : undefined;
  const via = link ? ` via "${link.label}"` : '';
  if (visit.preview) return `${formatDateTime(visit.time)}: link preview by ${visit.preview}${via} (an app drawing the link, not a person)`;
  const network = [visit.isp, visit.vpn ? 'VPN' : null].filter(Boolean).join(', ') || 'network not known';
  return `${formatDateTime(visit.time)}${via}: IP ${visit.ip}, ${placeOf(visit)}; network ${network}; ${deviceOf(visit)}`;
}

/**
 * One Track Master request's visits: the visits themselves when the device holds them (fetched once paid in full,
 * the server's gate), otherwise how many there are and the Live Details sentence saying when they can be seen.
 */
function trackMasterVisits(request: LocalRequest, data: CaseData, name: string): string[] {
  const links = data.trackingLinks.filter((l) => l.productRequestId === request.id);
  const count = links.reduce((n, l) => n + l.visits, 0);
  const live = data.liveDetails.find((d) => d.id === request.id);
  const counted = `${count} visit${count === 1 ? '' : 's'} recorded`;
  if (!live || typeof live.data === 'number') {
    const paid = request.totalAmount !== null && request.leftToPay === 0;
    return [name, `${counted}. ${paid ? 'Their details are not on this device yet: open this page while online to bring them.' : texts.liveDetailsUnpaid}`];
  }
  const byLink = new Map(links.map((l) => [l.id, l]));
  const visits = [...live.data].sort(byTime((v) => v.time));
  const people = visits.filter((v) => !v.preview).length;
  return [
    name,
    `${people} visit${people === 1 ? '' : 's'}, as the portal listed them ${formatDateTime(live.fetchedAt)}${visits.length ? ':' : '.'}`,
    ...visits.map((v) => visitLine(v, byLink)),
  ];
}

function detailValue(key: string, value: unknown): string {
  // Dates are stored as timestamps (the catalogue's date fields).
  if (typeof value === 'number' && /date|time|transfer/i.test(key) && value > 1e11) return formatDate(value);
  return String(value);
}

/**
 * The case file's text, section by section, oldest first inside each: who the client is, what they told us,
 * every request with its details and status history, the money, the evidence (general uploads and the files sent
 * with orders) with its SHA-256, Track Master links and visits, and the support conversation. Only what the device holds: it is built offline too.
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
        `Ordered ${formatDateTime(r.Created_Time)}; status ${statusLabelOf(r.status)}${r.pending ? ' (not sent yet)' : ''}, last changed ${formatDateTime(r.updatedAt)}`,
        statusHistoryLine(r),
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
    listSection((n) => `Evidence files (${n})`, evidenceFiles(data, nameOf), (f) => f.at, evidenceLines, 'No files uploaded.'),
    listSection(
      (n) => `Track Master links (${n})`,
      data.trackingLinks,
      (l) => l.createdAt,
      (l) =>
        `${l.label} (${nameOf(l.productRequestId)}): ${l.visits} visit${l.visits === 1 ? '' : 's'}, ${l.previews} link preview${l.previews === 1 ? '' : 's'}${l.lastVisitAt ? `, last visit ${formatDateTime(l.lastVisitAt)}` : ''}${l.disabled ? ', disabled' : ''}`,
      'No tracking links.',
    ),
    listSection(
      (n) => `Track Master visits (${n} request${n === 1 ? '' : 's'})`,
      data.requests.filter((r) => r.productRequestType === 'TRACK_MASTER' && !r.pending),
      (r) => r.Created_Time,
      (r) => trackMasterVisits(r, data, requestName(r)),
      'No Track Master requests.',
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
