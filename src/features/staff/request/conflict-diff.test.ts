import { describe, expect, it } from 'vitest';
import type { StaffRequest } from '../../../../domain/staff.ts';
import { requestConflictChanges } from './conflict-diff.ts';
import { staffRequest } from '../../../lib/test-kit.ts';

const pending = staffRequest('r1', { Created_Time: '2026-01-02T10:00:00.000Z', updatedAt: '2026-01-02T10:00:00.000Z' });

describe('requestConflictChanges', () => {
  it('lists what someone else changed, as labels and formatted values in a fixed order', () => {
    const priced: StaffRequest = { ...pending, status: 'Waiting for actions', totalAmount: 500, leftToPay: 500, contractSigned: true, version: 2 };
    expect(requestConflictChanges(pending, priced)).toEqual([
      'Status: Pending → Awaiting Payment',
      'Total: Awaiting definition → $500.00',
      'Left to pay: Awaiting definition → $500.00',
      'Contract signed: No → Yes',
    ]);
  });

  it('reports a payment, a delivery and a rejection', () => {
    const before: StaffRequest = { ...pending, status: 'In Progress', totalAmount: 1000, paid: 200, leftToPay: 800, version: 5 };
    const after: StaffRequest = { ...before, paid: 1000, leftToPay: 0, finalFileId: 'f1', status: 'Rejected', rejectionReason: 'Duplicate case', version: 8 };
    expect(requestConflictChanges(before, after)).toEqual([
      'Status: In Progress → Rejected',
      'Paid: $200.00 → $1,000.00',
      'Left to pay: $800.00 → $0.00',
      'Final file: None → Uploaded',
      'Rejection reason: None → “Duplicate case”',
    ]);
  });

  it('says a replaced final file changed even though both read "Uploaded"', () => {
    const before: StaffRequest = { ...pending, status: 'Done', finalFileId: 'f1' };
    expect(requestConflictChanges(before, { ...before, finalFileId: 'f2', version: 2 })).toEqual(['Final file: changed']);
  });

  it('ignores bookkeeping fields (version, updatedAt) that every save changes', () => {
    expect(requestConflictChanges(pending, { ...pending, version: 9, updatedAt: '2026-02-01T00:00:00.000Z' })).toEqual([]);
  });
});
