import { describe, expect, it } from 'vitest';
import { todayIso } from '../shared/format.ts';
import { parseMoney } from '../shared/parse-money.ts';
import { validatePayment } from './payment-form.tsx';

describe('parseMoney', () => {
  it('reads amounts as staff type them', () => {
    expect(parseMoney('1,250.50', 'Price')).toEqual({ ok: true, value: 1250.5 });
    expect(parseMoney(' $300 ', 'Price')).toEqual({ ok: true, value: 300 });
  });

  it('refuses what the server would refuse, with the field name first', () => {
    expect(parseMoney('', 'Price')).toEqual({ ok: false, error: 'Price is required' });
    expect(parseMoney('abc', 'Price')).toEqual({ ok: false, error: 'Price must be a number' });
    expect(parseMoney('0', 'Price')).toEqual({ ok: false, error: 'Price must be more than 0' });
    expect(parseMoney('1.005', 'Price')).toEqual({ ok: false, error: 'Price can have at most two decimals' });
  });
});

describe('validatePayment', () => {
  const values = { amount: '100', method: 'CARD' as const, paidAt: todayIso(), reference: ' ref-1 ' };

  it('gives the fields to send when the form is right', () => {
    expect(validatePayment(values, 150)).toEqual({ errors: {}, fields: { amount: 100, method: 'CARD', paidAt: todayIso(), reference: 'ref-1' } });
  });

  it('refuses more than is left to pay, a missing method and a future date', () => {
    const { errors, fields } = validatePayment({ amount: '200', method: '', paidAt: '2999-01-01', reference: '' }, 150);
    expect(fields).toBeUndefined();
    expect(errors).toEqual({
      amount: 'Amount cannot be more than the $150.00 left to pay',
      method: 'Method is required',
      paidAt: 'Payment date cannot be in the future',
    });
  });
});
