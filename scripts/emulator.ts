// Firebase Auth emulator lifecycle, plus the small process helpers that the
// start/dev/test scripts share (so every script stops its children the same way).
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Path of an installed binary: always node_modules/.bin, never npx (npx would sit between us and the PID). */
export function bin(name: string): string {
  return join(ROOT, 'node_modules', '.bin', name);
}

/**
 * process.env with node_modules/.bin first on PATH, so that `#!/usr/bin/env node` tools (firebase,
 * vite, vitest) run on the project's Node 24 even when a script is started outside npm.
 */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const binDir = join(ROOT, 'node_modules', '.bin');
  const path = process.env.PATH ?? '';
  return {
    ...process.env,
    PATH: path.split(':').includes(binDir) ? path : `${binDir}:${path}`,
    ...extra,
  };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface WaitOptions {
  /** Polled between attempts: return a message to give up early (e.g. the child process already exited). */
  abortIf?: () => string | undefined;
  /** Accept any HTTP response, not only 2xx. */
  anyStatus?: boolean;
}

/** Resolves once `url` answers with 2xx (or any status with anyStatus); rejects after timeoutMs. */
export async function waitForHttp(url: string, timeoutMs: number, opts: WaitOptions = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  for (;;) {
    const reason = opts.abortIf?.();
    if (reason) throw new Error(`gave up waiting for ${url}: ${reason}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.body?.cancel();
      if (res.ok || opts.anyStatus) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = (err as Error).cause ? String((err as { cause: unknown }).cause) : String(err);
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${url} (${last})`);
    await sleep(300);
  }
}

/** Throws a readable error when something already listens on 127.0.0.1:port. */
export async function ensurePortFree(port: number, what: string): Promise<void> {
  await new Promise<void>((res, rej) => {
    const srv = createServer();
    srv.once('error', (err: NodeJS.ErrnoException) =>
      rej(
        new Error(
          err.code === 'EADDRINUSE'
            ? `port ${port} (${what}) is already in use: stop the other process or choose another port`
            : `cannot check port ${port} (${what}): ${err.message}`,
        ),
      ),
    );
    srv.listen(port, '127.0.0.1', () => srv.close(() => res()));
  });
}

/** A port the OS considers free right now. */
export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => res(port));
    });
  });
}

export interface Managed {
  name: string;
  child: ChildProcess;
  /** Resolves with the exit code (or 128+signal) when the process has exited. */
  exited: Promise<number>;
  hasExited(): boolean;
  /** Last lines of output (only when output is captured). */
  tail(lines?: number): string;
  /** SIGINT (or `signal`) to the whole process group, wait, SIGKILL after graceMs. */
  stop(opts?: { signal?: NodeJS.Signals; graceMs?: number }): Promise<number>;
}

const liveGroups = new Set<number>();
let exitHookInstalled = false;
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Last resort if the parent exits without stopping its children (crash, process.exit):
  // detached children would otherwise outlive it and hold their ports.
  process.on('exit', () => {
    for (const pid of liveGroups) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  });
}

export interface SpawnManagedOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** 'inherit': share our terminal; 'prefix': echo lines with a [name] prefix; 'quiet': keep only the tail. */
  output?: 'inherit' | 'prefix' | 'quiet';
}

/**
 * Spawns a command in its own process group so that stopping it also stops what it spawned
 * (firebase-tools, `node --watch`, vite all run sub-processes) and so that Ctrl-C in the
 * terminal reaches only us: we decide the order in which things stop.
 */
export function spawnManaged(name: string, cmd: string, args: string[], opts: SpawnManagedOptions = {}): Managed {
  installExitHook();
  const output = opts.output ?? 'prefix';
  const spawnOpts: SpawnOptions = {
    cwd: opts.cwd ?? ROOT,
    env: opts.env ?? childEnv(),
    detached: true,
    stdio: output === 'inherit' ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
  };
  const child = spawn(cmd, args, spawnOpts);
  const lines: string[] = [];
  const onData = (stream: NodeJS.WritableStream) => {
    let partial = '';
    return (chunk: Buffer) => {
      const text = partial + chunk.toString('utf8');
      const parts = text.split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line.replace(/\x1b\[[0-9;]*m/g, ''));
        if (lines.length > 400) lines.shift();
        if (output === 'prefix') stream.write(`[${name}] ${line}\n`);
      }
    };
  };
  child.stdout?.on('data', onData(process.stdout));
  child.stderr?.on('data', onData(process.stderr));

  let done = false;
  const exited = new Promise<number>((res) => {
    const finish = (code: number) => {
      if (done) return;
      done = true;
      if (child.pid) liveGroups.delete(child.pid);
      res(code);
    };
    child.once('error', (err) => {
      lines.push(`failed to start ${cmd}: ${err.message}`);
      finish(127);
    });
    child.once('exit', (code, signal) => {
      finish(code ?? (signal ? 128 + signalNumber(signal) : 1));
    });
  });
  if (child.pid) liveGroups.add(child.pid);

  const killGroup = (signal: NodeJS.Signals) => {
    if (!child.pid) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      try {
        child.kill(signal);
      } catch {
        /* already gone */
      }
    }
  };

  return {
    name,
    child,
    exited,
    hasExited: () => done,
    tail: (n = 40) => lines.slice(-n).join('\n'),
    async stop({ signal = 'SIGINT', graceMs = 20_000 } = {}) {
      if (done) return exited;
      killGroup(signal);
      const timer = setTimeout(() => {
        process.stderr.write(`[${name}] did not stop within ${graceMs / 1000} s, killing it\n`);
        killGroup('SIGKILL');
      }, graceMs);
      const code = await exited;
      clearTimeout(timer);
      // The group leader is gone; make sure no grandchild is left behind.
      killGroup('SIGKILL');
      return code;
    },
  };
}

