import { randomUUID } from 'node:crypto';
import { BUSINESS_SETTINGS_ID } from '../../domain/business-settings.ts';
import { centsFromDollars } from '../../domain/money.ts';
import type { RequestStatus } from '../../domain/enums.ts';
import { detailKey, tools, type ToolDefinition, type ToolId } from '../../domain/tools.ts';
import type { Db } from '../db/client.ts';
import { businessSettings, deals, files, productRequests, trackingLinks } from '../db/schema.ts';
import type { Storage } from '../files/storage.ts';
import { loadIpLookup } from '../tracking/ip-lookup.ts';
import { newSlug } from '../tracking/links.ts';
import { recordVisit } from '../tracking/record-visit.ts';

const DAY = 24 * 60 * 60 * 1000;

/** A small, valid one-page PDF (correct xref offsets), so seeded invoices and reports open in any viewer. */
export function minimalPdf(title: string, lines: string[]): Buffer {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '?');
  const text = [`BT /F1 18 Tf 72 760 Td (${esc(title)}) Tj ET`, ...lines.map((l, i) => `BT /F1 11 Tf 72 ${730 - i * 16} Td (${esc(l)}) Tj ET`)].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) pdf += `${String(off).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** Realistic form answers per tool, by the catalogue's backendHeaders (file fields are attachments, not details). */
const detailsByTool: Record<ToolId, Record<string, string | number>[]> = {
  'track-master': [
    { fraudType: 'romance', fraudUrl: 'https://lovely-hearts-match.example', communicationChannel: 'WhatsApp', notes: 'Met "Daniel" on a dating app in March. He moved the chat to WhatsApp (+44 7700 900123) and asked for money for a flight ticket and customs fees.' },
    { fraudType: 'investments', fraudUrl: 'https://quantum-yield-pro.example', communicationChannel: 'Telegram', notes: 'Account manager "Sophie Klein" (@sophie_qyp) promised 8% a week. Withdrawals are blocked until I pay a 20% "tax". Email: support@quantum-yield-pro.example' },
    { fraudType: 'crypto', fraudUrl: 'https://coin-vault-exchange.example', communicationChannel: 'Email', notes: 'Fake exchange advertised on social media. Contact was mike.trader@mail.example. They asked for my seed phrase to "verify" the wallet.' },
    { fraudType: 'job', fraudUrl: 'https://remote-task-hub.example', communicationChannel: 'Telegram', notes: 'Online job rating products. I had to top up my "task account" with USDT to unlock commissions. Recruiter used the name Anna Lopez.' },
    { fraudType: 'phishing', fraudUrl: 'https://secure-mybank-login.example', communicationChannel: 'SMS', notes: 'Text message about a blocked card linked to a copy of my bank\'s site. Money left my account the same evening.' },
  ],
  'web-intelligence': [
    { websiteName: 'Quantum Yield Pro', websiteUrl: 'https://quantum-yield-pro.example', fraudType: 'investments', description: 'Trading platform showing fake profits. Registered a few months ago, support only by Telegram.', amountLost: 18500 },
    { websiteName: 'CoinVault Exchange', websiteUrl: 'https://coin-vault-exchange.example', fraudType: 'crypto', description: 'Exchange clone that accepted deposits and froze my account after I asked to withdraw.', amountLost: 7200 },
    { websiteName: 'Lovely Hearts Match', websiteUrl: 'https://lovely-hearts-match.example', fraudType: 'romance', description: 'Dating site where the scammer\'s profile was created. Photos appear to be stolen from a model.', amountLost: 4300 },
    { websiteName: 'Remote Task Hub', websiteUrl: 'https://remote-task-hub.example', fraudType: 'job', description: 'Fake recruitment site for product-rating tasks paid in crypto.', amountLost: 2650 },
    { websiteName: 'Parcel Fee Portal', websiteUrl: 'https://parcel-fee-portal.example', fraudType: 'phishing', description: 'Page asking for a small delivery fee that captured my card details.', amountLost: 980 },
  ],
  'blockchain-analysis': [
    { cryptoNetwork: 'ETH', cryptoWallet: '0x4e83362442b8d1bec281594cea3050c8eb01311c', cryptoAmount: 3.25, fiatAmount: 9800, cryptoTransaction: '0x9fc76417374aa880d4449a1f7f31ec597f00b1f6f3dd2d66f4c9c6c445836d8b', exchangeUsed: 'Coinbase' },
    { cryptoNetwork: 'BTC', cryptoWallet: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', cryptoAmount: 0.42, fiatAmount: 24500, cryptoTransaction: 'a1075db55d416d3ca199f55b6084e2115b9345e16c5cf302fc80e9d5fbf5d48d', exchangeUsed: 'Kraken' },
    { cryptoNetwork: 'TRON', cryptoWallet: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL', cryptoAmount: 15000, fiatAmount: 15000, cryptoTransaction: '5c1b6a3bb6c44aa7c0f2b4e5d9c4c5d0d6a9b0e3f7c2a1d8e4b6c3a2f1e0d9c8', exchangeUsed: 'Binance' },
    { cryptoNetwork: 'ETH', cryptoWallet: '0x742d35cc6634c0532925a3b844bc454e4438f44e', cryptoAmount: 1.1, fiatAmount: 3300, cryptoTransaction: '0x2b6a1f4c8e0d9a7b3c5e1f2d4a6b8c0e9d7f5a3b1c2e4d6f8a0b9c7d5e3f1a2b', exchangeUsed: 'Bitstamp' },
    { cryptoNetwork: 'BTC', cryptoWallet: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT', cryptoAmount: 0.08, fiatAmount: 4700, cryptoTransaction: '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b', exchangeUsed: 'Bitpanda' },
  ],
  'bank-dispute': [
    { amountLost: 12500, transactionsBankUsed: 'Barclays', paymentMethod: 'wire' },
    { amountLost: 3400, transactionsBankUsed: 'HSBC', paymentMethod: 'card' },
    { amountLost: 860, transactionsBankUsed: 'Revolut', paymentMethod: 'card' },
    { amountLost: 22000, transactionsBankUsed: 'Santander', paymentMethod: 'wire' },
    { amountLost: 1500, transactionsBankUsed: 'ING', paymentMethod: 'else' },
  ],
  'exchange-dispute': [
    { amountLost: 9800, transactionsExchangeUsed: 'Binance', paymentMethod: 'crypto' },
    { amountLost: 5600, transactionsExchangeUsed: 'Coinbase', paymentMethod: 'card' },
    { amountLost: 14200, transactionsExchangeUsed: 'Kraken', paymentMethod: 'wire' },
    { amountLost: 2100, transactionsExchangeUsed: 'Crypto.com', paymentMethod: 'crypto' },
    { amountLost: 7300, transactionsExchangeUsed: 'Bybit', paymentMethod: 'else' },
  ],
};

const prices: Record<ToolId, number> = {
  'track-master': 450,
  'web-intelligence': 900,
  'blockchain-analysis': 1250,
  'bank-dispute': 1600,
  'exchange-dispute': 1400,
};

type Payment = 'none' | 'partial' | 'full';
interface Plan {
  status: RequestStatus;
  priced: boolean;
  payment: Payment;
  finalFile: boolean;
}

/**
 * Every tool in every status, each a state the lifecycle (domain/lifecycle.ts) can reach: a Done request
 * always has its final file. Done requests are mostly paid in full; Bank Dispute's is only partly paid
 * (download refused until paid). A request paid in full whose report is not ready yet is In Progress
 * (Web Intelligence's and Exchange Dispute's); In Progress alternates partial and full payments.
 */
function plansFor(tool: ToolDefinition): Plan[] {
  const doneUnpaid = tool.id === 'bank-dispute';
  const progressFull = tool.id === 'web-intelligence' || tool.id === 'exchange-dispute';
  return [
    { status: 'Done', priced: true, payment: doneUnpaid ? 'partial' : 'full', finalFile: true },
    { status: 'In Progress', priced: true, payment: progressFull ? 'full' : 'partial', finalFile: false },
    { status: 'Waiting for actions', priced: true, payment: tool.id === 'blockchain-analysis' ? 'partial' : 'none', finalFile: false },
    { status: 'Rejected', priced: false, payment: 'none', finalFile: false },
    { status: 'Pending', priced: false, payment: 'none', finalFile: false },
  ];
}

/**
 * Recorded visits the seed replays through the capture code (server/tracking/record-visit.ts): public
 * addresses and real user agents, located and flagged from the shipped data like any visit. On the
 * fully paid Done request a WhatsApp preview fetch comes first (counted apart, not as a visit); the
 * partly paid In Progress request gets four of the people's visits.
 */
interface VisitSeed {
  ip: string;
  userAgent: string;
  referrer: string | null;
  language: string | null;
}

const WHATSAPP_PREVIEW: VisitSeed = { ip: '102.89.34.17', userAgent: 'WhatsApp/2.24.6.77 A', referrer: null, language: null };

const visitSeeds: VisitSeed[] = [
  // A Tor exit (Stiftung Erneuerbare Freiheit, AS60729): flagged vpn. Tor Browser's user agent.
  { ip: '185.220.101.34', userAgent: 'Mozilla/5.0 (Windows NT 10.0; rv:128.0) Gecko/20100101 Firefox/128.0', referrer: null, language: 'en-US,en;q=0.5' },
  // MTN Nigeria, Lagos: a phone on mobile data.
  {
    ip: '102.89.34.17',
    userAgent: 'Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.104 Mobile Safari/537.36',
    referrer: null,
    language: 'en-NG,en;q=0.9',
  },
  // Globacom, Nigeria: an iPhone.
  {
    ip: '41.203.72.5',
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    referrer: null,
    language: 'en-GB,en;q=0.9',
  },
  // M247 (AS9009), a network VPN services rent: flagged vpn. Opened from Telegram's web client.
  {
    ip: '91.132.139.88',
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    referrer: 'https://web.telegram.org/',
    language: 'en-US,en;q=0.9',
  },
  // Germany: a Mac.
  {
    ip: '5.62.41.190',
    userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15',
    referrer: null,
    language: 'de-DE,de;q=0.9,en;q=0.8',
  },
  // MTN Nigeria, Abuja: an Android tablet.
  {
    ip: '197.210.53.201',
    userAgent: 'Mozilla/5.0 (Linux; Android 13; SM-X205) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.6723.107 Safari/537.36',
    referrer: null,
    language: 'en-US,en;q=0.9',
  },
];

/**
 * The authenticator-app secrets (TOTP, base32) the demo staff and admin accounts are seeded with, so a newcomer can
 * pass the second factor at once: `npm run demo-code` prints their current codes, or add the secret to any
 * authenticator app. Public on purpose, like the demo passwords: a demo database is never a production one.
 */
export const DEMO_TOTP_SECRETS = {
  /** staff@demo.test */
  staff: 'MRSW23ZNON2GCZTGFV2G65DQFVVWK6JB',
  /** admin@demo.test */
  admin: 'MRSW23ZNMFSG22LOFV2G65DQFVVWK6JB',
} as const;

/**
 * The demo business's payment instructions and official channels (domain/business-settings.ts), so the How to pay
 * panel and the "Was this really us?" check have something to show on a fresh start. Test numbers and names only.
 */
export const demoBusinessSettings = {
  id: BUSINESS_SETTINGS_ID,
  accountHolder: 'Demo Recovery Services Ltd',
  bankName: 'Example Bank plc',
  accountNumber: 'GB33 BUKB 2020 1555 5555 55',
  bic: 'BUKBGB22',
  paymentNote: 'Pay by bank transfer only. Quote the request reference so we can match your payment.',
  officialEmails: ['support@demo.test'],
  officialDomains: ['demo.test'],
  officialPhones: ['+44 20 7946 0321'],
} satisfies Omit<typeof businessSettings.$inferInsert, 'version' | 'updatedAt' | 'seq'>;

/**
 * The demo client's requests, deals with invoice PDFs, final reports and Track Master visits, so every
 * row action can be tried on a fresh start. Called once, when the demo client's row is created.
 * Dates are spread over the last months, relative to now.
 */
export async function seedClientData(db: Db, uid: string, storage: Storage): Promise<void> {
  const now = Date.now();
  const at = (daysAgo: number, hour = 10) => new Date(now - daysAgo * DAY + (hour - 12) * 60 * 60 * 1000).toISOString();

  async function storePdf(opts: { kind: 'invoice' | 'final'; requestId: string; name: string; title: string; lines: string[]; createdAt: string }) {
    const stored = await storage.save(minimalPdf(opts.title, opts.lines), opts.name);
    const id = randomUUID();
    await db.insert(files).values({
      id,
      userId: uid,
      kind: opts.kind,
      requestId: opts.requestId,
      originalName: opts.name,
      storedName: stored.storedName,
      contentType: stored.contentType,
      size: stored.size,
      sha256: stored.sha256,
      createdAt: opts.createdAt,
    });
    return id;
  }

  let invoiceNo = 1040;
  for (const [toolIndex, tool] of tools.entries()) {
    const plans = plansFor(tool);
    for (const [planIndex, plan] of plans.entries()) {
      const requestId = randomUUID();
      // Older statuses further back: Done ~4-5 months ago, Pending in the last weeks; tools interleaved.
      const daysAgo = 150 - planIndex * 32 - toolIndex * 5;
      const createdAt = at(daysAgo, 9 + toolIndex);
      const total = plan.priced ? prices[tool.id] : null;
      const answers = detailsByTool[tool.id][planIndex];
      const requestDetails: Record<string, string | number> = {};
      for (const field of tool.formFields) {
        if (field.type === 'file') continue;
        if (field.type === 'date') requestDetails[detailKey(tool, field.backendHeader)] = Date.parse(createdAt) - 9 * DAY;
        else if (answers[field.backendHeader] !== undefined) requestDetails[detailKey(tool, field.backendHeader)] = answers[field.backendHeader];
      }

      // Payments: one deal for a partial payment, two (deposit + balance) for a full one.
      const payments: { amount: number; daysAgo: number }[] = [];
      if (total !== null && plan.payment === 'partial') payments.push({ amount: Math.round(total * 0.4), daysAgo: daysAgo - 3 });
      if (total !== null && plan.payment === 'full') {
        const deposit = Math.round(total * 0.5);
        payments.push({ amount: deposit, daysAgo: daysAgo - 3 }, { amount: total - deposit, daysAgo: daysAgo - 10 });
      }
      const paid = payments.reduce((sum, p) => sum + p.amount, 0);

      // The final report is stored first and goes in with the request: an UPDATE afterwards would move
      // updated_at to the seed's own time (the database sets it on every update, migrations/0007).
      const finalFileId = plan.finalFile
        ? await storePdf({
            kind: 'final',
            requestId,
            name: `${tool.header} final report.pdf`,
            title: `${tool.header}: final report`,
            createdAt: at(daysAgo - 20),
            lines: [`Request: ${requestId}`, 'Summary of findings and recommended next steps.', 'Prepared by the investigations team.'],
          })
        : null;

      await db.insert(productRequests).values({
        id: requestId,
        userId: uid,
        toolId: tool.id,
        productRequestType: tool.ToolNameBackend,
        status: plan.status,
        contractSigned: plan.priced && plan.status !== 'Waiting for actions',
        totalCents: total === null ? null : centsFromDollars(total),
        paidCents: centsFromDollars(paid),
        requestDetails,
        finalFileId,
        createdAt,
        // The Track Master request closed recently: its visits are inside the retention window
        // (VISIT_RETENTION_DAYS after Done, server/tracking/retention.ts), so the demo keeps showing them.
        updatedAt: tool.id === 'track-master' && plan.status === 'Done' ? at(3) : at(Math.max(1, daysAgo - 12)),
      });

      for (const payment of payments) {
        const dealId = randomUUID();
        const dealCreated = at(payment.daysAgo, 14);
        const number = `INV-${++invoiceNo}`;
        const invoiceFileId = await storePdf({
          kind: 'invoice',
          requestId,
          name: `${number}.pdf`,
          title: `Invoice ${number}`,
          createdAt: dealCreated,
          lines: [
            `Service: ${tool.header}`,
            `Request: ${requestId}`,
            `Date: ${dealCreated.slice(0, 10)}`,
            `Amount paid: $${payment.amount.toFixed(2)} of $${(total ?? 0).toFixed(2)}`,
          ],
        });
        await db.insert(deals).values({
          id: dealId,
          requestId,
          userId: uid,
          productRequestType: tool.ToolNameBackend,
          amountCents: centsFromDollars(payment.amount),
          invoiceUrl: invoiceFileId,
          createdAt: dealCreated,
        });
      }

      // Track Master: a tracking link with visits on the fully paid Done request and on the partly paid
      // In Progress one, recorded by the capture's own code (located and flagged from the shipped data).
      if (tool.id === 'track-master' && (plan.status === 'Done' || plan.status === 'In Progress')) {
        const done = plan.status === 'Done';
        const [link] = await db
          .insert(trackingLinks)
          .values({ requestId, userId: uid, slug: newSlug(), label: 'Payment receipt', destination: null, createdAt: at(daysAgo - 1) })
          .returning();
        const chosen = done ? [WHATSAPP_PREVIEW, ...visitSeeds] : visitSeeds.slice(1, 5);
        const lookup = await loadIpLookup();
        for (const [i, v] of chosen.entries()) {
          await recordVisit(db, lookup, link.id, { ...v, time: at(daysAgo - 2 - i * 3, 8 + i * 2) });
        }
      }
    }
  }
}
