import { describe, expect, it } from 'vitest';
import type { IdentityProvider, VerifiedToken } from './firebase.ts';
import { createTokenChecks, TokenExpiredError } from './token-checks.ts';

const T0 = 1_800_000_000_000;

/** A provider that knows a few tokens, counts its calls, and can revoke a token. */
function fakeProvider(tokens: Record<string, VerifiedToken>) {
  const revoked = new Set<string>();
  let calls = 0;
  let gate: Promise<void> | null = null;
  const provider = {
    async verifyIdToken(raw: string) {
      calls++;
      if (gate) await gate;
      const token = tokens[raw];
      if (!token || revoked.has(raw)) throw new Error('refused');
      return token;
    },
  } as IdentityProvider;
  return {
    provider,
    calls: () => calls,
    revoke: (raw: string) => revoked.add(raw),
    /** Holds every call until the returned function is called. */
    hold: () => {
      let open = () => undefined as void;
      gate = new Promise<void>((r) => (open = r));
      return () => {
        gate = null;
        open();
      };
    },
  };
}

const token = (uid: string, expiresAtMs = T0 + 3600_000): VerifiedToken => ({ uid, email: `${uid}@x`, issuedAt: Math.floor(T0 / 1000), expiresAt: Math.floor(expiresAtMs / 1000), authTime: Math.floor(T0 / 1000) });

function setup(tokens: Record<string, VerifiedToken>, maxEntries = 100) {
  const fake = fakeProvider(tokens);
  let now = T0;
  const checks = createTokenChecks(fake.provider, { ttlMs: 60_000, maxEntries, now: () => now });
  return { ...fake, checks, advance: (ms: number) => (now += ms), setNow: (ms: number) => (now = ms) };
}

describe('createTokenChecks', () => {
  it('asks the provider once per token while the check is within its TTL', async () => {
    const s = setup({ a: token('alice') });
    expect((await s.checks.check('a')).uid).toBe('alice');
    s.advance(59_999);
    expect((await s.checks.check('a')).uid).toBe('alice');
    expect(s.calls()).toBe(1);
  });

  it('asks again after the TTL, and then refuses a token revoked meanwhile', async () => {
    const s = setup({ a: token('alice') });
    await s.checks.check('a');
    s.revoke('a');
    expect((await s.checks.check('a')).uid).toBe('alice'); // inside the window
    s.advance(60_000);
    await expect(s.checks.check('a')).rejects.toThrow('refused');
    expect(s.calls()).toBe(2);
  });

  it('a fresh check always asks, and a refusal closes the window for reads too', async () => {
    const s = setup({ a: token('alice') });
    await s.checks.check('a');
    await s.checks.check('a', { fresh: true });
    expect(s.calls()).toBe(2);
    s.revoke('a');
    await expect(s.checks.check('a', { fresh: true })).rejects.toThrow('refused');
    await expect(s.checks.check('a')).rejects.toThrow('refused');
    expect(s.calls()).toBe(4);
  });

  it('never accepts a cached token at or past its own exp, and never trusts it beyond exp', async () => {
    const s = setup({ a: token('alice', T0 + 30_000) });
    await s.checks.check('a');
    s.advance(30_000);
    await expect(s.checks.check('a')).rejects.toBeInstanceOf(TokenExpiredError);
    await expect(s.checks.check('a', { fresh: true })).resolves.toBeDefined(); // forgotten: only the provider decides now
    expect(s.calls()).toBe(2);
  });

  it('keys by the whole token: each token answers its own user, and another string is never a hit', async () => {
    const s = setup({ a: token('alice'), b: token('bob') });
    expect((await s.checks.check('a')).uid).toBe('alice');
    expect((await s.checks.check('b')).uid).toBe('bob');
    expect((await s.checks.check('a')).uid).toBe('alice');
    expect((await s.checks.check('b')).uid).toBe('bob');
    await expect(s.checks.check('a ')).rejects.toThrow('refused');
    expect(s.calls()).toBe(3);
  });

  it('shares one provider call between reads of an uncached token arriving together', async () => {
    const s = setup({ a: token('alice') });
    const release = s.hold();
    const reads = Promise.all([s.checks.check('a'), s.checks.check('a'), s.checks.check('a')]);
    await Promise.resolve();
    release();
    expect((await reads).map((t) => t.uid)).toEqual(['alice', 'alice', 'alice']);
    expect(s.calls()).toBe(1);
  });

  it('holds at most maxEntries tokens, forgetting the oldest first', async () => {
    const s = setup({ a: token('a'), b: token('b'), c: token('c') }, 2);
    for (const raw of ['a', 'b', 'c']) await s.checks.check(raw);
    await s.checks.check('c');
    await s.checks.check('b');
    expect(s.calls()).toBe(3);
    await s.checks.check('a');
    expect(s.calls()).toBe(4);
  });
});
