// End-to-end tests: real Chromium against the same stack `npm start` runs, one stack per worker on its own
// ports (API 8181 + n, Auth emulator 9299 + n) and a fresh data dir; see tests/e2e/global-setup.ts.
// Which Chromium (CHROMIUM_PATH, the system's, or the npm-shipped one; TEST_BINARIES): tests/support/chromium.ts.
import { defineConfig } from '@playwright/test';
import { E2E_PORT, E2E_WORKERS, stackIndex } from './tests/e2e/support/stack.ts';
import { resolveChromium } from './tests/support/chromium.ts';

// Evaluated by the runner and again by each worker; the bundled build is unpacked once and reused.
const browser = await resolveChromium();
if (!process.env.TEST_WORKER_INDEX) console.log(`[e2e] Chromium: ${browser.description}`);

const desktop = { browserName: 'chromium', viewport: { width: 1280, height: 800 } } as const;

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'tests/output/results',
  globalSetup: './tests/e2e/global-setup.ts',
  workers: E2E_WORKERS,
  // A spec's tests run in order in one worker (several build on the one before); specs run side by side.
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { outputFolder: 'tests/output/report', open: 'never' }]],
  use: {
    // Read again in each worker: its own stack.
    baseURL: `http://localhost:${E2E_PORT + stackIndex()}`,
    screenshot: 'only-on-failure',
    // Recording a trace costs about a fifth of a test's time. CI retries a failed test once and records that
    // retry; a local run (no retries) keeps the trace of a test that failed.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    launchOptions: {
      executablePath: browser.executablePath,
      args: browser.args,
      ...(browser.env ? { env: browser.env } : {}),
    },
  },
  projects: [
    { name: 'chromium', testIgnore: /update\.spec\.ts$/, use: desktop },
    // A new deployment rebuilds dist/, which every stack serves: it runs alone, after everything else.
    { name: 'deployment', testMatch: /update\.spec\.ts$/, dependencies: ['chromium'], use: desktop },
  ],
});
