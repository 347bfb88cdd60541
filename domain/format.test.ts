import { describe, expect, it } from 'vitest';
import { capitalise, formatDate, formatMoney } from './format.ts';
import { texts } from './texts.ts';

describe('formatMoney', () => {
  it('shows dollars with two decimals', () => {
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(5)).toBe('$5.00');
    expect(formatMoney(1234.5)).toBe('$1,234.50');
    expect(formatMoney(99.999)).toBe('$100.00');
    expect(formatMoney(-12.3)).toBe('-$12.30');
  });

  it('reads "Awaiting definition" while no total is set', () => {
    expect(formatMoney(null)).toBe('Awaiting definition');
    expect(formatMoney(undefined)).toBe(texts.awaitingDefinition);
    expect(formatMoney(Number.NaN)).toBe(texts.awaitingDefinition);
  });
});

describe('formatDate', () => {
  it('formats as DD/MM/YYYY from ISO strings, timestamps and Dates', () => {
    expect(formatDate('2024-03-07T10:00:00')).toBe('07/03/2024');
    expect(formatDate(new Date(2023, 11, 31, 12).getTime())).toBe('31/12/2023');
    expect(formatDate(new Date(2025, 0, 2, 12))).toBe('02/01/2025');
  });

  it('is empty for missing or invalid values', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});

describe('capitalise', () => {
  it('upper-cases the first letter only', () => {
    expect(capitalise('crypto')).toBe('Crypto');
    expect(capitalise('ROMANCE')).toBe('Romance');
    expect(capitalise('')).toBe('');
  });
});
