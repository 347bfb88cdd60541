// One owner per embedded data directory: the real server process refuses a DATA_DIR another live
// process holds, and a holder killed with SIGKILL does not block the next start.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migratedDataDir, startServerProcess } from '../server-process.ts';
import { acquireDataDirLock, DataDirInUseError, LOCK_DIR_NAME, startTicksOf } from './data-dir-lock.ts';

const main = path.resolve(import.meta.dirname, '..', 'main.ts');
const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-lock-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** server/main.ts on `dataDir` as an operator would start it (local mode, embedded database); resolves with its exit code and output. */
function runServer(dataDir: string, port: number): Promise<{ code: number | null; output: string }> {
  const { DATABASE_URL: _none, ...inherited } = process.env;
  const child: ChildProcess = spawn(process.execPath, [main], {
    env: { ...inherited, NODE_ENV: 'development', DATA_DIR: dataDir, STATIC_DIR: path.join(dataDir, 'no-build'), PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    // A server that wrongly starts is stopped, so the test fails on what it printed rather than by timing out.
    if (/API listening/.test(output)) child.kill('SIGTERM');
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

/** A lock entry as another process leaves it: named by pid and start time. */
function entryOf(dataDir: string, pid: number, startTicks: string) {
  mkdirSync(path.join(dataDir, LOCK_DIR_NAME), { recursive: true });
  writeFileSync(path.join(dataDir, LOCK_DIR_NAME, `${pid}-${startTicks}.json`), JSON.stringify({ pid, command: 'other.ts', since: '2026-01-01T00:00:00.000Z' }));
}

describe('one server per DATA_DIR', () => {
  it('a second server on the same DATA_DIR refuses to start, naming the directory and the first one', async () => {
    // Empty: the first server's is a first start, which creates and migrates the embedded database.
    const dataDir = freshDir();
    const first = await startServerProcess({ DATA_DIR: dataDir });
    try {
      const second = await runServer(dataDir, Number(new URL(first.url).port) + 1);
      expect(second.code).toBe(1);
      expect(second.output).toContain(`DATA_DIR ${dataDir} is in use by another process (pid ${first.pid}, main.ts`);
      expect(second.output).not.toMatch(/API listening/);
      // The first one still serves.
      expect((await fetch(`${first.url}/api/health`)).status).toBe(200);
    } finally {
      await first.stop();
    }
  }, 120_000);

  it('a server killed with SIGKILL does not block the next start on its DATA_DIR', async () => {
    const dataDir = migratedDataDir('portal-lock-');
    dirs.push(dataDir);
    const killed = await startServerProcess({ DATA_DIR: dataDir });
    process.kill(killed.pid, 'SIGKILL');
    await killed.stop(); // waits for its exit
    expect(readdirSync(path.join(dataDir, LOCK_DIR_NAME))).toEqual([expect.stringMatching(new RegExp(`^${killed.pid}-`))]);
    const next = await startServerProcess({ DATA_DIR: dataDir });
    try {
      expect((await fetch(`${next.url}/api/health`)).status).toBe(200);
      // The dead one's entry is gone; only the new owner's remains.
      expect(readdirSync(path.join(dataDir, LOCK_DIR_NAME))).toEqual([expect.stringMatching(new RegExp(`^${next.pid}-`))]);
    } finally {
      await next.stop();
    }
  }, 120_000);
});

describe('acquireDataDirLock', () => {
  it('refuses while a live process holds the directory, and takes it once released', () => {
    const dataDir = freshDir();
    const held = acquireDataDirLock(dataDir);
    expect(() => acquireDataDirLock(dataDir)).toThrow(DataDirInUseError);
    held.release();
    acquireDataDirLock(dataDir).release();
    expect(readdirSync(path.join(dataDir, LOCK_DIR_NAME))).toEqual([]);
  });

  it("names another live process's entry", () => {
    const dataDir = freshDir();
    const parent = process.ppid;
    entryOf(dataDir, parent, startTicksOf(parent) ?? '1');
    let error: unknown;
    try {
      acquireDataDirLock(dataDir);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DataDirInUseError);
    expect((error as DataDirInUseError).holder).toMatchObject({ pid: parent, command: 'other.ts' });
    expect((error as Error).message).toContain(`DATA_DIR ${dataDir} is in use by another process (pid ${parent}, other.ts`);
  });

  it.skipIf(startTicksOf(process.pid) === undefined)('takes over the entry of a recycled pid: alive, but started at another time', () => {
    const dataDir = freshDir();
    const parent = process.ppid;
    entryOf(dataDir, parent, String(Number(startTicksOf(parent)) + 1));
    const lock = acquireDataDirLock(dataDir);
    expect(readdirSync(path.join(dataDir, LOCK_DIR_NAME))).toEqual([`${process.pid}-${startTicksOf(process.pid)}.json`]);
    lock.release();
  });
});
