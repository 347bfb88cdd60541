// `node bench/lighthouse.ts [path]`: a Lighthouse run (the lighthouse npm package with the e2e tests'
// Chromium: CHROMIUM_PATH, the system's or the npm-shipped one, see tests/support/chromium.ts) on the
// built app served by the `npm start` stack, printing the performance, accessibility
// and best-practices scores and the PWA-relevant results for /login (or the given path), then the same
// three scores for the signed-in screens (SIGNED_IN_PATHS), rendered as the demo client: Chromium runs with
// its own profile directory, Playwright signs in through the real login page over CDP, and Lighthouse then
// audits each path in that same profile with its storage kept (a signed-in user's IndexedDB and service worker).
// `node bench/lighthouse.ts /login` audits only the given path, signed out; BENCH_SIGNED_IN=0 skips the
// signed-in screens, BENCH_SIGNED_IN_PATHS=/,/case-file picks them.
// Lighthouse's CPU slowdown is relative to the host, so a fixed 4× gives a different figure on every machine (and
// on this shared one, at every load): the bench first measures the host's benchmarkIndex with Lighthouse's own
// benchmark and sets cpuSlowdownMultiplier from it as Lighthouse's throttling guide does (docs/throttling.md and
// the CPU throttling calculator it links to), so every host emulates the same mid-tier phone.
// BENCH_LIGHTHOUSE_CPU=<multiplier> overrides the calibration (4 compares with Lighthouse's default).
// Each path also gets one run with no throttling at all, whose main-thread time (long tasks summed, and where
// it goes) does not depend on any multiplier.
// Lighthouse 12+ dropped its PWA category, so the PWA lines come from the audits that remain
// (viewport, apple touch icon…) plus the manifest and service worker as the browser itself sees them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type RunnerResult } from 'lighthouse';
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';
import { MainThreadTasks, type TaskNode } from 'lighthouse/core/lib/tracehouse/main-thread-tasks.js';
import { TraceProcessor } from 'lighthouse/core/lib/tracehouse/trace-processor.js';
import * as constants from 'lighthouse/core/config/constants.js';
import { chromium } from 'playwright-core';
import { ROOT } from '../scripts/emulator.ts';
import { startStackProcess } from '../scripts/stack-process.ts';
import { texts } from '../domain/texts.ts';
import { resolveChromium } from '../tests/support/chromium.ts';
import { machineLine } from './push.ts';

/** The signed-in screens audited after /login; a path the app answers with its not-found page is skipped with a note. */
export const SIGNED_IN_PATHS = ['/', '/case-file', '/tool/track-master', '/stay-safe'];
const DEMO_CLIENT = { email: 'client@demo.test', password: 'Client#2026' };

export interface LighthouseScores {
  path: string;
  signedIn: boolean;
  performance: number;
  accessibility: number;
  bestPractices: number;
  /** FCP, LCP, TBT, CLS, speed index as Lighthouse displays them. */
  metrics: Record<string, string>;
  /** Accessibility and best-practices audits that did not pass, and performance audits below 90. */
  failing: string[];
  /** The PWA-relevant audits Lighthouse still runs (it dropped its PWA category in 12): pass or why not. */
  pwa: Record<string, string>;
  /** Every throttled run, in run order; the figures above are the median run's (by performance score). */
  runs: RunFigures[];
  /** The run with no throttling at all: the main thread's own time, whatever the multiplier. */
  unthrottled?: MainThreadFigures;
  /** The host measured just before this path's runs, and the multiplier they used. */
  host: LighthouseHost;
}

export interface RunFigures {
  performance: number;
  tbtMs: number;
  /** What Lighthouse measured at the start of this run: it drifts with the machine's load. */
  benchmarkIndex: number;
  /** The 1-minute load average when the run ended. */
  load: number;
}

export interface MainThreadFigures {
  /** Top-level main-thread tasks of 50 ms or more, from the trace: their count, summed time and the part beyond 50 ms each. */
  longTasks: number;
  longTaskMs: number;
  blockingMs: number;
  /**
   * The same long tasks' CPU time (the trace's thread time): on a loaded machine the main thread waits for a core
   * inside its tasks, which stretches their wall time but not this.
   */
  longTaskCpuMs: number;
  /** The CPU time of every top-level main-thread task of the load. */
  cpuMs: number;
  /** All main-thread work, by Lighthouse's categories (script evaluation, style & layout…), longest first. */
  breakdown: { label: string; ms: number }[];
  /** The scripts that cost the main thread most (bootup-time): evaluation and parse/compile. */
  scripts: { url: string; totalMs: number; scriptingMs: number; parseMs: number }[];
  benchmarkIndex: number;
}

