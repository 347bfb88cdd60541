// A throwaway PostgreSQL cluster for tests: temp dir, free port, trust auth, removed on stop.
// PostgreSQL refuses to run as root, so as root every server command runs as the `postgres` user.
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

export interface ThrowawayPostgres {
  url: string;
  stop(): Promise<void>;
}

export type ThrowawayPostgresResult = ThrowawayPostgres | { skipReason: string };

const DB_NAME = 'portal_test';

function findBinDir(): string | undefined {
  const candidates: string[] = [];
  if (process.env.PG_BIN_DIR) candidates.push(process.env.PG_BIN_DIR);
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base)
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) candidates.push(join(base, v, 'bin'));
  }
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
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

export async function startThrowawayPostgres(): Promise<ThrowawayPostgresResult> {
  const binDir = findBinDir();
  if (!binDir) {
    return { skipReason: 'PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin (apt-get install -y postgresql)' };
  }
  const isRoot = userInfo().uid === 0;
  let owner: { uid: number; gid: number } | undefined;
  if (isRoot) {
    owner = userIds('postgres');
    if (!owner) return { skipReason: 'running as root but there is no `postgres` user to run PostgreSQL as' };
  }
  // As root: `runuser -u postgres -- cmd`; otherwise run as ourselves.
  const asOwner = (cmd: string, args: string[]): [string, string[]] =>
    isRoot ? ['runuser', ['-u', 'postgres', '--', join(binDir, cmd), ...args]] : [join(binDir, cmd), args];

  const dir = mkdtempSync(join(tmpdir(), 'portal-pg-'));
  const dataDir = join(dir, 'data');
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  if (owner) chownSync(dir, owner.uid, owner.gid);

  try {
    const [initCmd, initArgs] = asOwner('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
    await run(initCmd, initArgs, { cwd: dir });
  } catch (err) {
    removeDir();
    return { skipReason: `initdb failed: ${describe(err)}` };
  }

  // The free port can be taken between our check and the server's bind: try a few times.
  let port = 0;
  let started = false;
  let lastError = '';
  for (let attempt = 0; attempt < 3 && !started; attempt++) {
    port = await freePort();
    const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    const [cmd, args] = asOwner('pg_ctl', ['-D', dataDir, '-o', opts, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
    try {
      await run(cmd, args, { cwd: dir });
      started = true;
    } catch (err) {
      lastError = `${describe(err)}\n${readLog(dir)}`;
    }
  }
  if (!started) {
    removeDir();
    return { skipReason: `pg_ctl start failed: ${lastError}` };
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
    return { skipReason: `could not create database ${DB_NAME}: ${describe(err)}` };
  }

  return {
    url: `postgres://postgres@127.0.0.1:${port}/${DB_NAME}`,
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

function describe(err: unknown): string {
  const e = err as { stderr?: string; message?: string };
  return (e.stderr && e.stderr.trim()) || e.message || String(err);
}

function readLog(dir: string): string {
  try {
    return readFileSync(join(dir, 'log'), 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '';
  }
}
