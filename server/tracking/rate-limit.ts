import type { Limit } from '../platform/rate-counters.ts';

/**
 * How many visits are recorded, so a flood (a script hammering one link, or many links from one
 * address) cannot fill the database. Over a limit the visitor is still answered and redirected, so the
 * limit reveals nothing; only the record is skipped. Counted twice: in process memory before a visit
 * is queued (so a flood never fills the queue), and in the shared rate_counters before it is written
 * (so several instances together record no more than these numbers; docs/decisions/010-track-master-links.md).
 */
export interface CaptureLimits {
  /** One address on one link: a person reloading, or a preview bot retrying. */
  perIpPerLink: { max: number; windowMs: number };
  /** One link, all addresses: a link posted somewhere public. */
  perLink: { max: number; windowMs: number };
  /** One address, all links: someone probing many links. */
  perIp: { max: number; windowMs: number };
}

export const DEFAULT_CAPTURE_LIMITS: CaptureLimits = {
  perIpPerLink: { max: 5, windowMs: 10 * 60_000 },
  perLink: { max: 300, windowMs: 60 * 60_000 },
  perIp: { max: 30, windowMs: 10 * 60_000 },
};

/** The same maximums as rate_counters rows every instance counts in, over the default windows (10 minutes, an hour). */
export function sharedCaptureLimits(linkId: string, ip: string, limits: CaptureLimits = DEFAULT_CAPTURE_LIMITS): Limit[] {
  return [
    { key: `capture:${linkId}:${ip}`, window: '10m', max: limits.perIpPerLink.max },
    { key: `capture:${linkId}`, window: '1h', max: limits.perLink.max },
    { key: `capture-ip:${ip}`, window: '10m', max: limits.perIp.max },
  ];
}

/** Counters kept at most: beyond this, expired ones are swept, and if none expired the visit is not recorded. */
const MAX_KEYS = 100_000;

interface Window {
  count: number;
  resetAt: number;
}

export interface CaptureLimiter {
  /** Whether this visit may be recorded; counts it if so. */
  allow(linkId: string, ip: string, now?: number): boolean;
}

export function createCaptureLimiter(limits: CaptureLimits = DEFAULT_CAPTURE_LIMITS): CaptureLimiter {
  const windows = new Map<string, Window>();

  const hasRoom = (key: string, limit: { max: number }, now: number) => {
    const w = windows.get(key);
    return !w || w.resetAt <= now || w.count < limit.max;
  };
  const count = (key: string, limit: { windowMs: number }, now: number) => {
    const w = windows.get(key);
    if (!w || w.resetAt <= now) windows.set(key, { count: 1, resetAt: now + limit.windowMs });
    else w.count++;
  };
  const sweep = (now: number) => {
    for (const [key, w] of windows) if (w.resetAt <= now) windows.delete(key);
  };

  return {
    allow(linkId, ip, now = Date.now()) {
      const keys = [
        [`l|${linkId}|${ip}`, limits.perIpPerLink],
        [`l|${linkId}`, limits.perLink],
        [`i|${ip}`, limits.perIp],
      ] as const;
      if (!keys.every(([key, limit]) => hasRoom(key, limit, now))) return false;
      if (windows.size + keys.length > MAX_KEYS) {
        sweep(now);
        // Still full of live counters: a flood from very many addresses. Not recording is the safe side.
        if (windows.size + keys.length > MAX_KEYS) return false;
      }
      for (const [key, limit] of keys) count(key, limit, now);
      return true;
    },
  };
}
