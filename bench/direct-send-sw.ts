// `node bench/direct-send-sw.ts`: the direct send (POST /api/contact one after the other from the page, as
// bench/offline.ts does) in two browser contexts, one with service workers blocked and one with the app's, signed
// out and then signed in (the sync engine, its event stream and the pulls the pokes cause); PROBE_WRITES per round
// (200), PROBE_ROUNDS more rounds signed in (3), PROBE_ORDER (block,allow: the first context pays the stack's
// warm-up). Ports 8404/9404. Prints milliseconds per write and the load; asserts nothing.
// docs/decisions/018-light-sync-and-writes.md.
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { chromium, type Page } from 'playwright-core';
import { ROOT } from '../scripts/emulator.ts';
import { startStackProcess } from '../scripts/stack-process.ts';
import { signUp as signUpWithEmulator } from '../server/test-helper.ts';
import { resolveChromium } from '../tests/support/chromium.ts';

const N = Number(process.env.PROBE_WRITES ?? 200);
const CHROMIUM = await resolveChromium();
const stack = await startStackProcess({ port: 8404, authPort: 9404, logPath: join(ROOT, 'tests', 'output', 'probe-stack.log'), env: { TEST_FAULTS: '1', LOG_REQUESTS: 'errors' }, label: 'probe' });
const browser = await chromium.launch({ executablePath: CHROMIUM.executablePath, args: CHROMIUM.args, env: CHROMIUM.env });
try {
  const email = `probe-${Date.now()}@x.example`;
  const password = 'Bench#2026';
  const signUp = await signUpWithEmulator(stack.authHost, email, password);
  await fetch(`${stack.baseUrl}/api/user`, { headers: { authorization: `Bearer ${signUp.idToken}` } });
  const send = async (page: Page, label: string) => {
    const ms = await page.evaluate(async ([n, bearer]) => {
      const t = performance.now();
      for (let i = 0; i < n; i++) {
        const res = await fetch('/api/contact', { method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() }, body: JSON.stringify({ contactRequest: { subject: `d-${i}`, message: `m ${i}` } }) });
        if (res.status !== 201) throw new Error(String(res.status));
      }
      return (performance.now() - t) / n;
    }, [N, signUp.idToken] as const);
    const sw = await page.evaluate(() => !!navigator.serviceWorker?.controller);
    const syncs = await page.evaluate(() => performance.getEntriesByName('portal:pull').length);
    console.log(`${label.padEnd(36)} ${ms.toFixed(2)} ms/write  sw-controlled=${sw} pulls-so-far=${syncs} (load ${loadavg()[0].toFixed(2)})`);
  };
  for (const serviceWorkers of (process.env.PROBE_ORDER ?? 'block,allow').split(',') as Array<'allow' | 'block'>) {
    const context = await browser.newContext({ baseURL: stack.baseUrl, serviceWorkers });
    const page = await context.newPage();
    await page.goto('/login');
    await page.waitForTimeout(1500);
    await send(page, `signed out, sw ${serviceWorkers}`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForFunction(() => performance.getEntriesByName('portal:pull').length > 0, null, { timeout: 60_000 });
    await page.waitForTimeout(1000);
    await send(page, `signed in, sw ${serviceWorkers}`);
    for (let k = 0; k < Number(process.env.PROBE_ROUNDS ?? 3); k++) await send(page, `signed in, sw ${serviceWorkers}, again`);
    await context.close();
  }
} finally {
  await browser.close();
  await stack.stop();
}
