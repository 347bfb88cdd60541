import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWorkQueue } from './capture-queue.ts';
import { createLinkCache } from './link-cache.ts';
import { createCaptureLimiter } from './rate-limit.ts';

describe('createCaptureLimiter', () => {
  const limits = { perIpPerLink: { max: 2, windowMs: 1000 }, perLink: { max: 3, windowMs: 5000 }, perIp: { max: 4, windowMs: 1000 } };

  it('records at most N visits per address per link in a window, then again after it', () => {
    const limiter = createCaptureLimiter(limits);
    expect([0, 1, 2].map(() => limiter.allow('L', '1.1.1.1', 0))).toEqual([true, true, false]);
    expect(limiter.allow('L', '1.1.1.1', 1000)).toBe(true);
  });

  it('records at most M visits per link from all addresses', () => {
    const limiter = createCaptureLimiter(limits);
    expect(['a', 'b', 'c', 'd'].map((ip) => limiter.allow('L', ip, 0))).toEqual([true, true, true, false]);
    expect(limiter.allow('other link', 'd', 0)).toBe(true);
  });

  it('records at most K visits per address across links', () => {
    const limiter = createCaptureLimiter(limits);
    expect(['1', '2', '3', '4', '5'].map((link) => limiter.allow(link, 'x', 0))).toEqual([true, true, true, true, false]);
  });

  it('a refused visit does not use up the other windows', () => {
    const limiter = createCaptureLimiter(limits);
    limiter.allow('L', 'a', 0);
    limiter.allow('L', 'a', 0);
    expect(limiter.allow('L', 'a', 0)).toBe(false);
    // The link has had 2 of its 3; the refused one did not count.
    expect(limiter.allow('L', 'b', 0)).toBe(true);
    expect(limiter.allow('L', 'c', 0)).toBe(false);
  });
});

describe('createLinkCache', () => {
  const link = { id: 'id', destination: null, disabled: false };
  // Entries expire on the clock (a miss after 100 ms): frozen, so a pause of the test process between two
  // reads (a loaded machine) cannot expire what the test expects to be cached. Later reads name their time.
  const freeze = () => vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 0, 1, 12) });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads the database once per slug while fresh, and once for many visits arriving together', async () => {
    freeze();
    const cache = createLinkCache({ ttlMs: 1000, missTtlMs: 100, maxEntries: 10 });
    const load = vi.fn(async () => link);
    await Promise.all([cache.get('s', load), cache.get('s', load), cache.get('s', load)]);
    await cache.get('s', load);
    expect(load).toHaveBeenCalledTimes(1);
    await cache.get('s', load, Date.now() + 999);
    expect(load).toHaveBeenCalledTimes(1);
    await cache.get('s', load, Date.now() + 1000);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('forgets a slug at once when staff change its link', async () => {
    const cache = createLinkCache({ ttlMs: 60_000, missTtlMs: 100, maxEntries: 10 });
    await cache.get('s', async () => link);
    cache.forget('s');
    expect(await cache.get('s', async () => ({ ...link, disabled: true }))).toMatchObject({ disabled: true });
  });

  it('does not keep what a load read before staff changed the link', async () => {
    const cache = createLinkCache({ ttlMs: 60_000, missTtlMs: 100, maxEntries: 10 });
    let release: (value: typeof link) => void = () => undefined;
    const pending = cache.get('s', () => new Promise((resolve) => (release = resolve)));
    cache.forget('s');
    release(link);
    expect(await pending).toEqual(link);
    expect(await cache.get('s', async () => ({ ...link, disabled: true }))).toMatchObject({ disabled: true });
  });

  it('keeps an unknown slug briefly, and never more than maxEntries slugs', async () => {
    freeze();
    const cache = createLinkCache({ ttlMs: 60_000, missTtlMs: 100, maxEntries: 2 });
    const miss = vi.fn(async () => null);
    await cache.get('a', miss);
    await cache.get('a', miss, Date.now() + 99);
    expect(miss).toHaveBeenCalledTimes(1);
    await cache.get('a', miss, Date.now() + 100);
    expect(miss).toHaveBeenCalledTimes(2);
    await cache.get('b', async () => link);
    await cache.get('c', async () => link);
    // 'a' was the oldest: evicted, so it is read again.
    await cache.get('a', miss);
    expect(miss).toHaveBeenCalledTimes(3);
  });
});

describe('createWorkQueue', () => {
  it('runs items after the current tick, drops them beyond its capacity, and says when it is idle', async () => {
    const done: number[] = [];
    const dropped: number[] = [];
    const queue = createWorkQueue<number>({
      capacity: 2,
      concurrency: 1,
      worker: async (n) => void done.push(n),
      onDrop: (n) => dropped.push(n),
      onError: () => undefined,
    });
    expect([1, 2, 3].map((n) => queue.push(n))).toEqual([true, true, false]);
    expect(done).toEqual([]);
    await queue.idle();
    expect(done).toEqual([1, 2]);
    expect(dropped).toEqual([3]);
  });

  it('reports a failed item and goes on with the next', async () => {
    const errors: unknown[] = [];
    const done: number[] = [];
    const queue = createWorkQueue<number>({
      capacity: 10,
      concurrency: 1,
      worker: async (n) => {
        if (n === 1) throw new Error('boom');
        done.push(n);
      },
      onDrop: () => undefined,
      onError: (err) => errors.push(err),
    });
    queue.push(1);
    queue.push(2);
    await queue.idle();
    expect(done).toEqual([2]);
    expect(errors).toHaveLength(1);
  });

  it('drains on close and then refuses new items', async () => {
    const done: number[] = [];
    const queue = createWorkQueue<number>({ capacity: 10, concurrency: 2, worker: async (n) => void done.push(n), onDrop: () => undefined, onError: () => undefined });
    queue.push(1);
    queue.push(2);
    await queue.close();
    expect(done).toEqual([1, 2]);
    expect(queue.push(3)).toBe(false);
  });
});
