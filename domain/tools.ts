import { z } from 'zod';
import { formatMoney } from './format.ts';

/**
 * The one tool catalogue. The client renders purchase forms from it and the server validates
 * submissions with the zod schemas derived from it (see tool-schemas.ts), so no field list is
 * written twice.
 */
export type FieldType = 'text' | 'number' | 'select' | 'bigtext' | 'date' | 'file';

export interface ToolField {
  header: string;
  backendHeader: string;
  type: FieldType;
  options?: readonly string[];
  notes?: string;
}

export type ToolIcon = 'radar' | 'globe' | 'blocks' | 'landmark' | 'arrow-left-right';

/** One step of a tool's "how it works", in the tool's own words: what the client does, what we do, what they get. */
export interface ToolStep {
  title: string;
  text: string;
}

/**
 * What tells a tool's requests apart in a list (the second line of a row on phones): the main answers
 * of its form, joined by a space ("0.5 ETH"), under a short label. `money`: the value is in dollars.
 */
export interface ToolSummary {
  label: string;
  fields: readonly string[];
  money?: boolean;
}

export interface ToolDefinition {
  id: string;
  header: string;
  shortExplanation: string;
  info: string;
  icon: ToolIcon;
  /** The path of POST /api/{hrefBackend}. */
  hrefBackend: string;
  ToolNameBackend: string;
  isFormData: boolean;
  /**
   * The explainer video as a YouTube privacy-mode embed address, or null while the tool has none
   * (explainerVideoUrl says when an address counts as a video).
   */
  videoUrl: string | null;
  /** Shown in place of the video while there is none. */
  steps: readonly [ToolStep, ToolStep, ToolStep];
  /** Prefix of the request's short reference ("TM" in TM-0042); each tool has its own. */
  refPrefix: string;
  summary: ToolSummary;
  formFields: readonly ToolField[];
}

const fraudTypeOptions = ['crypto', 'investments', 'job', 'phishing', 'romance', 'else'] as const;
const paymentMethodOptions = ['card', 'crypto', 'wire', 'else'] as const;

export const BIGTEXT_MAX = 500;
export const BIGTEXT_ROWS = 5;

