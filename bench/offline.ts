// `node bench/offline.ts`: the offline-first figures, measured in real Chromium against
// the `npm start` stack (own ports, fresh data dir):
//   - the time the app takes to pull 10,000 requests into its Dexie replica (performance measure
//     "portal:pull" the app itself records around each pull);
//   - the bytes a pull transfers when nothing changed;
//   - the time to replay 1,000 queued commands through the outbox, against sending the same 1,000
//     directly online from the same page (one after the other), and their ratio, in rounds of alternating order
//     (medians); and where each replay's time went (the sender's performance measures, the pulls meanwhile, long tasks).
// Prints figures only; it asserts nothing about speed.
import { join } from 'node:path';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { ROOT } from '../scripts/emulator.ts';
import { startStackProcess } from '../scripts/stack-process.ts';
import { signUp as signUpWithEmulator } from '../server/test-helper.ts';
import { resolveChromium } from '../tests/support/chromium.ts';
import { addContactCommands, countRows, readIdToken } from '../tests/support/replica-probe.ts';

export interface OfflineBenchOptions {
  requests: number;
  commands: number;
  /** The replay figure takes about a minute; the pull alone can skip it. */
  replay: boolean;
  port: number;
  authPort: number;
  /** Each seeded request with the command id a request made through the app carries (BENCH_COMMAND_IDS=1). */
  commandIds: boolean;
  /**
   * Sign in at once on the very first visit, while the service worker is still fetching and storing the whole app
   * (BENCH_FIRST_VISIT=1). By default the bench waits for the worker first, as on any visit after the first.
   */
  firstVisit: boolean;
  /** Pulls timed, each on a new device (`BENCH_PULLS`, 3); the figure is their median. */
  pulls: number;
  /** Rounds of replay and direct send, in alternating order (`BENCH_ROUNDS`, 4: each order twice). */
  rounds: number;
}

export const OFFLINE_BENCH_DEFAULTS: OfflineBenchOptions = {
  requests: Number(process.env.BENCH_REQUESTS ?? 10_000),
  commands: Number(process.env.BENCH_COMMANDS ?? 1000),
  replay: process.env.BENCH_REPLAY !== '0',
  port: Number(process.env.BENCH_PORT ?? 8481),
  authPort: Number(process.env.BENCH_AUTH_PORT ?? 9481),
  commandIds: process.env.BENCH_COMMAND_IDS === '1',
  firstVisit: process.env.BENCH_FIRST_VISIT === '1',
  pulls: Number(process.env.BENCH_PULLS ?? 3),
  rounds: Number(process.env.BENCH_ROUNDS ?? 4),
};

export interface OfflineFigures {
  requests: number;
  stored: number;
  /** The median of the pulls (`BENCH_PULLS`, 3), each on a new device; `pullRuns` lists every one, in run order; `phases` and `timeline` are the median pull's. */
  pullMs: number;
  pullRuns: number[];
  /**
   * The pull's pages and the time of each phase summed over them: network and JSON, row checks, the Dexie
   * transactions, and the waits for a page the writing of the one before did not hide (the next page is fetched
   * while one is written, so fetch and apply overlap and their sum exceeds the whole).
   */
  phases: { pages: number; fetchMs: number; readMs: number; applyMs: number; waitMs: number };
  /** Every phase of every page, from the pull's start (ms), in start order: shows what overlapped and what waited. */
  timeline: { name: string; startMs: number; durationMs: number }[];
  emptyPullBodyBytes: number;
  emptyPullHeaderBytes: number;
  emptyPullStatus: number;
  /** Absent when the replay was not asked for. The medians over the rounds (`BENCH_ROUNDS`); the ratio is the median of the rounds' ratios. */
  replay?: { commands: number; rounds: ReplayRound[]; replayMs: number; directMs: number; ratio: number; serverRows: number; distinctRows: number };
}

/**
 * Where the replay's time went, summed over its commands (src/lib/sync/sender.ts records each phase as a performance
 * measure): reading and marking the queue, the token, the request and its answer, storing the answer; the pulls the
 * server's pokes caused meanwhile; and the main thread's long tasks (50 ms or more: renders, big transactions).
 * With several commands in flight the phases overlap, so their sum can exceed the replay.
 */
