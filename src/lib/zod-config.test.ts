import { describe, expect, it } from 'vitest';
import './zod-config.ts';
import { z } from 'zod';

describe('zod-config', () => {
  it('turns off the eval-based fast path as zod sees it', () => {
    expect(z.config().jitless).toBe(true);
  });

  it('object schemas still check', () => {
    const Person = z.object({ name: z.string() });
    expect(Person.safeParse({ name: 'Ada' }).success).toBe(true);
    expect(Person.safeParse({ name: 1 }).success).toBe(false);
  });
});
