import { createHash } from 'node:crypto';
import type { IdentityProvider, VerifiedToken } from './firebase.ts';

/**
 * ID token checks that do not ask the identity provider on every request
 * (docs/decisions/011-token-checks.md). A full check (signature, expiry, and the provider's revocation,
 * disabled and deleted state) is remembered in process for `ttlMs`, keyed by a hash of the exact token,
 * so a read within that time costs a hash and a map lookup. A `fresh` check (writes, stream connect)
 * always asks the provider. So a revoked, disabled or deleted account's token is refused at once on
 * writes and stream connect, and on reads once the entry is older than `ttlMs`: the window is per
 * instance, since each instance has its own cache. A token is never accepted past its own `exp`.
 */
export interface TokenChecks {
  /** The token's identity, or throws (the caller answers 401). */
  check(token: string, opts?: { fresh?: boolean }): Promise<VerifiedToken>;
}

export interface TokenCheckOptions {
  /** How long a full check is trusted for reads: the window in which a revoked token still reads. */
  ttlMs: number;
  /** Bound on the remembered tokens; the oldest are forgotten first. */
  maxEntries: number;
  /** Milliseconds since the epoch; a test's clock moves the window without sleeping. */
  now: () => number;
}

export const DEFAULT_TOKEN_CHECKS: TokenCheckOptions = { ttlMs: 60_000, maxEntries: 10_000, now: () => Date.now() };

export class TokenExpiredError extends Error {
  constructor() {
    super('The ID token has expired');
  }
}

interface Entry {
  token: VerifiedToken;
  /** When this entry stops being trusted: the earlier of check time + TTL and the token's own exp. */
  trustedUntil: number;
  expiresAtMs: number;
}

export function createTokenChecks(identity: IdentityProvider, options: Partial<TokenCheckOptions> = {}): TokenChecks {
  const { ttlMs, maxEntries, now } = { ...DEFAULT_TOKEN_CHECKS, ...options };
  const entries = new Map<string, Entry>();
  // Concurrent reads of one uncached token (an app's start-up pulls in parallel) share one provider call.
  const checking = new Map<string, Promise<VerifiedToken>>();

  const remember = (key: string, token: VerifiedToken) => {
    const expiresAtMs = token.expiresAt * 1000;
    entries.delete(key);
    while (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
    entries.set(key, { token, expiresAtMs, trustedUntil: Math.min(now() + ttlMs, expiresAtMs) });
  };

  const askProvider = async (key: string, raw: string): Promise<VerifiedToken> => {
    try {
      const token = await identity.verifyIdToken(raw);
      remember(key, token);
      return token;
    } catch (err) {
      // A refused token is forgotten, so a write that found it revoked closes the window for reads too.
      entries.delete(key);
      throw err;
    }
  };

  return {
    async check(raw, { fresh = false } = {}) {
      // The key is the whole token's hash: a token of another user, or a tampered one, never matches,
      // and no bearer token is kept in memory as such.
      const key = createHash('sha256').update(raw).digest('base64url');
      const hit = entries.get(key);
      if (hit && now() >= hit.expiresAtMs) {
        entries.delete(key);
        throw new TokenExpiredError();
      }
      if (fresh) return askProvider(key, raw);
      if (hit && now() < hit.trustedUntil) return hit.token;
      const pending = checking.get(key);
      if (pending) return pending;
      const started = askProvider(key, raw).finally(() => checking.delete(key));
      checking.set(key, started);
      return started;
    },
  };
}
