// End-to-end tests: real Chromium against the same stack `npm start` runs, on its own ports
// (API 8181, Auth emulator 9299) and a fresh data dir; see tests/e2e/global-setup.ts.
// Which Chromium (CHROMIUM_PATH, the system's, or the npm-shipped one; TEST_BINARIES): tests/support/chromium.ts.
import { defineConfig } from '@playwright/test';
import { resolveChromium } from './tests/support/chromium.ts';

// Overridable so several test runs can share one machine.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181);
export const E2E_AUTH_PORT = Number(process.env.E2E_AUTH_PORT ?? 9299);

// Evaluated by the runner and again by each worker; the bundled build is unpacked once and reused.
const browser = await resolveChromium();
if (!process.env.TEST_WORKER_INDEX) console.log(`[e2e] Chromium: ${browser.description}`);

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'tests/output/results',
  globalSetup: './tests/e2e/global-setup.ts',
  workers: 1,
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { outputFolder: 'tests/output/report', open: 'never' }]],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: browser.executablePath,
      args: browser.args,
      ...(browser.env ? { env: browser.env } : {}),
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium', viewport: { width: 1280, height: 800 } } }],
});
