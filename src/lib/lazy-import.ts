import { createStore } from './create-store.ts';

/**
 * Every lazily loaded part of the app (route components, the Auth SDK, workbox-window, pdf-lib, the full theme:
 * every dynamic `import()` of the build) arrives through `loadChunk`, which the build's preload helper calls
 * (vite.config.ts, `retryingPreloadHelper`; docs/decisions/026-lazy-load-retry.md).
 *
 * Why: a module script that fails to arrive is remembered by the browser as failed for the life of the page, and
 * so is every module that imports it (the same URL keeps failing, and `?retry=1` on the importer does not help
 * when what failed was one of its static imports). So the files of a chunk's graph are first fetched as plain
 * files (a failed `fetch` leaves nothing behind), retried until the connection is back, and only then imported,
 * from the HTTP cache. Should an import still fail (the connection dropped between the two, with the cache off),
 * the chunk is imported again under a fresh URL once the connection is back; one fresh import per failed URL is
 * shared by every caller, so a module never runs twice (two Firebase apps, two routers' worth of state).
 */

/** What the sign-in form, the splash and the app's banner say while a part of the app waits for the network. */
export const connectionLostText = 'Connection lost — we will try again';

/** The longest wait between two tries (a long outage is retried twice a minute, and at once when `online` fires). */
export const MAX_BACKOFF_MS = 30_000;

/** How long to wait before try number `attempt` (0-based): 0.5 s doubling up to MAX_BACKOFF_MS. */
export function backoffMs(attempt: number): number {
  return Math.min(MAX_BACKOFF_MS, 500 * 2 ** attempt);
}

/** Whether an error is a module script that did not arrive (Chromium, Firefox and Safari word it differently). */
export function isModuleLoadFailure(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return /dynamically imported module|Importing a module script failed|module script failed|error loading dynamically imported module/i.test(err.message);
}

/** The URL a failed dynamic import names in its message (Chromium and Firefox name it; Safari does not). */
export function failedModuleUrl(err: unknown): string | null {
  if (!(err instanceof Error)) return null;
  const url = /(https?:\/\/\S+?\.m?js)(\?\S*)?$/.exec(err.message.trim());
  return url ? url[1] : null;
}

/** `url` with `retry=N` in its query: a URL the browser has not tried, so it has no failure remembered for it. */
export function freshUrl(url: string, attempt: number): string {
  const u = new URL(url);
  u.searchParams.set('retry', String(attempt));
  return u.href;
}

/** What the loader needs from the browser; tests hand in fakes. */
export interface ChunkLoaderEnv {
  /** 'ok' when the file arrived whole, 'missing' on an HTTP error; rejects when the network failed. */
  fetchFile(url: string): Promise<'ok' | 'missing'>;
  /** Whether the page already has this file (loaded at start): no need to fetch it again. */
  alreadyLoaded(url: string): boolean;
  importUrl(url: string): Promise<unknown>;
  isOnline(): boolean;
  /** Calls back on the browser's `online` event; returns the unsubscribe. */
  onOnline(callback: () => void): () => void;
  /** Resolves after `ms`, or sooner when `wake` is called. */
  sleep(ms: number, wake: (resolveEarly: () => void) => void): Promise<void>;
  /** The last resort: a fresh page clears every failure the browser remembers. */
  reload(): void;
}

/** How many fresh imports may fail with the connection up before the page is reloaded. */
const FRESH_IMPORTS_BEFORE_RELOAD = 3;

/** Whether some lazily loaded part is waiting for the connection (drives `connectionLostText` on screen). */
const waitingStore = createStore<{ waiting: number; inlineNotices: number }>({ waiting: 0, inlineNotices: 0 });

export function useChunkWaiting(): boolean {
  return waitingStore.useSelect((s) => s.waiting > 0);
}

/** Whether the app-wide banner should say it: not while a screen says it in place (the sign-in form's status line). */
export function useChunkWaitingBanner(): boolean {
  return waitingStore.useSelect((s) => s.waiting > 0 && s.inlineNotices === 0);
}

/** A screen that shows the waiting state itself claims it while mounted; returns the release. */
export function claimInlineConnectionNotice(): () => void {
  waitingStore.set({ inlineNotices: waitingStore.get().inlineNotices + 1 });
  return () => waitingStore.set({ inlineNotices: waitingStore.get().inlineNotices - 1 });
}

export function chunkWaiting(): boolean {
  return waitingStore.get().waiting > 0;
}

export function onChunkWaitingChange(listener: (waiting: boolean) => void): () => void {
  let last = chunkWaiting();
  return waitingStore.subscribe(() => {
    const now = chunkWaiting();
    if (now !== last) listener((last = now));
  });
}

