// Starts the whole stack once for all e2e tests by running scripts/start.ts itself (so the tests
// exercise what `npm start` does: build, emulator, seed, server), on test ports and a fresh data dir.
// TEST_FAULTS=1 adds the test-only fault-injection routes (server/plugins/faults.ts), idle until used.
import { join } from 'node:path';
import { ROOT } from '../../scripts/emulator.ts';
import { startStackProcess } from '../../scripts/stack-process.ts';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const stack = await startStackProcess({
    port: Number(process.env.E2E_PORT ?? 8181),
    authPort: Number(process.env.E2E_AUTH_PORT ?? 9299),
    logPath: join(ROOT, 'tests', 'output', `e2e-stack-${process.env.E2E_PORT ?? 8181}.log`),
    // Loopback is trusted as a proxy so a test can present a visitor's public address in X-Forwarded-For,
    // as the production proxy does (tracking links locate visitors from it).
    env: { TEST_FAULTS: '1', TRUST_PROXY: 'loopback' },
    label: 'e2e',
  });
  process.env.E2E_BASE_URL = stack.baseUrl;
  process.env.E2E_AUTH_HOST = stack.authHost;
  process.env.E2E_DATA_DIR = stack.dataDir;
  return () => stack.stop({ keepData: !!process.env.E2E_KEEP_DATA });
}
