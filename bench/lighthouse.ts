// `node bench/lighthouse.ts [path]`: a Lighthouse run (the lighthouse npm package with the e2e tests'
// Chromium: CHROMIUM_PATH, the system's or the npm-shipped one, see tests/support/chromium.ts) on the
// built app served by the `npm start` stack, printing the performance, accessibility
// and best-practices scores and the PWA-relevant results for /login (or the given path).
// Lighthouse 12+ dropped its PWA category, so the PWA lines come from the audits that remain
// (viewport, apple touch icon…) plus the manifest and service worker as the browser itself sees them.
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { ROOT } from '../scripts/emulator.ts';
import { startStackProcess } from '../scripts/stack-process.ts';
import { resolveChromium } from '../tests/support/chromium.ts';

const path = process.argv[2] ?? '/login';
const CHROMIUM = await resolveChromium();
const FLAGS = ['--headless=new', ...CHROMIUM.args];

const stack = await startStackProcess({ port: 8491, authPort: 9491, logPath: join(ROOT, 'tests', 'output', 'lighthouse-stack.log'), label: 'lighthouse' });
try {
  const url = `${stack.baseUrl}${path}`;
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM.executablePath, chromeFlags: FLAGS, envVars: CHROMIUM.env ?? process.env });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      formFactor: 'mobile',
      screenEmulation: { mobile: true, width: 375, height: 812, deviceScaleFactor: 2, disabled: false },
    });
    if (!result) throw new Error('Lighthouse returned no result');
    const { categories, audits } = result.lhr;
    console.log(`Lighthouse ${result.lhr.lighthouseVersion} on ${url} (mobile, simulated throttling)`);
    for (const [id, cat] of Object.entries(categories)) console.log(`  ${id}: ${Math.round((cat.score ?? 0) * 100)}`);
    for (const id of ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index']) {
      if (audits[id]) console.log(`  ${id}: ${audits[id].displayValue}`);
    }
    const failing = Object.values(categories)
      .flatMap((c) => c.auditRefs)
      .map((r) => audits[r.id])
      .filter((a) => a && a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual');
    if (failing.length) console.log(`  below 90: ${[...new Set(failing.map((a) => a.id))].join(', ')}`);
    console.log('PWA-relevant:');
    for (const id of ['viewport', 'apple-touch-icon', 'installable-manifest', 'service-worker', 'themed-omnibox', 'maskable-icon', 'splash-screen']) {
      const a = audits[id];
      console.log(`  ${id}: ${a ? (a.score === 1 ? 'pass' : `fail (${a.displayValue ?? a.title})`) : 'not audited by this Lighthouse version'}`);
    }
  } finally {
    chrome.kill();
  }
  await printBrowserPwaChecks(url);
} finally {
  await stack.stop();
}

/** What Chromium itself reports: the manifest it parsed and whether a service worker controls the page. */
async function printBrowserPwaChecks(url: string): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM.executablePath, args: CHROMIUM.args, env: CHROMIUM.env });
  try {
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
