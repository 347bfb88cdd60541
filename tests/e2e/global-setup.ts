// Starts the whole stack once per Playwright worker by running scripts/start.ts itself (so the tests
// exercise what `npm start` does: build, emulator, mail inbox, seed, server), on test ports and a fresh data dir each.
// A worker's tests only ever see their own stack (tests/e2e/support/stack.ts), so the fault switches, the
// demo accounts and the general notifications of one spec never reach a spec running beside it.
// TEST_FAULTS=1 adds the test-only fault-injection routes (server/plugins/faults.ts), idle until used.
import { join } from 'node:path';
import { ROOT } from '../../scripts/emulator.ts';
import { startStackProcess, type StackProcess } from '../../scripts/stack-process.ts';
import { distStaleReason } from '../../scripts/start.ts';
import { E2E_AUTH_PORT, E2E_EMAIL_DELAY_SECONDS, E2E_INBOX_PORT, E2E_PORT, E2E_SMTP_PORT, E2E_WORKERS } from './support/stack.ts';

function start(index: number): Promise<StackProcess> {
  const port = E2E_PORT + index;
  return startStackProcess({
    port,
    authPort: E2E_AUTH_PORT + index,
    smtpPort: E2E_SMTP_PORT + index,
    inboxPort: E2E_INBOX_PORT + index,
    logPath: join(ROOT, 'tests', 'output', `e2e-stack-${port}.log`),
    // Loopback is trusted as a proxy so a test can present a visitor's public address in X-Forwarded-For,
    // as the production proxy does (tracking links locate visitors from it). Email waits a few seconds, not ten
    // minutes, for the client to see the event in the app.
    env: { TEST_FAULTS: '1', TRUST_PROXY: 'loopback', EMAIL_DELAY_SECONDS: String(E2E_EMAIL_DELAY_SECONDS) },
    label: `e2e ${index}`,
  });
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  // A stale build is made by the first stack alone; the others start on it rather than building side by side.
  const indexes = Array.from({ length: E2E_WORKERS }, (_, i) => i);
  const first = distStaleReason() ? [await start(0)] : [];
  const started = await Promise.allSettled(indexes.slice(first.length).map(start));
  const stacks = [...first, ...started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))];
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.allSettled(stacks.map((s) => s.stop()));
    throw failed.reason;
  }
  return async () => {
    await Promise.allSettled(stacks.map((s) => s.stop({ keepData: !!process.env.E2E_KEEP_DATA })));
  };
}
