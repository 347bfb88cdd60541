import { describe, expect, it, vi } from 'vitest';
import { type ChunkLoaderEnv, backoffMs, createChunkLoader, failedModuleUrl, freshUrl, isModuleLoadFailure } from './lazy-import.ts';

const CHUNK = 'http://localhost/assets/login-abc.js';
const DEP = 'http://localhost/assets/field-def.js';
const loadFailure = (url: string) => new TypeError(`Failed to fetch dynamically imported module: ${url}`);

/**
 * A browser in miniature: `fetchFailures[url]` network failures before a file arrives, a module map that (like the
 * browser's) remembers a failed URL for good, an online flag with its event, and sleeps that end at once (their
 * lengths recorded) or when `online` fires.
 */
function fakeBrowser(opts: { fetchFailures?: Record<string, number>; online?: boolean } = {}) {
  const fetchFailures = { ...opts.fetchFailures };
  const failedForGood = new Set<string>();
  const evaluated: string[] = [];
  const imported: string[] = [];
  const sleeps: number[] = [];
  const onlineListeners = new Set<() => void>();
  let online = opts.online ?? true;
  let reloads = 0;
  /** Import failures to produce per URL before it loads (a connection drop during the import itself). */
  const importFailures: Record<string, number> = {};
  const modules = new Map<string, object>();
  const env: ChunkLoaderEnv = {
    async fetchFile(url) {
      if ((fetchFailures[url] ?? 0) > 0) {
        fetchFailures[url]--;
        throw new TypeError('Failed to fetch');
      }
      return 'ok';
    },
    alreadyLoaded: () => false,
    async importUrl(url) {
      imported.push(url);
      if (failedForGood.has(url)) throw loadFailure(url);
      if ((importFailures[url] ?? 0) > 0) {
        importFailures[url]--;
        failedForGood.add(url);
        throw loadFailure(url);
      }
      let module = modules.get(url);
      if (!module) {
        evaluated.push(url);
        modules.set(url, (module = { url }));
      }
      return module;
    },
    isOnline: () => online,
    onOnline(callback) {
      onlineListeners.add(callback);
      return () => onlineListeners.delete(callback);
    },
    sleep(ms, wake) {
      sleeps.push(ms);
      if (online) return Promise.resolve();
      return new Promise<void>((resolve) => wake(resolve));
    },
    reload: () => void reloads++,
  };
  return {
    env,
    fetchFailures,
    importFailures,
    imported,
    evaluated,
    sleeps,
    get reloads() {
      return reloads;
    },
    goOnline() {
      online = true;
      for (const l of [...onlineListeners]) l();
    },
    goOffline() {
      online = false;
    },
  };
}

describe('the failure it reads', () => {
  it('knows a failed module load in the words of Chromium, Firefox and Safari, and nothing else', () => {
    expect(isModuleLoadFailure(loadFailure(CHUNK))).toBe(true);
    expect(isModuleLoadFailure(new TypeError(`error loading dynamically imported module: ${CHUNK}`))).toBe(true);
    expect(isModuleLoadFailure(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isModuleLoadFailure(new Error('auth/wrong-password'))).toBe(false);
    expect(isModuleLoadFailure('Failed to fetch dynamically imported module')).toBe(false);
  });

  it('reads the URL a failure names, and makes a fresh one per try', () => {
    expect(failedModuleUrl(loadFailure(CHUNK))).toBe(CHUNK);
    expect(failedModuleUrl(new TypeError('Importing a module script failed.'))).toBeNull();
    expect(freshUrl(CHUNK, 1)).toBe(`${CHUNK}?retry=1`);
    expect(freshUrl(`${CHUNK}?retry=1`, 2)).toBe(`${CHUNK}?retry=2`);
  });

  it('backs off from half a second, doubling, to at most 30 s', () => {
    expect([0, 1, 2, 3, 10].map(backoffMs)).toEqual([500, 1000, 2000, 4000, 30_000]);
  });
});

describe('loadChunk', () => {
  it("fetches the chunk's files until they arrive, then imports once: a failed fetch leaves no failure behind", async () => {
    const browser = fakeBrowser({ fetchFailures: { [CHUNK]: 2, [DEP]: 3 } });
    const loadChunk = createChunkLoader(browser.env);
    const module = await loadChunk(() => browser.env.importUrl(CHUNK), [CHUNK, DEP]);
    expect(module).toEqual({ url: CHUNK });
    expect(browser.imported).toEqual([CHUNK]);
    // Two failed fetches of the chunk and three of DEP (fetched side by side): a growing wait after each.
    expect(browser.sleeps.toSorted((a, b) => a - b)).toEqual([500, 500, 1000, 1000, 2000]);
  });

  it('waits for the online event while the browser is offline, then goes on', async () => {
    const browser = fakeBrowser({ fetchFailures: { [CHUNK]: 1 }, online: false });
    const loadChunk = createChunkLoader(browser.env);
    let done = false;
    const loading = loadChunk(() => browser.env.importUrl(CHUNK), [CHUNK]).then(() => (done = true));
    // Asleep after the failed fetch, offline: it waits for the browser to come back, and has loaded nothing.
    await vi.waitFor(() => expect(browser.sleeps).toHaveLength(1));
    expect(done).toBe(false);
    expect(browser.imported).toEqual([]);
    browser.goOnline();
    await loading;
    expect(browser.imported).toEqual([CHUNK]);
  });

  it('retries a failed import under a fresh URL each time until it loads, and the module runs once', async () => {
    const browser = fakeBrowser();
    browser.importFailures[CHUNK] = 1;
    browser.importFailures[`${CHUNK}?retry=1`] = 1;
    const loadChunk = createChunkLoader(browser.env);
    const module = await loadChunk(() => browser.env.importUrl(CHUNK), [CHUNK]);
    expect(module).toEqual({ url: `${CHUNK}?retry=2` });
    expect(browser.imported).toEqual([CHUNK, `${CHUNK}?retry=1`, `${CHUNK}?retry=2`]);
    expect(browser.evaluated).toEqual([`${CHUNK}?retry=2`]);
  });

  it('gives every caller of a failed chunk the same fresh import: one instance (one Firebase app), not two', async () => {
    const browser = fakeBrowser();
    browser.importFailures[CHUNK] = 2;
    const loadChunk = createChunkLoader(browser.env);
    const [a, b] = await Promise.all([loadChunk(() => browser.env.importUrl(CHUNK), [CHUNK]), loadChunk(() => browser.env.importUrl(CHUNK), [CHUNK])]);
    expect(a).toBe(b);
    expect(browser.evaluated).toHaveLength(1);
    const later = await loadChunk(() => browser.env.importUrl(CHUNK), [CHUNK]);
    expect(later).toBe(a);
  });

  it('reloads the page when fresh imports keep failing online (a static import of the chunk failed for good)', async () => {
    const browser = fakeBrowser();
    browser.importFailures[CHUNK] = 1;
    for (let n = 1; n <= 3; n++) browser.importFailures[`${CHUNK}?retry=${n}`] = 1;
    const loadChunk = createChunkLoader(browser.env);
    await loadChunk(() => browser.env.importUrl(CHUNK), [CHUNK]);
    expect(browser.reloads).toBe(1);
  });

  it('passes on failures no connection fixes', async () => {
    const browser = fakeBrowser();
    const loadChunk = createChunkLoader(browser.env);
    await expect(loadChunk(() => Promise.reject(new SyntaxError('Unexpected token')), [CHUNK])).rejects.toThrow('Unexpected token');
  });
});
