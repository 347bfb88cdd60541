// Runs scripts/start.ts (the `npm start` stack: build when stale, Auth emulator, seed, API server) as a
// child process on given ports and a fresh data dir. Used by the e2e global setup and the benchmarks.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bin, childEnv, freePort, ROOT, waitForHttp } from './emulator.ts';

export interface StackProcess {
  baseUrl: string;
  authHost: string;
  /** The stack's mail inbox (scripts/mail-inbox.ts): its page, and GET /api/messages for what arrived. */
  inboxUrl: string;
  dataDir: string;
  stop(opts?: { keepData?: boolean }): Promise<void>;
}

/**
 * The e2e tests and benches drive one account far past what a person does (the chaos test sends 200
 * contact messages, with retries, from an account awaiting approval): the per-user write limits
 * (docs/decisions/012-write-limits.md) are raised for these stacks; a caller's `env` still wins. The
 * limits themselves are tested by server/plugins/write-limits.test.ts.
 */
const HARNESS_WRITE_LIMITS = {
  WRITE_LIMIT_PER_MINUTE: '1000000',
  LEAD_WRITE_LIMIT_PER_MINUTE: '1000000',
  LEAD_WRITE_LIMIT_PER_DAY: '1000000',
  LEAD_UPLOAD_FILES_PER_DAY: '1000000',
  LEAD_UPLOAD_MB_PER_DAY: '1000000',
  UPLOADS_IN_FLIGHT_PER_USER: '1000',
};

/** `smtpPort` and `inboxPort` are the mail inbox's: free ports when not given, so stacks side by side never share one. */
export async function startStackProcess(opts: {
  port: number;
  authPort: number;
  smtpPort?: number;
  inboxPort?: number;
  logPath: string;
  env?: NodeJS.ProcessEnv;
  label?: string;
}): Promise<StackProcess> {
  const label = opts.label ?? 'stack';
  const smtpPort = opts.smtpPort ?? (await freePort());
  const inboxPort = opts.inboxPort ?? (await freePort());
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-stack-'));
  const baseUrl = `http://localhost:${opts.port}`;
  mkdirSync(dirname(opts.logPath), { recursive: true });
  const logFd = openSync(opts.logPath, 'w');
  // Its own process group: Ctrl-C on the parent reaches start.ts only through stop(), so it always
  // gets to stop the server and the emulator in order.
  const child = spawn(bin('node'), [join(ROOT, 'scripts', 'start.ts')], {
    cwd: ROOT,
    env: childEnv({
      ...HARNESS_WRITE_LIMITS,
      PORT: String(opts.port),
      AUTH_EMULATOR_PORT: String(opts.authPort),
      MAIL_SMTP_PORT: String(smtpPort),
      MAIL_INBOX_PORT: String(inboxPort),
      DATA_DIR: dataDir,
      ...opts.env,
    }),
    stdio: ['ignore', logFd, logFd],
    detached: true,
  });
  closeSync(logFd);
  let exitCode: number | null = null;
  const exited = new Promise<void>((res) =>
    child.once('exit', (code, signal) => {
      exitCode = code ?? (signal ? 128 : 1);
      res();
    }),
  );
  // If the parent dies without calling stop(), still stop the stack (start.ts shuts down cleanly on SIGTERM).
  const onExit = () => {
    if (exitCode === null && child.pid) {
      try {
        process.kill(child.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
    }
  };
  process.on('exit', onExit);
  const logTail = () => {
    try {
      return readFileSync(opts.logPath, 'utf8').split('\n').slice(-40).join('\n');
    } catch {
      return '(no log)';
    }
  };
  const stop = async ({ keepData = false } = {}) => {
    process.removeListener('exit', onExit);
    if (exitCode === null && child.pid) {
      process.kill(child.pid, 'SIGINT');
      const timer = setTimeout(() => {
        console.error(`[${label}] the stack did not stop within 60 s; killing it`);
        child.kill('SIGKILL');
      }, 60_000);
      await exited;
      clearTimeout(timer);
    }
    if (keepData) console.log(`[${label}] data kept in ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  };

  console.log(`[${label}] starting the stack on ${baseUrl} (log: ${opts.logPath}); a build can take a few minutes…`);
  const started = Date.now();
  try {
    await waitForHttp(`${baseUrl}/api/health`, 5 * 60_000, {
      abortIf: () => (exitCode !== null ? `scripts/start.ts exited with code ${exitCode}` : undefined),
    });
  } catch (err) {
    console.error(`[${label}] the stack did not come up: ${(err as Error).message}\n--- ${opts.logPath} (tail) ---\n${logTail()}`);
    await stop();
    throw err;
  }
  console.log(`[${label}] stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { baseUrl, authHost: `127.0.0.1:${opts.authPort}`, inboxUrl: `http://localhost:${inboxPort}`, dataDir, stop };
}
