// Firebase Auth emulator lifecycle, plus the small process helpers that the
// start/dev/test scripts share (so every script stops its children the same way).
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
  mkdirSync,
} from 'node:fs';
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

let guard: ChildProcess | null | undefined;

/**
 * Tells this process's guard (scripts/child-guard.ts) a line of what to clean up should this process end
 * without doing it itself, e.g. by kill -9. The guard is started on first use, in its own process group,
 * and its pipe is unref'd, so it never keeps this process alive.
 */
function tellGuard(line: string) {
  if (guard === undefined) {
    try {
      guard = spawn(process.execPath, [join(ROOT, 'scripts', 'child-guard.ts')], { detached: true, stdio: ['pipe', 'ignore', 'inherit'] });
      guard.once('error', () => (guard = null));
      guard.stdin?.on('error', () => undefined);
      guard.unref();
      (guard.stdin as unknown as { unref?: () => void }).unref?.();
    } catch (err) {
      process.stderr.write(`could not start the child guard (children may outlive a hard stop): ${(err as Error).message}\n`);
      guard = null;
    }
  }
  guard?.stdin?.write(`${line}\n`);
}

/** A temporary folder the guard removes should this process end without removing it. */
export function guardTempDir(dir: string) {
  tellGuard(`dir ${dir}`);
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
  if (child.pid) {
    liveGroups.add(child.pid);
    tellGuard(`group ${child.pid}`);
  }

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
      if (child.pid) tellGuard(`done ${child.pid}`);
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
  /**
   * Accounts are imported from this directory at start and saved to it while the emulator runs (absolute
   * or relative to the repo), so a hard stop loses at most the last second of account changes.
   */
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
  /** Saves the accounts to dataDir now (when they changed since the last save); a no-op without dataDir. */
  saveAccounts(): Promise<void>;
  stop(): Promise<void>;
}

/** How often the accounts are compared with the saved copy and saved when they changed. */
const SAVE_EVERY_MS = 1_000;
/** The emulators' temporary folders: one per emulator, holding its config, its log and its hub locator. */
const EMULATOR_DIR_PREFIX = 'portal-auth-emu-';
/** In each such folder: the pid of the process that started the emulator. */
const OWNER_FILE = 'owner.pid';

