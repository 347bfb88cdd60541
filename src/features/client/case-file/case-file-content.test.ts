import { describe, expect, it } from 'vitest';
import type { Visit } from '../../../../domain/schemas.ts';
import { texts } from '../../../../domain/texts.ts';
import type { TrackingLink } from '../../../../domain/tracking.ts';
import { type CaseData, caseFileSections } from './case-file-content.ts';
import { printable, sectionsPdf } from '../shared/pdf-document.ts';

const at = (day: number) => new Date(Date.UTC(2026, 9, day, 9)).toISOString();
const sha = 'a'.repeat(64);

const data: CaseData = {
  profile: {
    uid: 'u1',
    email: 'victim@example.test',
    firstName: 'Ada',
    lastName: null,
    isClient: true,
    isAdmin: false,
    isStaff: false,
    filledInitialForm: true,
    initialForm: { moneyLost: 12500, lastFundsTransfer: Date.UTC(2026, 9, 3), fraudType: 'CRYPTO', fraudUrl: 'https://fake.example', name: 'Ada L' },
    activityStatus: 'ACTIVE',
    createdAt: at(1),
  },
  requests: [
    {
      id: 'r2',
      refNo: 7,
      productRequestType: 'TRACK_MASTER',
      Created_Time: at(5),
      status: 'In Progress',
      contractSigned: false,
      totalAmount: 450,
      paid: 300,
      leftToPay: 150,
      requestDetails: { TRACK_MASTER_fraudUrl: 'https://x.example' },
      attachments: [],
      updatedAt: at(6),
      rejectionReason: null,
      statusHistory: [
        { status: 'Pending', at: at(5) },
        { status: 'Waiting for actions', at: at(6) },
        { status: 'In Progress', at: at(7) },
      ],
    },
    { id: 'r1', refNo: null, productRequestType: 'BANK_DISPUTE', Created_Time: at(2), status: 'Pending', contractSigned: false, totalAmount: null, paid: 0, leftToPay: null, requestDetails: {}, attachments: [{ id: 'a1', field: 'proof', name: 'proof.pdf' }], updatedAt: at(2), rejectionReason: null, pending: true },
    {
      id: 'r3',
      refNo: 3,
      productRequestType: 'BANK_DISPUTE',
      Created_Time: at(3),
      status: 'Pending',
      contractSigned: false,
      totalAmount: null,
      paid: 0,
      leftToPay: null,
      requestDetails: {},
      attachments: [{ id: 'a3', field: 'bankStatement', name: 'bank.pdf', size: 4096, sha256: 'b'.repeat(64), uploadedAt: at(3) }],
      updatedAt: at(3),
      rejectionReason: null,
    },
  ],
  deals: [{ id: 'd1', requestId: 'r2', productRequestType: 'TRACK_MASTER', Created_Time: at(6), amount: 300, invoice: null, invoiceNumber: 'INV-2001' }],
  refunds: [],
  files: [{ id: 'f1', name: 'statement.pdf', size: 2048, contentType: 'application/pdf', sha256: sha, createdAt: at(4) }],
  trackingLinks: [],
  liveDetails: [],
  threads: [{ id: 't1', subject: 'Help', message: 'First', createdAt: at(3), status: 'open' }],
  replies: [
    { id: 'm2', threadId: 't1', author: 'client', message: 'Third', createdAt: at(8) },
    { id: 'm1', threadId: 't1', author: 'staff', message: 'Second', createdAt: at(7) },
  ],
  lastSyncedAt: null,
  generatedAt: new Date(at(9)),
};

const flat = (lines: (string | string[])[]) => lines.flat();

