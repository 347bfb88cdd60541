import { mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

/**
 * One owner per embedded data directory (docs/decisions/021-embedded-durability.md): PGlite has no
 * lock of its own, and two processes writing one directory lose acknowledged writes and duplicate
 * `seq`. Every process that opens DATA_DIR (the server, the seed, a backup or restore without a
 * server) first writes its own entry into DATA_DIR/owner.lock/, named by its pid and its start time,
 * then looks at the other entries: any live one means the directory is taken, and it withdraws.
 * Entries of dead processes (kill -9, power cut) are deleted by whoever finds them, so a crash never
 * blocks a restart. Each process only ever creates and deletes its own name, and a dead process's name
 * never comes back to life, so two processes can never both believe they own the directory; two
 * starting at the very same instant may both withdraw, which is safe.
 */

export const LOCK_DIR_NAME = 'owner.lock';

export interface LockHolder {
  pid: number;
  /** What the holder runs (main.ts, seed-cli.ts, backup.ts, …). */
  command: string;
  /** When it took the directory (ISO). */
  since: string;
}

export class DataDirInUseError extends Error {
  readonly dataDir: string;
  readonly holder: LockHolder;
  constructor(dataDir: string, holder: LockHolder) {
    super(
      `DATA_DIR ${dataDir} is in use by another process (pid ${holder.pid}, ${holder.command}, since ${holder.since}). ` +
        'Only one process may open the embedded database: stop that one first, or give this one another DATA_DIR.',
    );
    this.name = 'DataDirInUseError';
    this.dataDir = dataDir;
    this.holder = holder;
  }
}

export interface DataDirLock {
  dataDir: string;
  /** Gives the directory back; idempotent. */
  release(): void;
}

/** Jiffies since boot at which `pid` started, from /proc (Linux); undefined where there is no /proc. */
export function startTicksOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields are counted after its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** An entry's name carries what liveness needs, so a half-written entry is still judged right. */
function entryName(pid: number, startTicks: string | undefined): string {
  return `${pid}-${startTicks ?? 'x'}.json`;
}

function parseEntryName(name: string): { pid: number; startTicks: string | undefined } | undefined {
  const match = /^(\d+)-(\d+|x)\.json$/.exec(name);
  if (!match) return undefined;
  return { pid: Number(match[1]), startTicks: match[2] === 'x' ? undefined : match[2] };
}

interface EntryBody extends LockHolder {
  host: string;
  bootId?: string;
}

function readEntry(file: string): Partial<EntryBody> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<EntryBody>;
  } catch {
    return {}; // being written right now, or damaged: the name alone decides
  }
}

/**
 * Whether the process that wrote an entry still runs: same boot, the pid exists, and (where /proc
 * tells) it started at the recorded time, so a recycled pid is not mistaken for the holder.
 */
function isAlive(pid: number, startTicks: string | undefined, body: Partial<EntryBody>): boolean {
  const boot = bootId();
  if (body.bootId && boot && body.bootId !== boot) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to another user, which still holds the directory.
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  if (startTicks === undefined) return true;
  const now = startTicksOf(pid);
  return now === undefined ? true : now === startTicks;
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** The live holder of `dataDir` other than this process, if any; entries of dead processes are removed on the way. */
export function liveDataDirHolder(dataDir: string): LockHolder | undefined {
  const dir = path.join(path.resolve(dataDir), LOCK_DIR_NAME);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  const own = entryName(process.pid, startTicksOf(process.pid));
  for (const name of names) {
    const parsed = parseEntryName(name);
    if (!parsed || name === own) continue;
    const file = path.join(dir, name);
    const body = readEntry(file);
    if (isAlive(parsed.pid, parsed.startTicks, body)) {
      return { pid: parsed.pid, command: body.command ?? 'unknown command', since: body.since ?? 'an unknown time' };
    }
    removeQuietly(file);
  }
  return undefined;
}

/** Takes `dataDir` for this process, or throws DataDirInUseError naming the live holder. */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const resolved = path.resolve(dataDir);
  const dir = path.join(resolved, LOCK_DIR_NAME);
  mkdirSync(dir, { recursive: true });
  const startTicks = startTicksOf(process.pid);
  const own = path.join(dir, entryName(process.pid, startTicks));
  const body: EntryBody = {
    pid: process.pid,
    command: path.basename(process.argv[1] ?? process.argv0),
    since: new Date().toISOString(),
    host: hostname(),
    bootId: bootId(),
  };
  try {
    writeFileSync(own, JSON.stringify(body), { flag: 'wx' });
  } catch (err) {
    // This very process holds it already (a second open in the same process).
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new DataDirInUseError(resolved, { ...body, ...readEntry(own) });
    throw err;
  }
  let holder: LockHolder | undefined;
  try {
    holder = liveDataDirHolder(resolved);
  } catch (err) {
    removeQuietly(own);
    throw err;
  }
  if (holder) {
    removeQuietly(own);
    throw new DataDirInUseError(resolved, holder);
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    removeQuietly(own);
  };
  // A normal exit without close() gives the directory back too; kill -9 leaves a dead entry, removed by the next owner.
  process.on('exit', release);
  return { dataDir: resolved, release };
}
