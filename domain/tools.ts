import { z } from 'zod';

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
  videoUrl: string;
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
    videoUrl: 'https://www.youtube-nocookie.com/embed/track-master',
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
    videoUrl: 'https://www.youtube-nocookie.com/embed/web-intelligence',
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
    videoUrl: 'https://www.youtube-nocookie.com/embed/blockchain-analysis',
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
    videoUrl: 'https://www.youtube-nocookie.com/embed/bank-dispute',
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
    videoUrl: 'https://www.youtube-nocookie.com/embed/exchange-dispute',
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
