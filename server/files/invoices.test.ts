import { afterEach, describe, expect, it } from 'vitest';
import { cents } from '../../domain/money.ts';
import { type InvoiceData, invoiceLines } from './invoices.ts';

const invoice: InvoiceData = {
  number: 'INV-0001',
  date: '2025-03-04T09:30:00Z',
  client: { name: 'Ada Client', email: 'ada@example.com' },
  service: 'Bank Dispute',
  requestId: 'req-1',
  paidAt: '2025-03-04',
  method: 'Card',
  reference: '',
  amount: cents(40000),
  total: cents(100000),
  paidToDate: cents(40000),
  leftToPay: cents(60000),
};

const zone = process.env.TZ;
afterEach(() => {
  // Node reads TZ again when it is assigned.
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('invoiceLines', () => {
  it.each(['UTC', 'Pacific/Auckland', 'Pacific/Kiritimati', 'America/Los_Angeles', 'Pacific/Pago_Pago'])(
    'prints the payment date as the day the staff member entered, on a server in %s',
    (tz) => {
      process.env.TZ = tz;
      expect(invoiceLines(invoice)).toEqual([
        ['Service', 'Bank Dispute'],
        ['Request', 'req-1'],
        ['Payment date', '04/03/2025'],
        ['Payment method', 'Card'],
        ['Reference', '-'],
        ['Amount paid', '$400.00'],
      ]);
    },
  );
});