export interface ReplayPhases {
  sends: number;
  queueMs: number;
  tokenMs: number;
  wireMs: number;
  applyMs: number;
  pulls: number;
  pullMs: number;
  longTasks: number;
  longTaskMs: number;
}

/** What ran beside the direct send: the pulls the server's pokes caused, and the main thread's long tasks. */
export interface DirectPhases {
  pulls: number;
  pullMs: number;
  longTasks: number;
  longTaskMs: number;
}

export async function benchOffline(opts: Partial<OfflineBenchOptions> = {}): Promise<OfflineFigures> {
  const { requests: REQUESTS, commands: COMMANDS, replay: withReplay, port, authPort, commandIds, firstVisit, pulls: PULLS, rounds: ROUNDS } = { ...OFFLINE_BENCH_DEFAULTS, ...opts };
  // The e2e tests' Chromium: CHROMIUM_PATH, the system's or the npm-shipped one (tests/support/chromium.ts).
  const CHROMIUM = await resolveChromium();
  // Requests logged as in production (errors only), as bench/sync.ts does: the dev stack logs every request.
  const stack = await startStackProcess({ port, authPort, logPath: join(ROOT, 'tests', 'output', 'bench-stack.log'), env: { TEST_FAULTS: '1', LOG_REQUESTS: process.env.BENCH_LOG_REQUESTS ?? 'errors' }, label: 'bench' });
  const browser = await chromium.launch({ executablePath: CHROMIUM.executablePath, args: CHROMIUM.args, env: CHROMIUM.env });
  try {
    const email = `bench-${Date.now()}@bench.example`;
    const signUp = await seededUser(stack, email, REQUESTS, commandIds);

    await warmSyncRoute(stack);

    // Each pull in a new browser context (a new device: an empty replica); the median by time is the figure, as
    // Lighthouse's median of three is: single pulls moved 0.86–1.0 s on an idle machine. The last device goes on
    // to the empty pull and the replay.
    const pulls: TimedPull[] = [];
    for (let run = 0; run < PULLS; run++) {
      if (run > 0) await pulls[run - 1].context.close();
      pulls.push(await signInAndPull(browser, stack.baseUrl, email, REQUESTS, firstVisit));
    }
    const { pull, phases, timeline } = [...pulls].sort((a, b) => a.pull - b.pull)[Math.floor(PULLS / 2)];
    const { context, page } = pulls[PULLS - 1];
    const stored = await countRows(page, signUp.localId, 'requests');

    // An empty pull: the cursor the device holds, asked again.
    const token = await readIdToken(page);
    const cursor = await page.evaluate(
      (uid) =>
        new Promise<string>((resolve) => {
          const open = indexedDB.open(`portal-${uid}`);
          open.onsuccess = () => {
            const req = open.result.transaction('meta').objectStore('meta').get('syncCursor');
            req.onsuccess = () => resolve((req.result as { value: string }).value);
          };
        }),
      signUp.localId,
    );
    const empty = await fetch(`${stack.baseUrl}/api/sync?cursor=${cursor}`, { headers: { authorization: `Bearer ${token}` } });
    const emptyBody = await empty.text();
    const emptyHeaderBytes = [...empty.headers].reduce((sum, [k, v]) => sum + k.length + v.length + 4, 0) + 17;

    const figures: OfflineFigures = { requests: REQUESTS, stored, pullMs: pull, pullRuns: pulls.map((p) => p.pull), phases, timeline, emptyPullBodyBytes: Buffer.byteLength(emptyBody), emptyPullHeaderBytes: emptyHeaderBytes, emptyPullStatus: empty.status };
    if (!withReplay) return figures;

    // The replay against the direct send, in rounds of alternating order after a warm-up, so neither pays the
    // stack's first writes (its JIT, the database's caches) alone; the report takes the medians.
    await sendDirect(page, WARM_UP, token, 'warm-up');
    const rounds: ReplayRound[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const replayFirst = round % 2 === 0;
      const direct = replayFirst ? undefined : await timeDirect(page, COMMANDS, token, round);
      const replay = await timeReplay(context, page, signUp.localId, COMMANDS, round);
      rounds.push({ replayFirst, ...replay, ...(direct ?? (await timeDirect(page, COMMANDS, token, round))) });
    }
    const counts = await fetch(`${stack.baseUrl}/api/__test/counts?prefix=replay-`).then((r) => r.json() as Promise<{ data: { contact: { total: number; distinct: number } } }>);
    const replayMs = median(rounds.map((r) => r.replayMs));
    const directMs = median(rounds.map((r) => r.directMs));
    figures.replay = { commands: COMMANDS, rounds, replayMs, directMs, ratio: median(rounds.map((r) => r.replayMs / r.directMs)), serverRows: counts.data.contact.total, distinctRows: counts.data.contact.distinct };
    return figures;
  } finally {
    await browser.close();
    await stack.stop();
  }
}

