// End-to-end tests: real Chromium (Debian's) against the same stack `npm start` runs,
// on its own ports (API 8181, Auth emulator 9299) and a fresh data dir; see tests/e2e/global-setup.ts.
import { defineConfig } from '@playwright/test';

// Overridable so several test runs can share one machine.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181);
export const E2E_AUTH_PORT = Number(process.env.E2E_AUTH_PORT ?? 9299);

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'tests/output/results-8203',
  globalSetup: './gs-mine.tmp.ts',
  workers: 1,
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      // Without these Debian's Chromium reaches for Google services, which the closed network refuses.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium', viewport: { width: 1280, height: 800 } } }],
});
