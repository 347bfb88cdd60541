import { describe, expect, it } from 'vitest';
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
    { id: 'r2', refNo: 7, productRequestType: 'TRACK_MASTER', Created_Time: at(5), status: 'In Progress', contractSigned: false, totalAmount: 450, paid: 300, leftToPay: 150, requestDetails: { TRACK_MASTER_fraudUrl: 'https://x.example' }, attachments: [], updatedAt: at(6), rejectionReason: null },
    { id: 'r1', refNo: null, productRequestType: 'BANK_DISPUTE', Created_Time: at(2), status: 'Pending', contractSigned: false, totalAmount: null, paid: 0, leftToPay: null, requestDetails: {}, attachments: [{ id: 'a1', field: 'proof', name: 'proof.pdf' }], updatedAt: at(2), rejectionReason: null, pending: true },
  ],
  deals: [{ id: 'd1', requestId: 'r2', productRequestType: 'TRACK_MASTER', Created_Time: at(6), amount: 300, invoice: null, invoiceNumber: 'INV-2001' }],
  refunds: [],
  files: [{ id: 'f1', name: 'statement.pdf', size: 2048, contentType: 'application/pdf', sha256: sha, createdAt: at(4) }],
  trackingLinks: [],
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
    expect(section('Requests').heading).toBe('Requests (2)');
    expect(lines[0]).toBe('Request id r1: Bank Dispute');
    expect(lines).toContain('Attached file: proof.pdf');
    expect(lines.some((l) => l.startsWith('Ordered') && l.includes('(not sent yet)'))).toBe(true);
    expect(lines).toContain('TM-0007 (id r2): Track Master');
    expect(lines).toContain('Price $450.00; paid $300.00; left to pay $150.00');
    expect(lines).toContain('fraudUrl: https://x.example');
  });

  it('gives each evidence file its upload time, size and SHA-256, and payments their request', () => {
    expect(flat(section('Evidence').lines)).toEqual(['statement.pdf', expect.stringMatching(/^Uploaded \d{2}\/10\/2026 \d{2}:\d{2}, 2\.0 KB \(2048 bytes\), application\/pdf$/), `SHA-256 ${sha}`]);
    expect(section('Payments').lines).toEqual(['06/10/2026: $300.00 for Track Master, TM-0007 (id r2), invoice INV-2001']);
  });

  it('tells the support conversation in order, and says so when something is missing', () => {
    expect(flat(section('Support').lines).map((l) => l.replace(/^\S+ \S+ /, ''))).toEqual(['Help (open)', 'client: First', 'support: Second', 'client: Third']);
    expect(section('Refunds').lines).toEqual(['No refunds asked for.']);
    expect(section('About').lines[1]).toBe('Never brought up to date with the portal on this device.');
    expect(flat(section('The client').lines)[0]).toBe('Name: Ada');
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