describe('case file content', () => {
  const sections = caseFileSections(data);
  const section = (start: string) => sections.find((s) => s.heading.startsWith(start))!;

  it('lists requests oldest first by reference and id, with status, money, details and attachments', () => {
    const lines = flat(section('Requests').lines);
    expect(section('Requests').heading).toBe('Requests (3)');
    expect(lines[0]).toBe('Request id r1: Bank Dispute');
    expect(lines).toContain('Attached file: proof.pdf');
    expect(lines.some((l) => l.startsWith('Ordered') && l.includes('(not sent yet)'))).toBe(true);
    expect(lines).toContain('TM-0007 (id r2): Track Master');
    expect(lines).toContain('Price $450.00; paid $300.00; left to pay $150.00');
    expect(lines).toContain('fraudUrl: https://x.example');
  });

  it('gives each request its status history, or says why the device has none', () => {
    const lines = flat(section('Requests').lines);
    expect(lines).toContainEqual(expect.stringMatching(/^Status history: Pending 05\/10\/2026 \d{2}:\d{2}; Awaiting Payment 06\/10\/2026 \d{2}:\d{2}; In Progress 07\/10\/2026 \d{2}:\d{2}$/));
    expect(lines).toContain('Status history: starts when the request is sent.');
    expect(lines).toContain('Status history: not on this device yet (it comes with the next update from the portal).');
  });

  it('gives each evidence file, uploaded alone or sent with a request, its upload time, size and SHA-256, and payments their request', () => {
    expect(section('Evidence').heading).toBe('Evidence files (3)');
    expect(section('Evidence').lines).toEqual([
      ['proof.pdf', 'Not yet confirmed by the portal on this device, sent with Request id r1', 'SHA-256 not on this device yet'],
      ['bank.pdf', expect.stringMatching(/^Uploaded 03\/10\/2026 \d{2}:\d{2}, 4\.0 KB \(4096 bytes\), sent with BD-0003 \(id r3\)$/), `SHA-256 ${'b'.repeat(64)}`],
      ['statement.pdf', expect.stringMatching(/^Uploaded \d{2}\/10\/2026 \d{2}:\d{2}, 2\.0 KB \(2048 bytes\), application\/pdf$/), `SHA-256 ${sha}`],
    ]);
    expect(section('Payments').lines).toEqual(['06/10/2026: $300.00 for Track Master, TM-0007 (id r2), invoice INV-2001']);
  });

  it('tells the support conversation in order, and says so when something is missing', () => {
    expect(flat(section('Support').lines).map((l) => l.replace(/^\S+ \S+ /, ''))).toEqual(['Help (open)', 'client: First', 'support: Second', 'client: Third']);
    expect(section('Refunds').lines).toEqual(['No refunds asked for.']);
    expect(section('About').lines[1]).toBe('Never brought up to date with the portal on this device.');
    expect(flat(section('The client').lines)[0]).toBe('Name: Ada');
  });

  describe('Track Master visits', () => {
    const link: TrackingLink = { id: 'l1', productRequestId: 'r2', slug: 'abc', label: 'Sent to the scammer', disabled: false, visits: 2, previews: 1, lastVisitAt: at(8), createdAt: at(6), updatedAt: at(8) };
    const visit = (id: string, day: number, extra: Partial<Visit> = {}): Visit => ({
      id,
      userId: 'u1',
      productRequestId: 'r2',
      ip: '203.0.113.7',
      host: null,
      source: null,
      domain: null,
      brand: null,
      time: at(day),
      country: 'Nigeria',
      isp: 'MTN',
      vpn: false,
      new: true,
      archive: false,
      ipDetails: { city_name: 'Lagos' },
      linkId: 'l1',
      userAgent: null,
      browser: 'Chrome 131',
      os: 'Android 14',
      device: 'mobile',
      referrer: null,
      language: null,
      preview: null,
      ...extra,
    });
    const visitsOf = (liveDetails: CaseData['liveDetails'], paid = false) => {
      const requests = data.requests.map((r) => (r.id === 'r2' && paid ? { ...r, paid: 450, leftToPay: 0 } : r));
      return flat(caseFileSections({ ...data, requests, trackingLinks: [link], liveDetails }).find((s) => s.heading.startsWith('Track Master visits'))!.lines);
    };

    it('before payment in full: how many, and that the details come after payment', () => {
      expect(visitsOf([{ id: 'r2', data: 3, fetchedAt: Date.parse(at(8)) }])).toEqual(['TM-0007 (id r2)', `2 visits recorded. ${texts.liveDetailsUnpaid}`]);
      expect(visitsOf([])).toEqual(['TM-0007 (id r2)', `2 visits recorded. ${texts.liveDetailsUnpaid}`]);
    });

    it('paid but never fetched on this device: says how to bring them', () => {
      expect(visitsOf([], true)[1]).toBe('2 visits recorded. Their details are not on this device yet: open this page while online to bring them.');
    });

    it('once fetched: each visit oldest first with time, link, IP, place, network and device; previews told apart', () => {
      const lines = visitsOf([{ id: 'r2', data: [visit('v2', 8, { vpn: true, ipDetails: null, country: null }), visit('v1', 7), visit('p1', 7, { preview: 'WhatsApp' })], fetchedAt: Date.parse(at(9)) }], true);
      expect(lines[0]).toBe('TM-0007 (id r2)');
      expect(lines[1]).toMatch(/^2 visits, as the portal listed them 09\/10\/2026 \d{2}:\d{2}:$/);
      expect(lines.slice(2).map((l) => l.replace(/^\d{2}\/10\/2026 \d{2}:\d{2}/, 'T'))).toEqual([
        'T via "Sent to the scammer": IP 203.0.113.7, Lagos, Nigeria; network MTN; Chrome 131 · Android 14 · mobile',
        'T: link preview by WhatsApp via "Sent to the scammer" (an app drawing the link, not a person)',
        'T via "Sent to the scammer": IP 203.0.113.7, place not known; network MTN, VPN; Chrome 131 · Android 14 · mobile',
      ]);
    });

    it('lists no request that is not Track Master or not sent yet', () => {
      expect(section('Track Master visits').heading).toBe('Track Master visits (1 request)');
    });
  });

  it('keeps what the standard fonts can draw and replaces the rest', () => {
    expect(printable('Café – 50 € 🙂 “ok”\tend')).toBe('Café – 50 € ? “ok”  end');
  });

  it('draws every section into a PDF, breaking pages and cutting a line no word boundary can', async () => {
    const long = { heading: 'Long', lines: Array.from({ length: 120 }, (_, i) => `Line ${i} ${'x'.repeat(i === 0 ? 300 : 10)}`) };
    const bytes = await sectionsPdf('Case file', [...sections, long]);
    const { PDFDocument } = await import('pdf-lib');
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBeGreaterThan(1);
    expect(doc.getTitle()).toBe('Case file');
  });
});
