// Test support: server/main.ts as its own process, as an operator runs it, so a test can measure its
// memory or run two instances side by side (server/instances.test.ts).
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const main = path.resolve(import.meta.dirname, 'main.ts');

export interface ServerProcess {
  url: string;
  pid: number;
  /** Resident memory now, from /proc (Linux). */
  rssBytes(): number;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves once it printed a line matching `pattern` (or rejects after `ms`). */
  waitFor(pattern: RegExp, ms?: number): Promise<void>;
  stop(): Promise<void>;
  /** kill -9: the process dies at once, mid-whatever; its data directory stays as it left it. */
  kill(): Promise<void>;
  /** Resolves when the process has ended, whoever ended it. */
  exited: Promise<void>;
}

/** The pglite/ folder of a migrated embedded database that new data directories start as copies of. */
let template: string | undefined;

/** Data directories from migratedDataDir() start from a copy of `pgliteDir` (tests/support/server-setup.ts). */
export function startDataDirsFrom(pgliteDir: string): void {
  template = pgliteDir;
}

/**
 * A new DATA_DIR whose embedded database is already created and migrated, as a server leaves it after its first
 * start: a server process on it starts as on any later day, without PGlite's initdb and the migrations from none.
 * Without a template (outside the server tests), an empty directory. Tests of a first start use an empty directory.
 */
export function migratedDataDir(prefix = 'portal-process-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  if (template) cpSync(template, path.join(dir, 'pglite'), { recursive: true });
  return dir;
}

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts server/main.ts with the test's environment plus `env`, in local mode (the Auth emulator), and waits for /api/health.
 * `dataDir` (or env.DATA_DIR): the caller's data directory, kept when the process ends (a restart on the same data); by
 * default a new one (from migratedDataDir(), unless env names a DATABASE_URL), removed on stop.
 */
export async function startServerProcess(env: Record<string, string>, opts: { dataDir?: string } = {}): Promise<ServerProcess> {
  const port = await freePort();
  const owned = !opts.dataDir && !env.DATA_DIR;
  const dataDir = opts.dataDir ?? env.DATA_DIR ?? (env.DATABASE_URL ? mkdtempSync(path.join(tmpdir(), 'portal-process-')) : migratedDataDir());
  // The database is the caller's choice: none (embedded PGlite under DATA_DIR) unless env names one.
  const { DATABASE_URL: _inherited, ...inherited } = process.env;
  const child: ChildProcess = spawn(process.execPath, [main], {
    env: { ...inherited, NODE_ENV: 'development', DATA_DIR: dataDir, STATIC_DIR: path.join(dataDir, 'no-build'), PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    printed += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const waitFor = (pattern: RegExp, ms = 60_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(printed)) return;
        done();
        resolve();
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`server did not print ${pattern} within ${ms} ms:\n${printed.slice(-3000)}`));
      }, ms);
      const done = () => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      check();
    });

  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    if (owned) rmSync(dataDir, { recursive: true, force: true });
  };
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  try {
    await waitFor(/API listening on/);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    rssBytes: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024,
    output: () => printed,
    waitFor,
    stop,
    kill,
    exited,
  };
}