export const tools = [
  {
    id: 'track-master',
    header: 'Track Master',
    shortExplanation: 'Identify the most likely locations of the scammer behind your case.',
    info: 'Track Master sends a tracking link through the channel the scammer uses and records every visit: IP address, provider, VPN use and approximate location. Visits appear live once the service is paid in full.',
    icon: 'radar',
    hrefBackend: 'trackMasterProcess',
    ToolNameBackend: 'TRACK_MASTER',
    isFormData: false,
    videoUrl: null,
    steps: [
      { title: 'Tell us about the scammer', text: 'The website, the channel you talk to them on and everything you know about them.' },
      { title: 'Send them your tracking link', text: 'Our team makes a tracking link for you to send in your conversation with the scammer.' },
      { title: 'See where they are', text: 'Every visit is recorded: IP address, provider, VPN use and approximate location, live once paid in full.' },
    ],
    refPrefix: 'TM',
    summary: { label: 'Fraud URL', fields: ['fraudUrl'] },
    formFields: [
      { header: 'Fraud Type', backendHeader: 'fraudType', type: 'select', options: fraudTypeOptions },
      { header: 'Fraud URL', backendHeader: 'fraudUrl', type: 'text' },
      { header: 'Communication Channel', backendHeader: 'communicationChannel', type: 'text', notes: 'Example: Whatsapp, Telegram, Email' },
      {
        header: 'Notes',
        backendHeader: 'notes',
        type: 'bigtext',
        notes: 'Tell us everything you know about the scammer: emails, phone numbers, names and the general story.',
      },
    ],
  },
  {
    id: 'web-intelligence',
    header: 'Web Intelligence',
    shortExplanation: 'Analyse the online footprint of the website or profile that defrauded you.',
    info: 'Our analysts collect and correlate public and technical data about the website: ownership records, hosting, linked domains and reports from other victims.',
    icon: 'globe',
    hrefBackend: 'webIntelligence',
    ToolNameBackend: 'WEB_INTELLIGENCE',
    isFormData: true,
    videoUrl: null,
    steps: [
      { title: 'Tell us about the website', text: 'Its name and address, what happened and what you lost, with any document you have.' },
      { title: 'We analyse its footprint', text: 'Our analysts collect ownership records, hosting, linked domains and reports from other victims.' },
      { title: 'Get the report', text: 'The findings come as a report you download from this page when the work is done.' },
    ],
    refPrefix: 'WI',
    summary: { label: 'Website', fields: ['websiteName'] },
    formFields: [
      { header: 'Website Name', backendHeader: 'websiteName', type: 'text' },
      { header: 'Website URL', backendHeader: 'websiteUrl', type: 'text' },
      { header: 'Fraud Type', backendHeader: 'fraudType', type: 'select', options: ['crypto', 'investments', 'phishing', 'job', 'romance', 'else'] },
      { header: 'Description', backendHeader: 'description', type: 'bigtext' },
      { header: 'Amount Lost', backendHeader: 'amountLost', type: 'number' },
      { header: 'Relevant Information', backendHeader: 'relevantInformation', type: 'file' },
    ],
  },
  {
    id: 'blockchain-analysis',
    header: 'Blockchain Analysis',
    shortExplanation: 'Trace the flow of your crypto funds across wallets and exchanges.',
    info: 'We follow your transaction on chain, hop by hop, until the funds reach an exchange or service that can be asked to freeze them.',
    icon: 'blocks',
    hrefBackend: 'blockchainAnalysisProductRequest',
    ToolNameBackend: 'BLOCKCHAIN_ANALYSIS',
    isFormData: false,
    videoUrl: null,
    steps: [
      { title: 'Tell us about the transfer', text: 'The network, the wallet, the transaction, the amounts and the exchange you used.' },
      { title: 'We follow the funds', text: 'We trace your transaction on chain, hop by hop, across wallets and services.' },
      { title: 'Know where they went', text: 'The report names the exchange or service that received them, which can be asked to freeze them.' },
    ],
    refPrefix: 'BA',
    summary: { label: 'Amount', fields: ['cryptoAmount', 'cryptoNetwork'] },
    formFields: [
      { header: 'Crypto Network', backendHeader: 'cryptoNetwork', type: 'select', options: ['ETH', 'BTC', 'TRON'] },
      { header: 'Crypto Wallet', backendHeader: 'cryptoWallet', type: 'text' },
      { header: 'Crypto Amount', backendHeader: 'cryptoAmount', type: 'number' },
      { header: 'Fiat Amount', backendHeader: 'fiatAmount', type: 'number' },
      { header: 'Crypto Transaction', backendHeader: 'cryptoTransaction', type: 'text' },
      { header: 'Exchange Used', backendHeader: 'exchangeUsed', type: 'text' },
      { header: 'Transaction Date', backendHeader: 'transactionDate', type: 'date' },
    ],
  },
  {
    id: 'bank-dispute',
    header: 'Bank Dispute',
    shortExplanation: 'Dispute fraudulent transactions with your bank.',
    info: 'We prepare a documented dispute for your bank, built on your statement and the evidence of the fraud, and follow it until the bank answers.',
    icon: 'landmark',
    hrefBackend: 'bankDispute',
    ToolNameBackend: 'BANK_DISPUTE',
    isFormData: true,
    videoUrl: null,
    steps: [
      { title: 'Tell us what you lost', text: 'The amount, the date, the bank and how you paid, with your bank statement.' },
      { title: 'We build the dispute', text: 'A documented dispute for your bank, built on your statement and the evidence of the fraud.' },
      { title: 'We follow it through', text: 'We file it with your bank and follow it until the bank answers.' },
    ],
    refPrefix: 'BD',
    summary: { label: 'Amount lost', fields: ['amountLost'], money: true },
    formFields: [
      { header: 'Amount Lost', backendHeader: 'amountLost', type: 'number' },
      { header: 'Transaction Date', backendHeader: 'transactionDate', type: 'date' },
      { header: 'Transactions Bank Used', backendHeader: 'transactionsBankUsed', type: 'text' },
      { header: 'Payment Method', backendHeader: 'paymentMethod', type: 'select', options: paymentMethodOptions },
      { header: 'Bank Statement', backendHeader: 'bankStatement', type: 'file' },
    ],
  },
  {
    id: 'exchange-dispute',
    header: 'Exchange Dispute',
    shortExplanation: 'Dispute transactions with the crypto exchanges involved.',
    info: 'We file a dispute with the exchange that received or sent your funds, with the transfer evidence and the case history.',
    icon: 'arrow-left-right',
    hrefBackend: 'exchangeDispute',
    ToolNameBackend: 'EXCHANGE_DISPUTE',
    isFormData: true,
    videoUrl: null,
    steps: [
      { title: 'Tell us what you lost', text: 'The amount, the date, the exchange involved and a screenshot of the crypto transfer.' },
      { title: 'We file the dispute', text: 'A dispute with the exchange that received or sent your funds, with the transfer evidence and your case history.' },
      { title: 'We follow it through', text: 'We follow it until the exchange answers and keep you informed here.' },
    ],
    refPrefix: 'ED',
    summary: { label: 'Amount lost', fields: ['amountLost'], money: true },
    formFields: [
      { header: 'Amount Lost', backendHeader: 'amountLost', type: 'number' },
      { header: 'Transaction Date', backendHeader: 'transactionDate', type: 'date' },
      { header: 'Transactions Exchange Used', backendHeader: 'transactionsExchangeUsed', type: 'text' },
      { header: 'Payment Method', backendHeader: 'paymentMethod', type: 'select', options: paymentMethodOptions },
      { header: 'Crypto Transfer', backendHeader: 'cryptoTransfer', type: 'file', notes: 'Upload a screenshot of the crypto transfer' },
    ],
  },
] as const satisfies readonly ToolDefinition[];