/** The host as Lighthouse sees it, and the CPU slowdown calibrated from it. */
export interface LighthouseHost {
  chromium: string;
  benchmarkIndex: number;
  /** Every measurement, the median of which is benchmarkIndex. */
  benchmarkIndexes: number[];
  cpuSlowdownMultiplier: number;
  /** How the multiplier was chosen: calibrated, or BENCH_LIGHTHOUSE_CPU. */
  multiplierSource: string;
}

export interface LighthouseBenchOptions {
  /** Audited signed out (storage reset before the run, as a first visit). */
  signedOutPaths: string[];
  signedInPaths: string[];
  pwaChecks: boolean;
  port: number;
  authPort: number;
  /** Audits of each path; the median run by performance score is kept (Lighthouse's advice: one run varies a lot). */
  runs: number;
}

export const LIGHTHOUSE_BENCH_DEFAULTS: LighthouseBenchOptions = {
  signedOutPaths: ['/login'],
  signedInPaths: process.env.BENCH_SIGNED_IN === '0' ? [] : (process.env.BENCH_SIGNED_IN_PATHS?.split(',').filter(Boolean) ?? SIGNED_IN_PATHS),
  pwaChecks: true,
  port: Number(process.env.BENCH_PORT ?? 8491),
  authPort: Number(process.env.BENCH_AUTH_PORT ?? 9491),
  runs: Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3),
};

const CHROMIUM = await resolveChromium();
const FLAGS = ['--headless=new', ...CHROMIUM.args];
const launch = (userDataDir?: string) => chromeLauncher.launch({ chromePath: CHROMIUM.executablePath, chromeFlags: FLAGS, envVars: CHROMIUM.env ?? process.env, userDataDir });

/**
 * The CPU slowdown that makes this host as fast as the phone Lighthouse's default 4× aims at, by the table of
 * the CPU throttling calculator Lighthouse's throttling guide links to: benchmarkIndex 150 → 1×, 800 → 2×,
 * 1,300 → 3×, 1,533 → 4× (the host the default assumes), 2,000 → 6×, linear in between; a host below 150 is
 * already that slow.
 */
export function calibratedMultiplier(benchmarkIndex: number): number {
  const m = benchmarkIndex >= 1300 ? 3 + (benchmarkIndex - 1300) / 233 : benchmarkIndex >= 800 ? 2 + (benchmarkIndex - 800) / 500 : benchmarkIndex >= 150 ? 1 + (benchmarkIndex - 150) / 650 : 1;
  return Math.round(m * 100) / 100;
}

/** Lighthouse's own benchmark in the Chromium the audits use: one run warms V8 up (as DevTools' calibration does), then the median of three. */
export async function measureHost(): Promise<LighthouseHost> {
  const chrome = await launch();
  try {
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    try {
      const page = await browser.contexts()[0].newPage();
      await page.evaluate(pageFunctions.computeBenchmarkIndex);
      const benchmarkIndexes: number[] = [];
      for (let i = 0; i < 3; i++) benchmarkIndexes.push(Math.round(await page.evaluate(pageFunctions.computeBenchmarkIndex)));
      const benchmarkIndex = median(benchmarkIndexes);
      const fixed = Number(process.env.BENCH_LIGHTHOUSE_CPU);
      return {
        chromium: `${CHROMIUM.description}, ${browser.version()}`,
        benchmarkIndex,
        benchmarkIndexes,
        cpuSlowdownMultiplier: fixed > 0 ? fixed : calibratedMultiplier(benchmarkIndex),
        multiplierSource: fixed > 0 ? 'BENCH_LIGHTHOUSE_CPU' : 'calibrated from the benchmarkIndex',
      };
    } finally {
      await browser.close();
    }
  } finally {
    chrome.kill();
  }
}