function signalNumber(signal: NodeJS.Signals): number {
  const table: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 };
  return table[signal] ?? 1;
}

export interface AuthEmulatorOptions {
  port: number;
  /** Accounts are imported from and exported to this directory (absolute or relative to the repo). */
  dataDir?: string;
  projectId?: string;
  /** Echo the emulator's output with an [auth] prefix (default: keep it quiet, print it on failure). */
  verbose?: boolean;
}

export interface AuthEmulator {
  /** host:port, the value for FIREBASE_AUTH_EMULATOR_HOST */
  host: string;
  /** Resolves with the exit code when the emulator process ends (expectedly or not). */
  exited: Promise<number>;
  stop(): Promise<void>;
}

export async function startAuthEmulator(opts: AuthEmulatorOptions): Promise<AuthEmulator> {
  const { port, projectId = 'demo-portal' } = opts;
  const host = `127.0.0.1:${port}`;
  await ensurePortFree(port, 'Firebase Auth emulator');

  // firebase-tools takes its project directory from the config file's location and writes
  // firebase-debug.log into cwd: keep both in a temp dir so the repo stays clean and any port works.
  const workDir = mkdtempSync(join(tmpdir(), 'portal-auth-emu-'));
  const configPath = join(workDir, 'firebase.json');
  writeFileSync(
    configPath,
    JSON.stringify(
      {
        emulators: {
          auth: { host: '127.0.0.1', port },
          ui: { enabled: false },
          // Own free ports for the hub and logging emulators: left to their defaults (4400, 4500)
          // every emulator on the machine races for the same ports, and the loser may crash.
          hub: { host: '127.0.0.1', port: await freePort() },
          logging: { host: '127.0.0.1', port: await freePort() },
          singleProjectMode: true,
        },
      },
      null,
      2,
    ),
  );

  const args = ['emulators:start', '--only', 'auth', '--project', projectId, '--config', configPath];
  if (opts.dataDir) {
    const dataDir = resolve(ROOT, opts.dataDir);
    if (hasContent(dataDir)) args.push('--import', dataDir);
    else mkdirSync(dataDir, { recursive: true });
    args.push('--export-on-exit', dataDir);
  }

  const proc = spawnManaged('auth', bin('firebase'), args, {
    cwd: workDir,
    output: opts.verbose ? 'prefix' : 'quiet',
    // TMPDIR: firebase-tools finds "its" hub for --export-on-exit through a locator file named
    // after the project in os.tmpdir(); two emulators for demo-portal (dev + tests) would
    // otherwise share it and one could export the other's accounts.
    env: { ...childEnv(), TMPDIR: workDir, FIREBASE_AUTH_EMULATOR_HOST: undefined, NO_COLOR: '1' },
  });

  const cleanup = () => rmSync(workDir, { recursive: true, force: true });

  try {
    await waitForHttp(`http://${host}/`, 90_000, {
      abortIf: () => (proc.hasExited() ? 'the emulator process exited' : undefined),
    });
  } catch (err) {
    process.stderr.write(`Firebase Auth emulator did not start on ${host}. Last output:\n${proc.tail(60)}\n`);
    await proc.stop({ signal: 'SIGKILL', graceMs: 2000 });
    cleanup();
    throw err;
  }

  let stopping: Promise<void> | undefined;
  return {
    host,
    exited: proc.exited,
    stop() {
      stopping ??= (async () => {
        // SIGINT lets firebase-tools run --export-on-exit before it exits.
        const code = await proc.stop({ signal: 'SIGINT', graceMs: 20_000 });
        // Worth showing when quiet and the export may have failed.
        if (code !== 0 && code !== 130 && !opts.verbose) {
          process.stderr.write(`[auth] the emulator exited with code ${code}; its last output:\n${proc.tail(20)}\n`);
        }
        cleanup();
      })();
      return stopping;
    },
  };
}

function hasContent(dir: string): boolean {
  // firebase-tools refuses an import directory without its metadata file.
  return existsSync(join(dir, 'firebase-export-metadata.json')) && readdirSync(dir).length > 0;
}
