import { describe, expect, it } from 'vitest';
import type { deals, productRequests } from '../db/schema.ts';
import { isFullyPaid, leftToPayCents, toDeal, toRequest } from './rows.ts';
import { createSignedLinks, LINK_TTL_MS } from '../files/signed-links.ts';
import { centsFromDollars } from '../../domain/money.ts';

const request = (over: Partial<typeof productRequests.$inferSelect> = {}): typeof productRequests.$inferSelect => ({
  id: '6f1c2d3e-4b5a-4c6d-8e7f-901234567890',
  userId: 'u1',
  toolId: 'bank-dispute',
  productRequestType: 'BANK_DISPUTE',
  refNo: 7,
  status: 'In Progress',
  contractSigned: true,
  totalCents: centsFromDollars(1000),
  paidCents: centsFromDollars(400),
  requestDetails: { BANK_DISPUTE_amountLost: 12 },
  attachments: [{ id: 'f1', field: 'bankStatement', name: 'a.pdf', extra: 'dropped' }],
  finalFileId: null,
  rejectionReason: null,
  version: 1,
  commandId: null,
  createdAt: '2026-03-01 10:00:00+00',
  updatedAt: '2026-03-02 10:00:00+00',
  seq: 1,
  ...over,
});

describe('toRequest', () => {
  it('computes leftToPay: null without a total, never negative', () => {
    expect(toRequest(request()).leftToPay).toBe(600);
    expect(toRequest(request({ totalCents: null, paidCents: centsFromDollars(0) })).leftToPay).toBeNull();
    expect(toRequest(request({ paidCents: centsFromDollars(1200) })).leftToPay).toBe(0);
    expect(leftToPayCents({ totalCents: centsFromDollars(0), paidCents: centsFromDollars(0) })).toBe(0);
  });

  it('is fully paid only with a total and nothing left', () => {
    expect(isFullyPaid({ totalCents: null, paidCents: centsFromDollars(0) })).toBe(false);
    expect(isFullyPaid({ totalCents: centsFromDollars(100), paidCents: centsFromDollars(99.99) })).toBe(false);
    expect(isFullyPaid({ totalCents: centsFromDollars(100), paidCents: centsFromDollars(100) })).toBe(true);
  });

  it('gives ISO dates and only id, field and name of attachments', () => {
    const r = toRequest(request());
    expect(r.Created_Time).toBe('2026-03-01T10:00:00.000Z');
    expect(r.updatedAt).toBe('2026-03-02T10:00:00.000Z');
    expect(r.attachments).toEqual([{ id: 'f1', field: 'bankStatement', name: 'a.pdf' }]);
    expect(r).not.toHaveProperty('statusHistory');
  });

  it('adds the feed’s extras: the status history and each attachment’s size, SHA-256 and upload time', () => {
    const statusHistory = [{ status: 'Pending' as const, at: '2026-03-01T10:00:00.000Z' }];
    const file = { size: 10, sha256: 'c'.repeat(64), uploadedAt: '2026-03-01T10:00:00.000Z' };
    const r = toRequest(request({ attachments: [{ id: 'f1', field: 'bankStatement', name: 'a.pdf' }, { id: 'f2', field: 'x', name: 'b.pdf' }] }), { statusHistory, attachments: new Map([['f1', file]]) });
    expect(r.statusHistory).toEqual(statusHistory);
    expect(r.attachments).toEqual([
      { id: 'f1', field: 'bankStatement', name: 'a.pdf', ...file },
      { id: 'f2', field: 'x', name: 'b.pdf' },
    ]);
  });
});

describe('toDeal and signed links', () => {
  const invoiceFileId = '0b6f2f0e-3a1c-4f7e-9d2b-5c8a7e6f1d20';
  /** The token at the end of a download link; '' (which fails to verify) when there is no link. */
  const tokenOf = (link: string | null) => link?.split('/').at(-1) ?? '';
  const deal: typeof deals.$inferSelect = {
    id: 'd1',
    requestId: 'r1',
    userId: 'u1',
    productRequestType: 'BANK_DISPUTE',
    amountCents: centsFromDollars(400),
    invoiceUrl: invoiceFileId,
    method: null,
    reference: null,
    paidAt: null,
    invoiceNumber: null,
    recordedBy: null,
    createdAt: '2026-03-03 12:00:00+00',
    seq: 2,
  };

  it('turns the invoice file id into a signed link, or null', () => {
    const links = createSignedLinks('a-secret-of-sixteen-chars');
    const d = toDeal(deal, links);
    expect(d.invoice).toMatch(/^\/api\/download\/0b6f2f0e-3a1c-4f7e-9d2b-5c8a7e6f1d20\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect(links.verify(tokenOf(d.invoice))).toEqual({ ok: true, fileId: deal.invoiceUrl });
    expect(toDeal({ ...deal, invoiceUrl: null }, links).invoice).toBeNull();
  });

  it('links expire after 15 minutes and only verify with the same secret', () => {
    let now = 1_800_000_000_000;
    const links = createSignedLinks('a-secret-of-sixteen-chars', { now: () => now });
    const token = tokenOf(links.link(invoiceFileId));
    now += LINK_TTL_MS - 1;
    expect(links.verify(token).ok).toBe(true);
    now += 2;
    expect(links.verify(token)).toEqual({ ok: false, reason: 'expired' });
    expect(createSignedLinks('another-secret-of-16').verify(token)).toEqual({ ok: false, reason: 'invalid' });
    expect(LINK_TTL_MS).toBe(15 * 60 * 1000);
  });
});
