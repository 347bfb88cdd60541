import { describe, expect, it } from 'vitest';
import { formatCents } from './format.ts';
import { cents, centsFromDollars, dollarsFromCents, parseCents } from './money.ts';
import { Money } from './staff.ts';

describe('parseCents', () => {
  it('reads two-decimal dollars exactly, as text or as the number JSON carries', () => {
    expect(parseCents('1234567.89')).toBe(123456789);
    expect(parseCents(1234567.89)).toBe(123456789);
    // 0.29 * 100 is 28.999999999999996 in binary floating point; the digits say 29.
    expect(parseCents(0.29)).toBe(29);
    expect(parseCents('19.9')).toBe(1990);
    expect(parseCents(' 7 ')).toBe(700);
    expect(parseCents(-12.3)).toBe(-1230);
    expect(parseCents(100_000_000)).toBe(10_000_000_000);
  });

  it('gives null for what is not a whole number of cents', () => {
    expect(parseCents(0.1 + 0.2)).toBeNull();
    expect(parseCents(10.001)).toBeNull();
    expect(parseCents('1.005')).toBeNull();
    expect(parseCents(1e-7)).toBeNull();
    expect(parseCents(Number.NaN)).toBeNull();
    expect(parseCents(Number.POSITIVE_INFINITY)).toBeNull();
    expect(parseCents('12,50')).toBeNull();
    expect(parseCents('')).toBeNull();
    expect(parseCents(1e20)).toBeNull();
  });
});

describe('centsFromDollars', () => {
  it('is exact for two-decimal amounts and takes a sum made in dollars to its cent', () => {
    expect(centsFromDollars(1234567.89)).toBe(123456789);
    expect(centsFromDollars(0.29)).toBe(29);
    expect(centsFromDollars(0.1 + 0.2)).toBe(30);
    expect(centsFromDollars(0.7 + 0.1)).toBe(80);
    expect(centsFromDollars(-0.001)).toBe(0);
    expect(Object.is(centsFromDollars(-0.001), 0)).toBe(true);
  });

  it('refuses what is not an amount', () => {
    expect(() => centsFromDollars(Number.NaN)).toThrow(RangeError);
    expect(() => centsFromDollars(1e20)).toThrow(RangeError);
  });

  it('goes back to the same dollars on the wire', () => {
    for (const dollars of [0.01, 0.1, 0.3, 0.29, 19.99, 1234567.89, 100_000_000]) {
      expect(dollarsFromCents(centsFromDollars(dollars))).toBe(dollars);
    }
  });
});

describe('cents', () => {
  it('takes whole numbers only', () => {
    expect(cents(30)).toBe(30);
    expect(() => cents(0.5)).toThrow(RangeError);
    expect(() => cents(2 ** 53)).toThrow(RangeError);
  });
});

describe('formatCents', () => {
  it('prints the integer’s digits as dollars with two decimals', () => {
    expect(formatCents(cents(0))).toBe('$0.00');
    expect(formatCents(cents(5))).toBe('$0.05');
    expect(formatCents(cents(30))).toBe('$0.30');
    expect(formatCents(cents(123456789))).toBe('$1,234,567.89');
    expect(formatCents(cents(-1230))).toBe('-$12.30');
    expect(formatCents(cents(Number.MAX_SAFE_INTEGER))).toBe('$90,071,992,547,409.91');
    expect(formatCents(null)).toBe('Awaiting definition');
  });
});

describe('Money (the staff forms’ amounts)', () => {
  it('takes two-decimal dollars and refuses 0.1 + 0.2, which a tolerance let through', () => {
    expect(Money('amount').safeParse(0.3).success).toBe(true);
    expect(Money('amount').safeParse(1234567.89).success).toBe(true);
    const sum = Money('amount').safeParse(0.1 + 0.2);
    expect(sum.success).toBe(false);
    expect(sum.error?.issues[0]?.message).toBe('amount can have at most two decimals');
  });
});