export async function startAuthEmulator(opts: AuthEmulatorOptions): Promise<AuthEmulator> {
  const { port, projectId = 'demo-portal' } = opts;
  const host = `127.0.0.1:${port}`;
  await ensurePortFree(port, 'Firebase Auth emulator');
  removeStaleEmulatorDirs();

  // firebase-tools takes its project directory from the config file's location and writes
  // firebase-debug.log into cwd: keep both in a temp dir so the repo stays clean and any port works.
  const workDir = mkdtempSync(join(tmpdir(), EMULATOR_DIR_PREFIX));
  writeFileSync(join(workDir, OWNER_FILE), String(process.pid));
  guardTempDir(workDir);
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

  // No --export-on-exit: it saves only on a clean exit, and by deleting the folder before moving the new
  // export in, so a kill during it loses every account. The accounts are saved by saveAccounts() instead.
  const args = ['emulators:start', '--only', 'auth', '--project', projectId, '--config', configPath];
  const dataDir = opts.dataDir ? resolve(ROOT, opts.dataDir) : undefined;
  if (dataDir) {
    if (hasContent(dataDir)) args.push('--import', dataDir);
    else mkdirSync(dataDir, { recursive: true });
  }

  const proc = spawnManaged('auth', bin('firebase'), args, {
    cwd: workDir,
    output: opts.verbose ? 'prefix' : 'quiet',
    // TMPDIR: firebase-tools keeps its hub locator, named after the project, in os.tmpdir(); two
    // emulators for demo-portal (dev + tests) would otherwise share it.
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

  const saver = dataDir ? accountSaver(host, projectId, dataDir) : undefined;
  // The imported accounts are the saved ones: the first comparison then finds nothing to write.
  await saver?.save().catch(() => undefined);
  const timer = saver ? setInterval(() => void saver.save().catch((err: Error) => warnOnce(`[auth] saving the accounts failed: ${err.message}`)), SAVE_EVERY_MS) : undefined;
  timer?.unref();

  let stopping: Promise<void> | undefined;
  return {
    host,
    exited: proc.exited,
    saveAccounts: async () => saver?.save(),
    stop() {
      stopping ??= (async () => {
        clearInterval(timer);
        if (saver && !proc.hasExited()) await saver.save().catch((err: Error) => process.stderr.write(`[auth] saving the accounts failed: ${err.message}\n`));
        const code = await proc.stop({ signal: 'SIGINT', graceMs: 20_000 });
        // Worth showing when quiet.
        if (code !== 0 && code !== 130 && !opts.verbose) {
          process.stderr.write(`[auth] the emulator exited with code ${code}; its last output:\n${proc.tail(20)}\n`);
        }
        cleanup();
      })();
      return stopping;
    },
  };
}

const warned = new Set<string>();
function warnOnce(message: string) {
  if (warned.has(message)) return;
  warned.add(message);
  process.stderr.write(`${message}\n`);
}

function hasContent(dir: string): boolean {
  // firebase-tools refuses an import directory without its metadata file.
  return existsSync(join(dir, 'firebase-export-metadata.json')) && readdirSync(dir).length > 0;
}

/**
 * Saves the emulator's accounts and config in the layout `firebase emulators:export` writes (and
 * `--import` reads): firebase-export-metadata.json and auth_export/{accounts,config}.json. Each file is
 * written beside its place, synced and renamed over the old one, so a kill at any moment leaves the
 * previous copy or the new one, never half of one. Writes only what changed since the last save.
 */
function accountSaver(host: string, projectId: string, dataDir: string) {
  const exportDir = join(dataDir, 'auth_export');
  const owner = { Authorization: 'Bearer owner' };
  const last = new Map<string, string>();
  let running: Promise<void> | undefined;

  const read = async (path: string) => {
    const res = await fetch(`http://${host}${path}`, { headers: owner, signal: AbortSignal.timeout(5_000) });
    if (!res.ok) throw new Error(`GET ${path}: HTTP ${res.status}`);
    return res.text();
  };
  const write = (path: string, text: string) => {
    if (last.get(path) === text || (!last.has(path) && existsSync(path) && readFileSync(path, 'utf8') === text)) {
      last.set(path, text);
      return;
    }
    // Beside the export folder, not in it: the import reads every file there whose name holds "accounts".
    const temporary = join(dataDir, `.saving-${process.pid}`);
    const fd = openSync(temporary, 'w');
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
    last.set(path, text);
  };
  const saveOnce = async () => {
    const [accounts, config] = await Promise.all([
      read(`/identitytoolkit.googleapis.com/v1/projects/${projectId}/accounts:batchGet?maxResults=-1`),
      read(`/emulator/v1/projects/${projectId}/config`),
    ]);
    mkdirSync(exportDir, { recursive: true });
    write(join(exportDir, 'config.json'), config);
    write(join(exportDir, 'accounts.json'), accounts);
    // Last: an import needs it, and it says the folder is complete.
    write(join(dataDir, 'firebase-export-metadata.json'), JSON.stringify({ version: firebaseToolsVersion(), auth: { version: firebaseToolsVersion(), path: 'auth_export' } }, null, 2));
  };
  return {
    /** One save at a time; a call during one waits for it and then saves again. */
    save(): Promise<void> {
      const next = (running ?? Promise.resolve()).catch(() => undefined).then(saveOnce);
      running = next;
      return next;
    },
  };
}

function firebaseToolsVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(ROOT, 'node_modules', 'firebase-tools', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** Whether a process runs: signal 0 reaches it, and on Linux it is not a zombie waiting to be reaped. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** Whether a running process has its working directory inside `dir` (firebase-tools runs in its folder); undefined where /proc cannot tell. */
function inUseAsWorkingDir(dir: string): boolean | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) return true;
    } catch {
      /* gone, or not ours to read */
    }
  }
  return false;
}

/**
 * Removes the emulator folders of runs that are over: their owner's pid is dead (or, for a folder from
 * before owners were written, no process works in it) and no process works in it. A folder in use, or one
 * whose state cannot be told, is left alone: other runs on the machine may own it.
 */
export function removeStaleEmulatorDirs(root = tmpdir()): string[] {
  const removed: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(root).filter((name) => name.startsWith(EMULATOR_DIR_PREFIX));
  } catch {
    return removed;
  }
  for (const entry of entries) {
    const dir = join(root, entry);
    let owner: number | null = null;
    try {
      owner = Number(readFileSync(join(dir, OWNER_FILE), 'utf8').trim()) || null;
    } catch {
      /* no owner file */
    }
    if (owner !== null && processAlive(owner)) continue;
    const inUse = inUseAsWorkingDir(dir);
    if (inUse === true || (owner === null && inUse === undefined)) continue;
    rmSync(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}