export type Tool = (typeof tools)[number];
export type ToolId = Tool['id'];
export type ToolNameBackend = Tool['ToolNameBackend'];

export const toolIds = tools.map((t) => t.id) as [ToolId, ...ToolId[]];
export const toolNamesBackend = tools.map((t) => t.ToolNameBackend) as [ToolNameBackend, ...ToolNameBackend[]];
export const ToolNameBackendSchema = z.enum(toolNamesBackend);

export function findTool(id: string): ToolDefinition | undefined {
  return tools.find((t) => t.id === id);
}

export function toolByBackendName(name: string): ToolDefinition | undefined {
  return tools.find((t) => t.ToolNameBackend === name);
}

/** requestDetails keys are stored as `${ToolNameBackend}_${backendHeader}`; the prefix is stripped for display. */
export function detailKey(tool: ToolDefinition, backendHeader: string): string {
  return `${tool.ToolNameBackend}_${backendHeader}`;
}

export function stripDetailPrefix(productRequestType: string, key: string): string {
  const prefix = `${productRequestType}_`;
  return key.startsWith(prefix) ? key.slice(prefix.length) : key;
}

/** Request Details hides keys that contain "file" (attachments are not shown as text). */
export function visibleDetails(productRequestType: string, details: Record<string, unknown>): [string, unknown][] {
  return Object.entries(details)
    .filter(([key]) => !key.toLowerCase().includes('file'))
    .map(([key, value]) => [stripDetailPrefix(productRequestType, key), value]);
}

/**
 * The explainer video to offer, or null when the tool has none configured. "Configured" means a YouTube
 * privacy-mode embed of one video: https://www.youtube-nocookie.com/embed/ and an 11-character video id,
 * the only frame source the server's Content-Security-Policy allows. Anything else (null, empty, a
 * placeholder such as …/embed/track-master, another site) is not a video: the tool page shows its three
 * steps instead of a frame that could only show a broken page.
 */
export function explainerVideoUrl(tool: Pick<ToolDefinition, 'videoUrl'>): string | null {
  const url = tool.videoUrl?.trim();
  return url && /^https:\/\/www\.youtube-nocookie\.com\/embed\/[A-Za-z0-9_-]{11}$/.test(url) ? url : null;
}

/** Digits of the number in a reference: TM-0042, then TM-12345 past 9999. */
const REF_DIGITS = 4;

/**
 * A request's short human reference: the tool's prefix and the number the server gave the request
 * (product_requests.ref_no), e.g. TM-0042. Null while the request has no number yet (still on this
 * device, waiting to be sent). An unknown tool keeps the number under "REQ".
 */
export function requestRef(request: { productRequestType: string; refNo?: number | null }): string | null {
  if (request.refNo === null || request.refNo === undefined) return null;
  const prefix = toolByBackendName(request.productRequestType)?.refPrefix ?? 'REQ';
  return `${prefix}-${String(request.refNo).padStart(REF_DIGITS, '0')}`;
}

/** "https://www.quick-coins.example/" → "quick-coins.example": on a phone row the scheme would take the whole line. */
function shortAddress(value: string): string {
  return value.replace(/^https?:\/\/(www\.)?/i, '').replace(/\/$/, '');
}

/**
 * The request's key detail for a list row: "Amount lost: $1,200.00", "Website: shop-example", "Amount: 0.5 ETH".
 * Null when the tool is unknown or the answers are empty (an optimistic row before its details arrive).
 */
export function requestSummary(request: { productRequestType: string; requestDetails: Record<string, unknown> }): string | null {
  const tool = toolByBackendName(request.productRequestType);
  if (!tool) return null;
  const { label, fields, money } = tool.summary;
  const parts = fields
    .map((field) => request.requestDetails[detailKey(tool, field)])
    .filter((value): value is string | number => (typeof value === 'string' && value.trim() !== '') || (typeof value === 'number' && Number.isFinite(value)))
    .map((value) => (money && typeof value === 'number' ? formatMoney(value) : shortAddress(String(value).trim())));
  return parts.length === 0 ? null : `${label}: ${parts.join(' ')}`;
}

/**
 * "Bank Dispute request BD-0003": how a text (a client's notification) names the request it is about;
 * without the reference while the request has no number.
 */
export function requestName(request: { productRequestType: string; refNo?: number | null }, header = toolByBackendName(request.productRequestType)?.header ?? request.productRequestType): string {
  const ref = requestRef(request);
  return ref ? `${header} request ${ref}` : `${header} request`;
}
