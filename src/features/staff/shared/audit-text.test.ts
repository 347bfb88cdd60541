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

  it('says whether a tracking link was made, disabled or enabled', () => {
    const link = { label: 'Receipt', disabled: false };
    expect(describeAudit({ action: 'tracking-link', before: null, after: link }).summary).toBe('Made a tracking link');
    expect(describeAudit({ action: 'tracking-link', before: link, after: { ...link, disabled: true } }).summary).toBe('Disabled a tracking link');
    expect(describeAudit({ action: 'tracking-link', before: { ...link, disabled: true }, after: link }).summary).toBe('Enabled a tracking link');
  });

  it('tells a change of the admin role from one of the staff role', () => {
    expect(describeAudit({ action: 'role', before: { isAdmin: false, isStaff: true }, after: { isAdmin: true, isStaff: true } })).toEqual({ summary: 'Made an admin', changes: ['Admin: No → Yes'] });
    expect(describeAudit({ action: 'role', before: { isAdmin: true, isStaff: false }, after: { isAdmin: false, isStaff: true } }).summary).toBe('Removed the admin role');
    expect(describeAudit({ action: 'role', before: { isStaff: false }, after: { isStaff: true } }).summary).toBe('Changed the staff role');
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

describe('describeAudit, support threads and refunds', () => {
  it('says what a staff reply said', () => {
    expect(describeAudit({ action: 'reply', before: null, after: { id: 'x1', message: 'We are on it.' } })).toEqual({
      summary: 'Replied to the client',
      changes: ['Message: “We are on it.”'],
    });
  });

  it('names a closed or reopened conversation by its outcome', () => {
    expect(describeAudit({ action: 'thread', before: { status: 'open', version: 1 }, after: { status: 'closed', version: 2 } })).toEqual({
      summary: 'Closed the conversation',
      changes: ['Status: Open → Closed'],
    });
    expect(describeAudit({ action: 'thread', before: { status: 'closed' }, after: { status: 'open' } }).summary).toBe('Reopened the conversation');
  });

  it('names a refund decision by its outcome, with the amount and the note', () => {
    expect(
      describeAudit({ action: 'refund', before: { status: 'requested', amount: null, note: null }, after: { status: 'approved', amount: 120, note: 'Goodwill' } }),
    ).toEqual({ summary: 'Approved a refund', changes: ['Status: Requested → Approved', 'Amount: Awaiting definition → $120.00', 'Note: None → “Goodwill”'] });
    expect(describeAudit({ action: 'refund', before: { status: 'requested' }, after: { status: 'declined', note: 'Not eligible' } }).summary).toBe('Declined a refund');
  });
});
