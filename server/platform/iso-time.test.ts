import { describe, expect, it } from 'vitest';
import { isoTime } from './iso-time.ts';

describe('isoTime', () => {
  it('keeps a time already in the API form and parses any other, as toISOString writes it', () => {
    expect(isoTime('2026-11-26T17:59:20.336Z')).toBe('2026-11-26T17:59:20.336Z');
    // The drivers' text of a timestamptz, microseconds cut to milliseconds.
    expect(isoTime('2026-11-26 17:59:20.336789+00')).toBe('2026-11-26T17:59:20.336Z');
    expect(isoTime('2026-11-26 19:59:20+02')).toBe('2026-11-26T17:59:20.000Z');
    expect(isoTime('2026-11-26T17:59:20.336+00:00')).toBe('2026-11-26T17:59:20.336Z');
  });
});
