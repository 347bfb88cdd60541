import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseClientConfig } from './config.ts';

/** The zod schema the hand check replaced: the two must agree on every value. */
const ZodClientConfig = z.object({
  projectId: z.string().default('demo-portal'),
  apiKey: z.string().default('emulator-key'),
  authDomain: z.string().default('demo-portal.firebaseapp.com'),
  authEmulatorHost: z.string().nullable().default(null),
});
const viaZod = (value: unknown) => {
  const parsed = ZodClientConfig.safeParse(value);
  return parsed.success ? parsed.data : ZodClientConfig.parse({});
};

const full = { projectId: 'p', apiKey: 'k', authDomain: 'p.firebaseapp.com', authEmulatorHost: '127.0.0.1:9484' };
const values: unknown[] = [
  full,
  { ...full, authEmulatorHost: null },
  { ...full, extra: 1 },
  { projectId: 'p' },
  {},
  { ...full, apiKey: 3 },
  { ...full, authEmulatorHost: 9099 },
  { ...full, projectId: null },
  { ...full, authDomain: undefined },
  [],
  null,
  'x',
  42,
  undefined,
];

describe('parseClientConfig', () => {
  it('reads what the server writes', () => {
    expect(parseClientConfig(full)).toEqual(full);
  });

  it('fills in the defaults, and gives only the defaults for a value it rejects', () => {
    expect(parseClientConfig({ projectId: 'p' })).toEqual({ projectId: 'p', apiKey: 'emulator-key', authDomain: 'demo-portal.firebaseapp.com', authEmulatorHost: null });
    expect(parseClientConfig({ ...full, apiKey: 3 })).toEqual(viaZod({}));
  });

  it.each(values.map((v) => [JSON.stringify(v) ?? 'undefined', v]))('agrees with the zod schema it replaced on %s', (_, value) => {
    expect(parseClientConfig(value)).toEqual(viaZod(value));
  });
});