interface TimedPull {
  context: BrowserContext;
  page: Page;
  pull: number;
  phases: OfflineFigures['phases'];
  timeline: OfflineFigures['timeline'];
}

/** Signs in on a new device (browser context) and times the pull that brings `requests` rows (the app's own measures). */
async function signInAndPull(browser: Browser, baseURL: string, email: string, requests: number, firstVisit: boolean): Promise<TimedPull> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto('/login');
  // A catch-up happens on a device the app is installed on. On the first visit the service worker fetches and
  // stores every file of the app (about 95) while the person types; signing in at machine speed instead put that
  // work on the pull's CPU (docs/decisions/017). BENCH_FIRST_VISIT=1 measures that case.
  if (!firstVisit) await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  const consoleLines: string[] = [];
  page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
  await page
    .waitForFunction(
      (n) => performance.getEntriesByName('portal:pull').some((e) => ((e as PerformanceMeasure).detail as { rows: number }).rows >= n),
      requests,
      { timeout: Number(process.env.BENCH_PULL_TIMEOUT ?? 300_000), polling: 100 },
    )
    .catch(async (err: unknown) => {
      const pulls = await page.evaluate(() => performance.getEntriesByName('portal:pull').map((e) => ({ at: e.startTime, ms: e.duration, rows: ((e as PerformanceMeasure).detail as { rows: number }).rows })));
      console.error('[bench] no single pull brought every request:', JSON.stringify(pulls), page.url(), consoleLines.slice(-20));
      throw err;
    });
  const { pull, phases, timeline } = await page.evaluate((n) => {
    const whole = performance.getEntriesByName('portal:pull').find((e) => ((e as PerformanceMeasure).detail as { rows: number }).rows >= n)!;
    // The pull's pages, phase by phase (src/lib/sync/pull.ts): the measures inside the whole pull's span.
    const within = (name: string) => performance.getEntriesByName(name).filter((e) => e.startTime >= whole.startTime && e.startTime + e.duration <= whole.startTime + whole.duration + 1);
    const sum = (name: string) => within(name).reduce((t, e) => t + e.duration, 0);
    return {
      pull: whole.duration,
      phases: { pages: within('portal:pull:apply').length, fetchMs: sum('portal:pull:fetch'), readMs: sum('portal:pull:read'), applyMs: sum('portal:pull:apply'), waitMs: sum('portal:pull:wait') },
      timeline: ['fetch', 'read', 'wait', 'apply']
        .flatMap((phase) => within(`portal:pull:${phase}`).map((e) => ({ name: phase, startMs: e.startTime - whole.startTime, durationMs: e.duration })))
        .sort((a, b) => a.startMs - b.startMs),
    };
  }, requests);
  return { context, page, pull, phases, timeline };
}

/**
 * Another user's catch-up of 1,000 requests, pulled from Node before the timed one: a server that has been running
 * has served sync pages before. On a stack just started, the first page of the timed pull paid the route's first run
 * (its JIT, the database's first plans): 140 ms for 1,000 rows against 16 ms for the same 1,000 rows at the end of
 * the pull (docs/decisions/017). The replay rounds have their warm-up for the same reason.
 */
async function warmSyncRoute(stack: Stack): Promise<void> {
  const { idToken } = await seededUser(stack, `warm-${Date.now()}@bench.example`, 1000, false);
  let cursor = '0';
  for (;;) {
    const res = await fetch(`${stack.baseUrl}/api/sync?cursor=${encodeURIComponent(cursor)}&limit=300`, { headers: { authorization: `Bearer ${idToken}` } });
    if (!res.ok) throw new Error(`the warm-up pull failed: ${res.status} ${await res.text()}`);
    const { data } = (await res.json()) as { data: { cursor: string; hasMore: boolean } };
    if (!data.hasMore) return;
    cursor = data.cursor;
  }
}