export function hostLine(h: LighthouseHost): string {
  return `Chromium: ${h.chromium}; benchmarkIndex ${h.benchmarkIndex} (median of ${h.benchmarkIndexes.join(', ')}); cpuSlowdownMultiplier ${h.cpuSlowdownMultiplier} (${h.multiplierSource})`;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

export async function benchLighthouse(opts: Partial<LighthouseBenchOptions> = {}): Promise<{ scores: LighthouseScores[]; skipped: { path: string; reason: string }[] }> {
  const o = { ...LIGHTHOUSE_BENCH_DEFAULTS, ...opts };
  const scores: LighthouseScores[] = [];
  const skipped: { path: string; reason: string }[] = [];
  const stack = await startStackProcess({ port: o.port, authPort: o.authPort, logPath: join(ROOT, 'tests', 'output', 'lighthouse-stack.log'), label: 'lighthouse' });
  try {
    for (const path of o.signedOutPaths) {
      const chrome = await launch();
      try {
        scores.push(await auditPath(path, o.runs, (throttle) => audit(chrome.port, `${stack.baseUrl}${path}`, path, false, throttle)));
      } finally {
        chrome.kill();
      }
      if (o.pwaChecks) await printBrowserPwaChecks(`${stack.baseUrl}${path}`);
    }
    if (o.signedInPaths.length) await auditSignedIn(stack.baseUrl, o.signedInPaths, o.runs, scores, skipped);
    return { scores, skipped };
  } finally {
    await stack.stop();
  }
}

/** One Chromium profile: sign in through the login page, then audit each path with the profile's storage kept. */
async function auditSignedIn(baseUrl: string, paths: string[], runs: number, scores: LighthouseScores[], skipped: { path: string; reason: string }[]) {
  const profile = mkdtempSync(join(tmpdir(), 'bench-lighthouse-profile-'));
  const chrome = await launch(profile);
  try {
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    try {
      const page = await browser.contexts()[0].newPage();
      await page.goto(`${baseUrl}/login`);
      await page.getByLabel('Email', { exact: true }).fill(DEMO_CLIENT.email);
      await page.getByLabel('Password', { exact: true }).fill(DEMO_CLIENT.password);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/', { timeout: 60_000 });
      // The first pull fills the replica, as on a device that has been used before.
      await page.waitForFunction(() => performance.getEntriesByName('portal:pull').length > 0, null, { timeout: 60_000 });
      // And its service worker installed (the precache fetched), as on a device used before: not an audit's work.
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      for (const path of paths) {
        await page.goto(`${baseUrl}${path}`);
        // Not 'networkidle': the event stream (/api/events) keeps a request open for as long as the page is.
        await page.waitForLoadState('load');
        await page.locator('main, [role="main"], h1, h2').first().waitFor({ timeout: 30_000 });
        if (await page.getByRole('heading', { name: texts.pageNotFound }).isVisible()) skipped.push({ path, reason: 'the app answers its not-found page' });
      }
      await page.close();
    } finally {
      // Connected over CDP: this disconnects and leaves Chromium (and the signed-in profile) to Lighthouse.
      await browser.close();
    }
    for (const path of paths) {
      if (skipped.some((s) => s.path === path)) continue;
      scores.push(await auditPath(path, runs, (throttle) => audit(chrome.port, `${baseUrl}${path}`, path, true, throttle)));
    }
  } finally {
    chrome.kill();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** A CPU slowdown for Lighthouse's simulated throttling, or no throttling at all (network and CPU as they are). */
type Throttle = number | 'none';
interface Audited {
  /** This run's scores; auditPath adds every run's figures and the host. */
  scores: Omit<LighthouseScores, 'runs' | 'unthrottled' | 'host'>;
  run: RunFigures;
  result: RunnerResult;
}

/**
 * The host's benchmarkIndex and the multiplier from it, measured again for each path since the load here changes
 * within minutes; one unthrottled run for the main thread's own time; then `runs` throttled ones of which the
 * median by performance score is kept (Lighthouse's advice: one run varies a lot), every run's figures beside it.
 */
async function auditPath(path: string, runs: number, run: (throttle: Throttle) => Promise<Audited>): Promise<LighthouseScores> {
  const host = await measureHost();
  console.log(`${path}: ${hostLine(host)}`);
  const unthrottled = mainThreadOf((await run('none')).result);
  const results: Audited[] = [];
  for (let i = 0; i < Math.max(1, runs); i++) results.push(await run(host.cpuSlowdownMultiplier));
  const mid = [...results].sort((a, b) => a.scores.performance - b.scores.performance)[Math.floor((results.length - 1) / 2)];
  return { ...mid.scores, runs: results.map((r) => r.run), unthrottled, host };
}

async function audit(port: number, url: string, path: string, signedIn: boolean, throttle: Throttle): Promise<Audited> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices'],
    formFactor: 'mobile',
    screenEmulation: { mobile: true, width: 375, height: 812, deviceScaleFactor: 2, disabled: false },
    // 'provided': Lighthouse throttles neither the network nor the CPU, and reports what it observed.
    ...(throttle === 'none' ? { throttlingMethod: 'provided' } : { throttlingMethod: 'simulate', throttling: { ...constants.throttling.mobileSlow4G, cpuSlowdownMultiplier: throttle } }),
    // Signed in, the session lives in IndexedDB: Lighthouse's storage reset would sign the user out.
    disableStorageReset: signedIn,
  });
  if (!result) throw new Error('Lighthouse returned no result');
  const applied = result.lhr.configSettings.throttlingMethod === 'provided' ? 'none' : result.lhr.configSettings.throttling.cpuSlowdownMultiplier;
  if (applied !== throttle) throw new Error(`Lighthouse ran with CPU throttling ${applied}, not ${throttle}`);
  // BENCH_LIGHTHOUSE_JSON=<dir> keeps each whole report (open it in the Lighthouse viewer), and the unthrottled run's trace, to see where the time goes.
  const keep = process.env.BENCH_LIGHTHOUSE_JSON;
  if (keep) {
    const name = `${path.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'root'}${signedIn ? '-signed-in' : ''}${throttle === 'none' ? '-unthrottled' : ''}-${Date.now()}`;
    writeFileSync(join(keep, `${name}.json`), JSON.stringify(result.lhr));
    if (throttle === 'none') writeFileSync(join(keep, `${name}.trace.json`), JSON.stringify(result.artifacts.Trace));
  }
  const { categories, audits, finalDisplayedUrl } = result.lhr;
  if (signedIn && new URL(finalDisplayedUrl).pathname === '/login') throw new Error(`${path}: Lighthouse was sent to /login, the session did not hold`);
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  const metrics: Record<string, string> = {};
  for (const id of ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index']) {
    if (audits[id]?.displayValue) metrics[id] = audits[id].displayValue;
  }
  const failing = Object.entries(categories).flatMap(([id, c]) =>
    c.auditRefs
      .map((r) => audits[r.id])
      .filter((a) => a && a.score !== null && a.score < (id === 'performance' ? 0.9 : 1) && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual' && a.scoreDisplayMode !== 'notApplicable')
      .map((a) => `${id}:${a.id}${id === 'performance' ? '' : itemsOf(a.details)}`),
  );
  const pwa: Record<string, string> = {};
  for (const id of ['viewport', 'apple-touch-icon', 'installable-manifest', 'service-worker', 'themed-omnibox', 'maskable-icon', 'splash-screen']) {
    const a = audits[id];
    pwa[id] = a ? (a.score === 1 ? 'pass' : `fail (${a.displayValue ?? a.title})`) : 'not audited by this Lighthouse version';
  }
  const scores = { pwa, path, signedIn, performance: score('performance'), accessibility: score('accessibility'), bestPractices: score('best-practices'), metrics, failing: [...new Set(failing)] };
  const run = { performance: scores.performance, tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? NaN), benchmarkIndex: Math.round(result.lhr.environment.benchmarkIndex), load: loadavg()[0] };
  return { scores, run, result };
}

