// `npm start` after a hard stop: kill -9 of scripts/start.ts ends its children (their ports free again),
// removes its temporary folders, and the next start finds the same accounts under the same uids, so the
// demo client's requests are still its own. Runs the real stack (emulator, seed, API on PGlite) without
// a build: STATIC_DIR points at an empty folder, and start.ts builds only into dist/.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bin, childEnv, freePort, ROOT, waitForHttp } from './emulator.ts';

const STACK_START_MS = 120_000;
/** How long the children may take to go once their parent is killed: the guard's grace is 5 s. */
const CHILDREN_GONE_MS = 30_000;

const hasProc = existsSync('/proc/self/stat');

/** The pid, parent pid and state of every process, from /proc. */
function processTable(): { pid: number; ppid: number; state: string }[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after its last ")".
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return [{ pid: Number(name), ppid: Number(ppid), state }];
      } catch {
        return [];
      }
    });
}

function descendantsOf(root: number): number[] {
  const table = processTable();
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    for (const p of table) {
      if (p.ppid !== parent || found.includes(p.pid)) continue;
      found.push(p.pid);
      queue.push(p.pid);
    }
  }
  return found;
}

const alive = (pid: number) => processTable().some((p) => p.pid === pid && p.state !== 'Z');

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Polls `check` until it returns nothing left to wait for; fails with what was left after `ms`. */
async function waitUntil(what: string, ms: number, check: () => Promise<string[]> | string[]): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = await check();
    if (left.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${what}: still ${left.join(', ')} after ${ms / 1000} s`);
    // The poll's interval: processes ending and ports closing raise no event this test can wait on.
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function identity(authHost: string, method: 'signUp' | 'signInWithPassword', email: string, password: string) {
  const res = await fetch(`http://${authHost}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=fake-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  if (!res.ok) throw new Error(`${method} ${email}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { idToken: string; localId: string };
}

describe.skipIf(!hasProc)('npm start after kill -9', () => {
  const work = mkdtempSync(join(tmpdir(), 'portal-hard-stop-'));
  const dataDir = join(work, 'data');
  const staticDir = join(work, 'no-build');
  const started: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    await Promise.all(started.map((child) => (child.exitCode === null && child.signalCode === null ? new Promise((r) => child.once('exit', r)) : null)));
    rmSync(work, { recursive: true, force: true });
  });

  async function startStack(port: number, authPort: number, mailPorts: [number, number], logName: string): Promise<ChildProcess> {
    mkdirSync(staticDir, { recursive: true });
    const logPath = join(work, logName);
    const log = openSync(logPath, 'w');
    const child = spawn(bin('node'), [join(ROOT, 'scripts', 'start.ts')], {
      cwd: ROOT,
      // Its own stack only: not the test run's emulator, PostgreSQL or data.
      env: childEnv({
        PORT: String(port),
        AUTH_EMULATOR_PORT: String(authPort),
        MAIL_SMTP_PORT: String(mailPorts[0]),
        MAIL_INBOX_PORT: String(mailPorts[1]),
        DATA_DIR: dataDir,
        STATIC_DIR: staticDir,
        DATABASE_URL: undefined,
        FIREBASE_AUTH_EMULATOR_HOST: undefined,
        SMTP_URL: undefined,
      }),
      stdio: ['ignore', log, log],
      detached: true,
    });
    closeSync(log);
    started.push(child);
    try {
      await waitForHttp(`http://127.0.0.1:${port}/api/health`, STACK_START_MS, { abortIf: () => (child.exitCode !== null ? `start.ts exited with ${child.exitCode}` : undefined) });
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${readFileSync(logPath, 'utf8').split('\n').slice(-30).join('\n')}`);
    }
    return child;
  }

  it('ends its children, frees their ports, removes its temporary folders, and the next start keeps every account and uid', async () => {
    const [port, authPort] = [await freePort(), await freePort()];
    const mailPorts: [number, number] = [await freePort(), await freePort()];
    const authHost = `127.0.0.1:${authPort}`;
    const first = await startStack(port, authPort, mailPorts, 'first.log');
    const firstPid = first.pid as number;

    const client = await identity(authHost, 'signInWithPassword', 'client@demo.test', 'Client#2026');
    const counts = async (idToken: string) => (await fetch(`http://127.0.0.1:${port}/api/user/product-requests-status-count`, { headers: { authorization: `Bearer ${idToken}` } })).json();
    expect(await counts(client.idToken)).toEqual({ data: { done: 5, inProgress: 5, pending: 5, waitingForActions: 5 } });

    // An account made while the stack runs is saved as it changes, not only on a clean stop.
    const late = { email: `late-${Date.now()}@test.example`, password: 'Secret#123' };
    const lateUid = (await identity(authHost, 'signUp', late.email, late.password)).localId;
    const saved = join(dataDir, 'auth', 'auth_export', 'accounts.json');
    await waitUntil('the new account saved', 15_000, () => (existsSync(saved) && readFileSync(saved, 'utf8').includes(late.email) ? [] : [`${late.email} not in ${saved}`]));

    const children = descendantsOf(firstPid);
    const emulatorDirs = readdirSync(tmpdir())
      .filter((name) => name.startsWith('portal-auth-emu-'))
      .map((name) => join(tmpdir(), name))
      .filter((dir) => existsSync(join(dir, 'owner.pid')) && readFileSync(join(dir, 'owner.pid'), 'utf8').trim() === String(firstPid));
    expect(children.length).toBeGreaterThanOrEqual(3); // the guard, the emulator, the API server (and what they run)
    expect(emulatorDirs).toHaveLength(1);

    process.kill(firstPid, 'SIGKILL');
    await waitUntil('the children of the killed start.ts', CHILDREN_GONE_MS, () => children.filter(alive).map((pid) => `pid ${pid}`));
    await waitUntil('the ports', CHILDREN_GONE_MS, async () => {
      const held = await Promise.all([port, authPort, ...mailPorts].map(async (p) => ((await portAnswers(p)) ? [`port ${p}`] : [])));
      return held.flat();
    });
    await waitUntil('the emulator folder', CHILDREN_GONE_MS, () => emulatorDirs.filter(existsSync));

    // A folder left by a run whose every process is gone (its owner's pid is dead): the next start removes it.
    const stale = mkdtempSync(join(tmpdir(), 'portal-auth-emu-'));
    const deadPid = spawnSync(bin('node'), ['-e', '']).pid as number;
    writeFileSync(join(stale, 'owner.pid'), String(deadPid));

    // On the same ports: they are free again.
    const second = await startStack(port, authPort, mailPorts, 'second.log');
    expect(existsSync(stale)).toBe(false);
    const again = await identity(authHost, 'signInWithPassword', 'client@demo.test', 'Client#2026');
    expect(again.localId).toBe(client.localId);
    expect(await counts(again.idToken)).toEqual({ data: { done: 5, inProgress: 5, pending: 5, waitingForActions: 5 } });
    expect((await identity(authHost, 'signInWithPassword', late.email, late.password)).localId).toBe(lateUid);

    second.kill('SIGINT');
    await new Promise((r) => second.once('exit', r));
  }, 4 * STACK_START_MS);
});