const PASSWORD = 'Bench#2026';
type Stack = Awaited<ReturnType<typeof startStackProcess>>;

/** A new account with its profile (GET /api/user creates it) and `count` requests seeded on the server. */
async function seededUser(stack: Stack, email: string, count: number, withCommandIds: boolean) {
  const signUp = await signUpWithEmulator(stack.authHost, email, PASSWORD);
  await fetch(`${stack.baseUrl}/api/user`, { headers: { authorization: `Bearer ${signUp.idToken}` } });
  const seeded = await fetch(`${stack.baseUrl}/api/__test/seed-requests`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, count, withCommandIds }) });
  if (!seeded.ok) throw new Error(`seeding ${email} failed: ${await seeded.text()}`);
  return signUp;
}

/** Direct writes sent before the first round, not timed. */
const WARM_UP = 50;

/** One round: the replay of COMMANDS queued commands and the direct send of as many, in the order `replayFirst` says. */
export interface ReplayRound {
  replayFirst: boolean;
  replayMs: number;
  directMs: number;
  phases: ReplayPhases;
  directPhases: DirectPhases;
}

/** Queues `n` contact messages while offline, then times from reconnect until the outbox is empty. */
async function timeReplay(context: BrowserContext, page: Page, uid: string, n: number, round: number): Promise<Pick<ReplayRound, 'replayMs' | 'phases'>> {
  await context.setOffline(true);
  await addContactCommands(page, uid, Array.from({ length: n }, (_, i) => `replay-${round}-${i}`));
  const since = await startWatchingLongTasks(page);
  // The end is watched from the page through one IndexedDB connection: a probe that opened one per look (and a
  // Playwright round trip each time) would cost the page work during the replay that the direct send does not pay.
  const emptied = page.evaluate(waitForEmptyOutbox, uid);
  const replayStart = Date.now();
  await context.setOffline(false);
  const replayMs = (await emptied) - replayStart;
  const phases = await page.evaluate((since): ReplayPhases => {
    const after = (name: string) => performance.getEntriesByName(name).filter((e) => e.startTime >= since);
    const sum = (name: string) => after(name).reduce((t, e) => t + e.duration, 0);
    const longTasks = (window as unknown as { benchLongTasks: number[] }).benchLongTasks;
    return {
      sends: after('portal:send:wire').length,
      queueMs: sum('portal:send:queue'),
      tokenMs: sum('portal:send:token'),
      wireMs: sum('portal:send:wire'),
      applyMs: sum('portal:send:apply'),
      pulls: after('portal:pull').length,
      pullMs: sum('portal:pull'),
      longTasks: longTasks.length,
      longTaskMs: longTasks.reduce((t, d) => t + d, 0),
    };
  }, since);
  return { replayMs, phases };
}

/** The same number of POSTs from the same page, one after the other, online; with what ran beside them. */
async function timeDirect(page: Page, n: number, token: string, round: number): Promise<Pick<ReplayRound, 'directMs' | 'directPhases'>> {
  const since = await startWatchingLongTasks(page);
  const directMs = await sendDirect(page, n, token, `direct-${round}`);
  const directPhases = await page.evaluate((since): DirectPhases => {
    const pulls = performance.getEntriesByName('portal:pull').filter((e) => e.startTime >= since);
    const longTasks = (window as unknown as { benchLongTasks: number[] }).benchLongTasks;
    return { pulls: pulls.length, pullMs: pulls.reduce((t, e) => t + e.duration, 0), longTasks: longTasks.length, longTaskMs: longTasks.reduce((t, d) => t + d, 0) };
  }, since);
  return { directMs, directPhases };
}

