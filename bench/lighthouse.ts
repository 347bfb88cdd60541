// `node bench/lighthouse.ts [path]`: a Lighthouse run (the lighthouse npm package with the e2e tests'
// Chromium: CHROMIUM_PATH, the system's or the npm-shipped one, see tests/support/chromium.ts) on the
// built app served by the `npm start` stack, printing the performance, accessibility
// and best-practices scores and the PWA-relevant results for /login (or the given path), then the same
// three scores for the signed-in screens (SIGNED_IN_PATHS), rendered as the demo client: Chromium runs with
// its own profile directory, Playwright signs in through the real login page over CDP, and Lighthouse then
// audits each path in that same profile with its storage kept (a signed-in user's IndexedDB and service worker).
// `node bench/lighthouse.ts /login` audits only the given path, signed out; BENCH_SIGNED_IN=0 skips the
// signed-in screens.
// Lighthouse 12+ dropped its PWA category, so the PWA lines come from the audits that remain
// (viewport, apple touch icon…) plus the manifest and service worker as the browser itself sees them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { ROOT } from '../scripts/emulator.ts';
import { startStackProcess } from '../scripts/stack-process.ts';
import { texts } from '../domain/texts.ts';
import { resolveChromium } from '../tests/support/chromium.ts';

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
  /** The performance score of every run, in run order; the figures above are the median run's. */
  runs: number[];
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
  signedInPaths: process.env.BENCH_SIGNED_IN === '0' ? [] : SIGNED_IN_PATHS,
  pwaChecks: true,
  port: Number(process.env.BENCH_PORT ?? 8491),
  authPort: Number(process.env.BENCH_AUTH_PORT ?? 9491),
  runs: Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3),
};

const CHROMIUM = await resolveChromium();
const FLAGS = ['--headless=new', ...CHROMIUM.args];

export async function benchLighthouse(opts: Partial<LighthouseBenchOptions> = {}): Promise<{ scores: LighthouseScores[]; skipped: { path: string; reason: string }[] }> {
  const o = { ...LIGHTHOUSE_BENCH_DEFAULTS, ...opts };
  const scores: LighthouseScores[] = [];
  const skipped: { path: string; reason: string }[] = [];
  const stack = await startStackProcess({ port: o.port, authPort: o.authPort, logPath: join(ROOT, 'tests', 'output', 'lighthouse-stack.log'), label: 'lighthouse' });
  try {
    for (const path of o.signedOutPaths) {
      const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM.executablePath, chromeFlags: FLAGS, envVars: CHROMIUM.env ?? process.env });
      try {
        scores.push(await auditMedian(o.runs, () => audit(chrome.port, `${stack.baseUrl}${path}`, path, false)));
      } finally {
        chrome.kill();
      }
      if (o.pwaChecks) await printBrowserPwaChecks(`${stack.baseUrl}${path}`);
    }
    if (o.signedInPaths.length) await auditSignedIn(stack.baseUrl, o.signedInPaths, o.runs, scores, skipped);
  } finally {
    await stack.stop();
  }
  return { scores, skipped };
}

/** One Chromium profile: sign in through the login page, then audit each path with the profile's storage kept. */
async function auditSignedIn(baseUrl: string, paths: string[], runs: number, scores: LighthouseScores[], skipped: { path: string; reason: string }[]) {
  const profile = mkdtempSync(join(tmpdir(), 'bench-lighthouse-profile-'));
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM.executablePath, chromeFlags: FLAGS, envVars: CHROMIUM.env ?? process.env, userDataDir: profile });
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
      scores.push(await auditMedian(runs, () => audit(chrome.port, `${baseUrl}${path}`, path, true)));
    }
  } finally {
    chrome.kill();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Runs an audit `runs` times and keeps the median run by performance score, with every run's score beside it. */
async function auditMedian(runs: number, run: () => Promise<LighthouseScores>): Promise<LighthouseScores> {
  const results: LighthouseScores[] = [];
  for (let i = 0; i < Math.max(1, runs); i++) results.push(await run());
  const median = [...results].sort((a, b) => a.performance - b.performance)[Math.floor((results.length - 1) / 2)];
  return { ...median, runs: results.map((r) => r.performance) };
}

async function audit(port: number, url: string, path: string, signedIn: boolean): Promise<LighthouseScores> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices'],
    formFactor: 'mobile',
    screenEmulation: { mobile: true, width: 375, height: 812, deviceScaleFactor: 2, disabled: false },
    // Signed in, the session lives in IndexedDB: Lighthouse's storage reset would sign the user out.
    disableStorageReset: signedIn,
  });
  if (!result) throw new Error('Lighthouse returned no result');
  // BENCH_LIGHTHOUSE_JSON=<dir> keeps each whole report (open it in the Lighthouse viewer) to see where the time goes.
  const keep = process.env.BENCH_LIGHTHOUSE_JSON;
  if (keep) writeFileSync(join(keep, `${path.replace(/\W+/g, '-') || 'root'}${signedIn ? '-signed-in' : ''}-${Date.now()}.json`), JSON.stringify(result.lhr));
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
  return { pwa, runs: [], path, signedIn, performance: score('performance'), accessibility: score('accessibility'), bestPractices: score('best-practices'), metrics, failing: [...new Set(failing)] };
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

export function printScores(s: LighthouseScores) {
  console.log(`Lighthouse on ${s.path}${s.signedIn ? ' (signed in as the demo client)' : ''} (mobile, simulated throttling)`);
  console.log(`  performance ${s.performance} / accessibility ${s.accessibility} / best-practices ${s.bestPractices} (median of ${s.runs.length} runs; performance ${s.runs.join(', ')})`);
  for (const [id, v] of Object.entries(s.metrics)) console.log(`  ${id}: ${v}`);
  if (s.failing.length) console.log(`  not passing: ${s.failing.join(', ')}`);
  if (!s.signedIn) {
    console.log('  PWA-relevant:');
    for (const [id, v] of Object.entries(s.pwa)) console.log(`    ${id}: ${v}`);
  }
}

if (import.meta.main) {
  const only = process.argv[2];
  const { scores, skipped } = await benchLighthouse(only ? { signedOutPaths: [only], signedInPaths: [] } : {});
  for (const s of scores) printScores(s);
  for (const s of skipped) console.log(`${s.path}: skipped (${s.reason})`);
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
