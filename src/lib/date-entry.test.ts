import { describe, expect, it } from 'vitest';
import {
  dateEntryToIso,
  formatDateEntry,
  formatTimeEntry,
  isoToDateEntry,
  parseDateEntry,
  parseDateTimeEntry,
  parseTimeEntry,
} from './date-entry.ts';

describe('parseDateEntry', () => {
  it('reads DD/MM/YYYY as that day at local midnight', () => {
    expect(parseDateEntry('17/05/2024')).toBe(new Date(2024, 4, 17).getTime());
    expect(parseDateEntry(' 03/10/2026 ')).toBe(new Date(2026, 9, 3).getTime());
  });

  it('reads the day first, never the month first', () => {
    expect(parseDateEntry('05/04/2026')).toBe(new Date(2026, 3, 5).getTime());
    expect(parseDateEntry('04/25/2026')).toBeNull(); // mm/dd/yyyy: there is no month 25
  });

  it('accepts one-digit days and months and dots or dashes between the parts', () => {
    expect(parseDateEntry('7/5/2024')).toBe(new Date(2024, 4, 7).getTime());
    expect(parseDateEntry('07.05.2024')).toBe(new Date(2024, 4, 7).getTime());
    expect(parseDateEntry('07-05-2024')).toBe(new Date(2024, 4, 7).getTime());
  });

  it('refuses days that do not exist', () => {
    expect(parseDateEntry('31/02/2026')).toBeNull();
    expect(parseDateEntry('29/02/2026')).toBeNull();
    expect(parseDateEntry('31/04/2026')).toBeNull();
    expect(parseDateEntry('00/01/2026')).toBeNull();
    expect(parseDateEntry('10/13/2026')).toBeNull();
    expect(parseDateEntry('29/02/2024')).toBe(new Date(2024, 1, 29).getTime()); // a leap year
  });

  it('refuses other shapes and years out of range', () => {
    for (const text of ['', '2024-05-17', '17/05/24', '17/05', 'tomorrow', '17/05/2024 10:00', '17/05/1899', '01/01/2200']) {
      expect(parseDateEntry(text), text).toBeNull();
    }
  });
});

describe('parseTimeEntry and parseDateTimeEntry', () => {
  it('reads a 24-hour time', () => {
    expect(parseTimeEntry('14:30')).toBe(14 * 60 + 30);
    expect(parseTimeEntry('9:05')).toBe(9 * 60 + 5);
    expect(parseTimeEntry('00:00')).toBe(0);
  });

  it('refuses impossible times', () => {
    for (const text of ['24:00', '12:60', '2:5', '2pm', '']) expect(parseTimeEntry(text), text).toBeNull();
  });

  it('joins the day and the time in local time', () => {
    expect(parseDateTimeEntry('14/03/2025', '10:30')).toBe(new Date(2025, 2, 14, 10, 30).getTime());
    expect(parseDateTimeEntry('31/02/2025', '10:30')).toBeNull();
    expect(parseDateTimeEntry('14/03/2025', '')).toBeNull();
  });
});

describe('formatting', () => {
  it('writes a timestamp back as the fields show it', () => {
    const at = new Date(2025, 2, 4, 9, 5).getTime();
    expect(formatDateEntry(at)).toBe('04/03/2025');
    expect(formatTimeEntry(at)).toBe('09:05');
    expect(parseDateEntry(formatDateEntry(at))).toBe(new Date(2025, 2, 4).getTime());
  });

  it('converts between the typed day and the calendar input value', () => {
    expect(dateEntryToIso('4/3/2025')).toBe('2025-03-04');
    expect(dateEntryToIso('31/02/2025')).toBe('');
    expect(isoToDateEntry('2025-03-04')).toBe('04/03/2025');
    expect(isoToDateEntry('')).toBe('');
  });
});