// Chromium's complete events carry their thread time (tdur), which Lighthouse's TraceEvent type leaves out.
const cpuMsOf = (t: TaskNode) => ((t.event as { tdur?: number }).tdur ?? 0) / 1000;

/** The main thread of an unthrottled run: its long tasks from the trace, and Lighthouse's breakdowns of all its work. */
function mainThreadOf(result: RunnerResult): MainThreadFigures {
  const trace = TraceProcessor.processTrace(result.artifacts.Trace);
  const tasks = MainThreadTasks.getMainThreadTasks(trace.mainThreadEvents, trace.frames, trace.timestamps.traceEnd);
  const long = tasks.filter((t) => !t.parent && !t.unbounded && t.duration >= 50);
  const { audits } = result.lhr;
  const items = (id: string) => ((audits[id]?.details as { items?: Record<string, unknown>[] } | undefined)?.items ?? []);
  return {
    longTasks: long.length,
    longTaskMs: Math.round(long.reduce((sum, t) => sum + t.duration, 0)),
    blockingMs: Math.round(long.reduce((sum, t) => sum + t.duration - 50, 0)),
    longTaskCpuMs: Math.round(long.reduce((sum, t) => sum + cpuMsOf(t), 0)),
    cpuMs: Math.round(tasks.filter((t) => !t.parent).reduce((sum, t) => sum + cpuMsOf(t), 0)),
    breakdown: items('mainthread-work-breakdown')
      .map((i) => ({ label: String(i.groupLabel ?? i.group), ms: Math.round(Number(i.duration)) }))
      .sort((a, b) => b.ms - a.ms),
    scripts: items('bootup-time')
      .map((i) => ({ url: String(i.url), totalMs: Math.round(Number(i.total)), scriptingMs: Math.round(Number(i.scripting)), parseMs: Math.round(Number(i.scriptParseCompile)) }))
      .sort((a, b) => b.totalMs - a.totalMs),
    benchmarkIndex: Math.round(result.lhr.environment.benchmarkIndex),
  };
}

