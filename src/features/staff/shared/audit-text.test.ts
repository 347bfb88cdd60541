import { describe, expect, it } from 'vitest';
import { describeAudit } from './audit-text.ts';

describe('describeAudit', () => {
  it('spells out the main fields that changed, before → after', () => {
    expect(
      describeAudit({
        action: 'price',
        before: { status: 'Pending', totalAmount: null, version: 1, updatedAt: 'a' },
        after: { status: 'Waiting for actions', totalAmount: 250.5, version: 2, updatedAt: 'b' },
      }),
    ).toEqual({ summary: 'Set the price', changes: ['Status: Pending → Awaiting Payment', 'Total: Awaiting definition → $250.50'] });
  });

  it('describes something new by what it is', () => {
    expect(describeAudit({ action: 'payment', before: null, after: { id: 'd1', amount: 100, method: 'WIRE', paidAt: '2026-03-04', reference: '' } })).toEqual({
      summary: 'Recorded a payment',
      changes: ['Amount: $100.00', 'Method: Wire transfer', 'Paid on: 04/03/2026'],
    });
  });

  it('copes with entries that carry no snapshot', () => {
    expect(describeAudit({ action: 'approve', before: null, after: null })).toEqual({ summary: 'Approved the client', changes: [] });
  });
});

describe('describeAudit, as the server writes a payment', () => {
  it('shows the balance change and the payment itself', () => {
    expect(
      describeAudit({
        action: 'payment',
        before: { paid: 0, leftToPay: 500 },
        after: { paid: 200, leftToPay: 300, dealId: 'd1', invoiceNumber: 'INV-2001', amount: 200, method: 'CARD' },
      }).changes,
    ).toEqual(['Paid: $0.00 → $200.00', 'Left to pay: $500.00 → $300.00', 'Amount: $200.00', 'Method: Card', 'Invoice: INV-2001']);
  });
});