/** Sends `n` contact messages from the page, one after the other; resolves with the milliseconds they took. */
function sendDirect(page: Page, n: number, token: string, prefix: string): Promise<number> {
  return page.evaluate(
    async ([n, bearer, prefix]) => {
      const started = performance.now();
      for (let i = 0; i < n; i++) {
        const res = await fetch('/api/contact', {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
          body: JSON.stringify({ contactRequest: { subject: `${prefix}-${i}`, message: `Bench message ${prefix}-${i}` } }),
        });
        if (res.status !== 201) throw new Error(`direct send ${prefix}-${i}: ${res.status}`);
        // Read, as the app reads an answer: an unread body holds its connection until the page collects it, and
        // the direct send then slowed round after round (docs/decisions/019).
        await res.json();
      }
      return performance.now() - started;
    },
    [n, token, prefix] as const,
  );
}

/** Starts (or restarts) collecting the main thread's long tasks in the page; resolves with the page's clock. */
function startWatchingLongTasks(page: Page): Promise<number> {
  return page.evaluate(() => {
    const w = window as unknown as { benchLongTasks?: number[] };
    if (!w.benchLongTasks) {
      const tasks: number[] = [];
      w.benchLongTasks = tasks;
      new PerformanceObserver((list) => tasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
    }
    w.benchLongTasks.length = 0;
    return performance.now();
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** In the page: resolves with the time (Date.now) its look first finds the outbox empty; looks every 50 ms. */
function waitForEmptyOutbox(uid: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(`portal-${uid}`);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const look = () => {
        const count = db.transaction('outbox').objectStore('outbox').count();
        count.onerror = () => reject(count.error);
        count.onsuccess = () => {
          if (count.result > 0) return void setTimeout(look, 50);
          db.close();
          resolve(Date.now());
        };
      };
      look();
    };
  });
}

if (import.meta.main) {
  const f = await benchOffline();
  console.log(
    `pull_requests=${f.requests} stored=${f.stored} pull_ms=${f.pullMs.toFixed(0)} (median of ${f.pullRuns.map((ms) => ms.toFixed(0)).join(', ')})${OFFLINE_BENCH_DEFAULTS.commandIds ? ' (requests with command ids)' : ''}${OFFLINE_BENCH_DEFAULTS.firstVisit ? ' (first visit: the service worker still storing the app)' : ''}`,
  );
  const p = f.phases;
  console.log(
    `pull_pages=${p.pages} fetch_ms=${p.fetchMs.toFixed(0)} read_ms=${p.readMs.toFixed(0)} apply_ms=${p.applyMs.toFixed(0)} wait_ms=${p.waitMs.toFixed(0)} (fetch overlaps apply; wait: what the overlap did not hide)`,
  );
  console.log(`pull_timeline ${f.timeline.map((e) => `${e.name}@${e.startMs.toFixed(0)}+${e.durationMs.toFixed(0)}`).join(' ')}`);
  console.log(`empty_pull_body_bytes=${f.emptyPullBodyBytes} empty_pull_header_bytes≈${f.emptyPullHeaderBytes} status=${f.emptyPullStatus}`);
  if (f.replay) {
    const r = f.replay;
    const ms = (v: number) => v.toFixed(0);
    console.log(`replay_commands=${r.commands} replay_ms=${ms(r.replayMs)} direct_ms=${ms(r.directMs)} ratio=${r.ratio.toFixed(2)} (medians of ${r.rounds.length} rounds; replayed rows on server: ${r.serverRows}, distinct ${r.distinctRows})`);
    for (const [i, round] of r.rounds.entries()) {
      const ph = round.phases;
      const dp = round.directPhases;
      console.log(`round ${i + 1} (${round.replayFirst ? 'replay first' : 'direct first'}): replay_ms=${ms(round.replayMs)} direct_ms=${ms(round.directMs)} ratio=${(round.replayMs / round.directMs).toFixed(2)}`);
      console.log(
        `  replay_phases sends=${ph.sends} queue_ms=${ms(ph.queueMs)} token_ms=${ms(ph.tokenMs)} wire_ms=${ms(ph.wireMs)} apply_ms=${ms(ph.applyMs)} pulls=${ph.pulls} pull_ms=${ms(ph.pullMs)} long_tasks=${ph.longTasks} long_task_ms=${ms(ph.longTaskMs)}`,
      );
      console.log(`  direct_phases pulls=${dp.pulls} pull_ms=${ms(dp.pullMs)} long_tasks=${dp.longTasks} long_task_ms=${ms(dp.longTaskMs)}`);
    }
  }
}