export function createChunkLoader(env: ChunkLoaderEnv) {
  /** Files fetched whole once: in the HTTP cache from then on. */
  const warmed = new Set<string>();
  /** The fresh import of each URL whose import failed: shared, so the module runs once. */
  const freshImports = new Map<string, Promise<unknown>>();

  /** Waits for the connection: until `online` fires when the browser knows it is offline, else the backoff. */
  async function waitForConnection(attempt: number): Promise<void> {
    let stop = () => {};
    await env.sleep(env.isOnline() ? backoffMs(attempt) : MAX_BACKOFF_MS, (wake) => {
      stop = env.onOnline(wake);
    });
    stop();
  }

  /** Runs `work` until it succeeds, waiting for the connection between tries, with the waiting state shown. */
  async function untilItWorks<T>(work: () => Promise<T>, shouldRetry: (err: unknown) => boolean): Promise<T> {
    let waiting = false;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          return await work();
        } catch (err) {
          if (!shouldRetry(err)) throw err;
          if (!waiting) {
            waiting = true;
            waitingStore.set({ waiting: waitingStore.get().waiting + 1 });
          }
          await waitForConnection(attempt);
        }
      }
    } finally {
      if (waiting) waitingStore.set({ waiting: waitingStore.get().waiting - 1 });
    }
  }

  /** Fetches a file of a chunk's graph until it arrives (a 404 is left for the import to report). */
  function warm(url: string): Promise<void> {
    if (warmed.has(url) || env.alreadyLoaded(url)) return Promise.resolve();
    return untilItWorks(
      () => env.fetchFile(url),
      () => true,
    ).then(() => void warmed.add(url));
  }

  /** The fresh import of a failed URL, retried until it works, shared by every caller. */
  function importFresh(url: string): Promise<unknown> {
    let shared = freshImports.get(url);
    if (!shared) {
      let tries = 0;
      let failedOnline = 0;
      shared = untilItWorks(
        () => env.importUrl(freshUrl(url, ++tries)),
        (err) => {
          if (!isModuleLoadFailure(err)) return false;
          // Failing again and again with the connection up: a static import of the chunk failed, which no fresh
          // URL of the chunk itself can clear. Only a new page can.
          if (env.isOnline() && ++failedOnline >= FRESH_IMPORTS_BEFORE_RELOAD) env.reload();
          return true;
        },
      );
      freshImports.set(url, shared);
    }
    return shared;
  }

  /**
   * Loads a lazily loaded part: `files` are its chunk's graph (the chunk first), `load` the build's own import.
   * Resolves with the module once it arrived, however long the connection is away; rejects only for failures a
   * connection cannot fix (a chunk gone after a deploy, an error thrown while the module runs).
   */
  return async function loadChunk<T>(load: () => Promise<T>, files: readonly string[]): Promise<T> {
    await Promise.all(files.map(warm));
    try {
      return await load();
    } catch (err) {
      if (!isModuleLoadFailure(err)) throw err;
      const url = failedModuleUrl(err);
      if (!url) {
        // No URL named (Safari): the same import again, once the connection is back.
        return untilItWorks(load, isModuleLoadFailure);
      }
      return (await importFresh(url)) as T;
    }
  };
}

export type LoadChunk = ReturnType<typeof createChunkLoader>;

/** The browser's side of the loader. */
export function browserChunkEnv(): ChunkLoaderEnv {
  return {
    async fetchFile(url) {
      // A plain GET into the HTTP cache (the build's files are cached as immutable), where the module loader finds it.
      const res = await fetch(url, { credentials: 'same-origin' });
      await res.arrayBuffer();
      return res.ok ? 'ok' : 'missing';
    },
    alreadyLoaded(url) {
      // The scripts the page started with; Resource Timing names what arrived (responseStatus where supported).
      return performance.getEntriesByName(url, 'resource').some((e) => {
        const status = (e as PerformanceResourceTiming & { responseStatus?: number }).responseStatus;
        return status === undefined ? (e as PerformanceResourceTiming).responseEnd > 0 && (e as PerformanceResourceTiming).decodedBodySize > 0 : status >= 200 && status < 300;
      });
    },
    importUrl: (url) => import(/* @vite-ignore */ url),
    isOnline: () => navigator.onLine,
    onOnline(callback) {
      window.addEventListener('online', callback);
      return () => window.removeEventListener('online', callback);
    },
    sleep: (ms, wake) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
    reload: () => window.location.reload(),
  };
}

/** The global the build's preload helper calls (vite.config.ts). */
declare global {
  var __portalLoadChunk: LoadChunk | undefined;
}

/** Installs the loader for the build's preload helper; main.tsx does it before anything loads lazily. */
export function installChunkLoader(): void {
  globalThis.__portalLoadChunk ??= createChunkLoader(browserChunkEnv());
}

/**
 * Waits before try number `attempt` of something that needs the network: until `online` fires when the browser
 * knows it is offline, else the backoff (cut short by `online`). For the sign-in's own retries.
 */
export function waitForConnection(attempt: number): Promise<void> {
  const env = browserChunkEnv();
  let stop = () => {};
  return env
    .sleep(env.isOnline() ? backoffMs(attempt) : MAX_BACKOFF_MS, (wake) => {
      stop = env.onOnline(wake);
    })
    .then(() => stop());
}