/** What an accessibility or best-practices audit found, briefly: the elements, sources or issue types (at most three). */
function itemsOf(details: unknown): string {
  const items = (details as { items?: Record<string, unknown>[] } | undefined)?.items ?? [];
  const name = (item: Record<string, unknown>) => {
    const node = item.node as { selector?: string; snippet?: string } | undefined;
    const source = item.source as { url?: string } | string | undefined;
    return node?.selector ?? node?.snippet ?? (typeof source === 'string' ? source : source?.url) ?? (item.issueType as string | undefined) ?? (item.scriptUrl as string | undefined) ?? '?';
  };
  return items.length ? ` [${items.slice(0, 3).map(name).join('; ')}${items.length > 3 ? `; +${items.length - 3}` : ''}]` : '';
}

const ms = (v: number) => `${v.toLocaleString('en')} ms`;

export function printScores(s: LighthouseScores) {
  console.log(`Lighthouse on ${s.path}${s.signedIn ? ' (signed in as the demo client)' : ''} (mobile, simulated throttling, CPU slowdown ${s.host.cpuSlowdownMultiplier}×)`);
  console.log(`  ${hostLine(s.host)}`);
  console.log(`  performance ${s.performance} / accessibility ${s.accessibility} / best-practices ${s.bestPractices} (the median of ${s.runs.length} runs by performance)`);
  console.log(`  runs: ${s.runs.map((r) => `${r.performance} (TBT ${ms(r.tbtMs)}, benchmarkIndex ${r.benchmarkIndex}, load ${r.load.toFixed(2)})`).join('; ')}`);
  console.log(`  median TBT ${ms(median(s.runs.map((r) => r.tbtMs)))}`);
  for (const [id, v] of Object.entries(s.metrics)) console.log(`  ${id}: ${v}`);
  if (s.failing.length) console.log(`  not passing: ${s.failing.join(', ')}`);
  const u = s.unthrottled;
  if (u) {
    console.log(`  unthrottled load (benchmarkIndex ${u.benchmarkIndex}): ${u.longTasks} long tasks on the main thread, ${ms(u.longTaskMs)} (${ms(u.blockingMs)} beyond 50 ms each), of which CPU ${ms(u.longTaskCpuMs)}; main-thread CPU in all ${ms(u.cpuMs)}`);
    console.log(`    main-thread work: ${u.breakdown.map((b) => `${b.label} ${ms(b.ms)}`).join(', ')}`);
    console.log(`    scripts: ${u.scripts.slice(0, 5).map((x) => `${x.url.replace(/^https?:\/\/[^/]+/, '')} ${ms(x.totalMs)} (evaluation ${x.scriptingMs}, parse/compile ${x.parseMs})`).join(', ')}`);
  }
  if (!s.signedIn) {
    console.log('  PWA-relevant:');
    for (const [id, v] of Object.entries(s.pwa)) console.log(`    ${id}: ${v}`);
  }
}

if (import.meta.main) {
  const only = process.argv[2];
  console.log(`lighthouse bench: ${machineLine()} at start`);
  const { scores, skipped } = await benchLighthouse(only ? { signedOutPaths: [only], signedInPaths: [] } : {});
  for (const s of scores) printScores(s);
  for (const s of skipped) console.log(`${s.path}: skipped (${s.reason})`);
  console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the end`);
}

/** What Chromium itself reports: the manifest it parsed and whether a service worker controls the page. */
async function printBrowserPwaChecks(url: string): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM.executablePath, args: CHROMIUM.args, env: CHROMIUM.env });
  try {
    console.log(`PWA checks on ${url}:`);
    const page = await browser.newPage();
    await page.goto(url);
    const controlled = await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      return true;
    });
    const cdp = await page.context().newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[]; data?: string };
    const data = manifest.data ? (JSON.parse(manifest.data) as { name?: string; display?: string; theme_color?: string; icons?: { sizes: string; purpose?: string }[] }) : {};
    const sizes = (data.icons ?? []).map((i) => `${i.sizes}${i.purpose ? `(${i.purpose})` : ''}`).join(' ');
    console.log(`  manifest: ${manifest.url ? 'found' : 'missing'}, errors ${manifest.errors.length}, name "${data.name}", display ${data.display}, theme ${data.theme_color}`);
    console.log(`  icons: ${sizes}`);
    console.log(`  service worker ready: ${controlled}`);
    await page.context().setOffline(true);
    await page.reload();
    console.log(`  offline reload renders: ${(await page.locator('#root *').count()) > 0}`);
  } finally {
    await browser.close();
  }
}
