import { closeSync, fsyncSync, openSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

/**
 * PGlite on disk with commits that reach the disk before they are acknowledged
 * (docs/decisions/021-embedded-durability.md). Out of the box PGlite starts PostgreSQL with `-F`
 * (fsync off), and its Emscripten file system has no fsync at all: a commit's WAL is written to the OS
 * cache and nothing more, so a power cut or an OS crash can lose acknowledged writes. Here PostgreSQL
 * runs with fsync on and `wal_sync_method=fsync` (the one method that reaches the file system's fsync
 * hook: fdatasync is a bare no-op in Emscripten), and that hook calls the real fsync(2) on the file.
 * PostgreSQL then does what it does on any disk: one WAL flush per commit, data files and
 * directories at checkpoints, a whole-directory sync after a crash.
 */

/** WASI error numbers the Emscripten runtime hands back to PostgreSQL's fsync(). */
const WASI_EIO = 29;
const WASI_ENOSPC = 51;

interface NodefsStream {
  nfd?: number;
  node: unknown;
}
interface Nodefs {
  realPath(node: unknown): string;
  stream_ops: { fsync?: (stream: NodefsStream) => number };
}

function syncStream(nodefs: Nodefs, stream: NodefsStream): number {
  try {
    if (typeof stream.nfd === 'number') {
      fsyncSync(stream.nfd);
    } else {
      // A directory opened for its entries' sake (a new WAL segment, a renamed file) has no host descriptor.
      const fd = openSync(nodefs.realPath(stream.node), 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    return 0;
  } catch (err) {
    // PostgreSQL treats a failed fsync as fatal (it cannot know what reached the disk): it must see it.
    return (err as NodeJS.ErrnoException).code === 'ENOSPC' ? WASI_ENOSPC : WASI_EIO;
  }
}

/** PGlite's NodeFS whose fsync reaches the disk; patched before PostgreSQL's first file is opened. */
class DurableNodeFS extends NodeFS {
  override async init(pg: PGlite, emscriptenOptions: Parameters<NodeFS['init']>[1]) {
    const { emscriptenOpts } = await super.init(pg, emscriptenOptions);
    const syncOnFsync = (mod: { NODEFS: unknown }) => {
      const nodefs = mod.NODEFS as Nodefs;
      nodefs.stream_ops.fsync = (stream) => syncStream(nodefs, stream);
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), syncOnFsync] } };
  }
}

/** Options for PGlite under `dir` with durable commits. */
export function durablePgliteOptions(dir: string): PGliteOptions {
  return {
    dataDir: dir,
    fs: new DurableNodeFS(dir),
    startParams: [...PGlite.defaultStartParams.filter((param) => param !== '-F'), '-c', 'wal_sync_method=fsync'],
  };
}

/** Every file and directory under `dir` to disk: a fresh cluster is written by PGlite's initdb with no fsync at all. */
export function syncTree(dir: string): void {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) syncTree(full);
    else syncPath(full);
  }
  syncPath(dir);
}

function syncPath(file: string): void {
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Opens PGlite under `dir` durably, and checks that PostgreSQL really runs with fsync on. */
export async function openDurablePglite(dir: string): Promise<PGlite> {
  let fresh = true;
  try {
    fresh = !statSync(path.join(dir, 'PG_VERSION')).isFile();
  } catch {
    fresh = true;
  }
  const client = new PGlite(durablePgliteOptions(dir));
  await client.waitReady;
  const { rows } = await client.query<{ fsync: string }>('SHOW fsync');
  if (rows[0]?.fsync !== 'on') {
    await client.close();
    throw new Error(`PGlite under ${dir} runs with fsync=${rows[0]?.fsync}: commits would not reach the disk`);
  }
  if (fresh) syncTree(dir);
  return client;
}
