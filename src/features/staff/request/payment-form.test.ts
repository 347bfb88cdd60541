import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatDateEntry } from '../../../lib/date-entry.ts';
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
  // "Today" is read when the module loads and again in each test: with the real clock, a run that crossed
  // midnight (local time) between the two reads compared yesterday with today. The day is fixed instead,
  // a second before local midnight, where a slow read would have crossed it.
  const today = new Date(2026, 10, 26, 23, 59, 59).getTime();
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: today });
  });
  afterAll(() => {
    vi.useRealTimers();
  });
  // The day as staff type it, DD/MM/YYYY; sent as the API's YYYY-MM-DD.
  const values = { amount: '100', method: 'CARD' as const, paidAt: formatDateEntry(today), reference: ' ref-1 ' };

  it('gives the fields to send when the form is right', () => {
    expect(values.paidAt).toBe('26/11/2026');
    expect(validatePayment(values, 150)).toEqual({ errors: {}, fields: { amount: 100, method: 'CARD', paidAt: '2026-11-26', reference: 'ref-1' } });
  });

  it('reads the day first: 05/04/2026 is 5 April', () => {
    expect(validatePayment({ ...values, paidAt: '05/04/2026' }, 150).fields?.paidAt).toBe('2026-04-05');
  });

  it('refuses a day that does not exist, one written month first, and an empty one', () => {
    const format = 'Payment date must be a real date written DD/MM/YYYY, for example 17/05/2024';
    expect(validatePayment({ ...values, paidAt: '31/02/2026' }, 150).errors).toEqual({ paidAt: format });
    expect(validatePayment({ ...values, paidAt: '04/25/2026' }, 150).errors).toEqual({ paidAt: format });
    expect(validatePayment({ ...values, paidAt: '2026-04-05' }, 150).errors).toEqual({ paidAt: format });
    expect(validatePayment({ ...values, paidAt: ' ' }, 150).errors).toEqual({ paidAt: 'Payment date is required' });
  });

  it('refuses more than is left to pay, a missing method and a future date', () => {
    const { errors, fields } = validatePayment({ amount: '200', method: '', paidAt: '27/11/2026', reference: '' }, 150);
    expect(fields).toBeUndefined();
    expect(errors).toEqual({
      amount: 'Amount cannot be more than the $150.00 left to pay',
      method: 'Method is required',
      paidAt: 'Payment date cannot be in the future',
    });
  });
});
