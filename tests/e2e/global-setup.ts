// Starts the whole stack once for all e2e tests by running scripts/start.ts itself (so the tests
// exercise what `npm start` does: build, emulator, seed, server), on test ports and a fresh data dir.
// Its output goes to tests/output/e2e-stack.log; the tail is printed when startup fails.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, childEnv, ROOT, waitForHttp } from '../../scripts/emulator.ts';

const PORT = Number(process.env.E2E_PORT ?? 8181);
const AUTH_PORT = Number(process.env.E2E_AUTH_PORT ?? 9299);

export default async function globalSetup(): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-'));
  const baseUrl = `http://localhost:${PORT}`;
  const logPath = join(ROOT, 'tests', 'output', 'e2e-stack.log');
  mkdirSync(join(ROOT, 'tests', 'output'), { recursive: true });
  const logFd = openSync(logPath, 'w');

  // Its own process group: Ctrl-C on the test runner reaches start.ts only through our teardown,
  // so it always gets to stop the server and the emulator in order.
  const stack = spawn(bin('node'), [join(ROOT, 'scripts', 'start.ts')], {
    cwd: ROOT,
    env: childEnv({ PORT: String(PORT), AUTH_EMULATOR_PORT: String(AUTH_PORT), DATA_DIR: dataDir, TEST_FAULTS: '1' }),
    stdio: ['ignore', logFd, logFd],
    detached: true,
  });
  closeSync(logFd);
  let exitCode: number | null = null;
  const exited = new Promise<void>((res) =>
    stack.once('exit', (code, signal) => {
      exitCode = code ?? (signal ? 128 : 1);
      res();
    }),
  );
  // If the runner dies without running the teardown, still stop the stack (start.ts shuts down cleanly on SIGTERM).
  const onExit = () => {
    if (exitCode === null && stack.pid) {
      try {
        process.kill(stack.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
    }
  };
  process.on('exit', onExit);

  const logTail = () => {
    try {
      return readFileSync(logPath, 'utf8').split('\n').slice(-40).join('\n');
    } catch {
      return '(no log)';
    }
  };

  const teardown = async () => {
    process.removeListener('exit', onExit);
    if (exitCode === null && stack.pid) {
      process.kill(stack.pid, 'SIGINT');
      const timer = setTimeout(() => {
        console.error('[e2e] the stack did not stop within 60 s; killing it');
        stack.kill('SIGKILL');
      }, 60_000);
      await exited;
      clearTimeout(timer);
    }
    if (process.env.E2E_KEEP_DATA) console.log(`[e2e] data kept in ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  };

  console.log(`[e2e] starting the stack on ${baseUrl} (log: ${logPath}); a build can take a few minutes…`);
  const started = Date.now();
  try {
    await waitForHttp(`${baseUrl}/api/health`, 5 * 60_000, {
      abortIf: () => (exitCode !== null ? `scripts/start.ts exited with code ${exitCode}` : undefined),
    });
  } catch (err) {
    console.error(`[e2e] the stack did not come up: ${(err as Error).message}\n--- ${logPath} (tail) ---\n${logTail()}`);
    await teardown();
    throw err;
  }
  console.log(`[e2e] stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_AUTH_HOST = `127.0.0.1:${AUTH_PORT}`;
  process.env.E2E_DATA_DIR = dataDir;
  return teardown;
}
