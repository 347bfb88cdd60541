import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import type { Db } from '../db/client.ts';
import { fileChunks } from '../db/schema.ts';
import { HttpError, notFound } from '../platform/errors.ts';

/** Types accepted for evidence, checked from the bytes themselves, never from the file name. */
const ALLOWED = new Set([
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/heic',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'text/plain',
]);

/** file-type reads at most this many leading bytes to recognise a format. */
const SNIFF_BYTES = 4100;

export interface StoredFile {
  storedName: string;
  contentType: string;
  size: number;
  sha256: string;
}

/** Bytes to store: a whole buffer (generated files, seeds) or a stream (uploads, never whole in memory). */
export type FileSource = Buffer | AsyncIterable<Uint8Array>;

/**
 * Where files live (docs/decisions/013-file-storage.md): on local disk for the embedded default, in
 * PostgreSQL when instances share one. Both check the same way while the bytes stream through.
 */
export interface Storage {
  maxBytes: number;
  /** Streams the bytes in, checking size, type and SHA-256 on the way, under a server-made name. Throws 400, 413 or 415 as HttpError, leaving nothing behind. */
  save(source: FileSource, originalName: string): Promise<StoredFile>;
  /** The bytes as a stream; rejects when they are gone. */
  open(storedName: string): Promise<Readable>;
  /** The bytes whole: for small files and tests. */
  read(storedName: string): Promise<Buffer>;
  remove(storedName: string): Promise<void>;
  /**
   * Removes every file no row names (`named` answers which of some names a files row holds) whose bytes
   * were last written before `cutoff` (ms since the epoch), cut-off temporary files included; returns
   * how many. A file written since `cutoff` may belong to an upload still in flight and is left alone
   * (server/files/orphan-files.ts).
   */
  removeOrphans(cutoff: number, named: (names: string[]) => Promise<Set<string>>): Promise<number>;
}

/** UTF-8 without NUL, checked chunk by chunk (a character may straddle two chunks). */
function textCheck() {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let ok = true;
  const attempt = (decode: () => unknown) => {
    if (!ok) return false;
    try {
      decode();
    } catch {
      ok = false;
    }
    return ok;
  };
  return {
    push: (chunk: Buffer) => (chunk.includes(0) ? (ok = false) : attempt(() => decoder.decode(chunk, { stream: true }))),
    end: () => attempt(() => decoder.decode()),
  };
}

function unsupported(name: string): HttpError {
  return new HttpError(415, 'UNSUPPORTED_FILE_TYPE', `${name} is not an accepted file type (PDF, image, Word, Excel or plain text)`);
}

/**
 * Passes the bytes through while counting, hashing and typing them: a recognised format is judged
 * from its first bytes, so a refused one stops the upload early; anything else must be UTF-8 text to
 * its last byte. `facts` is complete once the last chunk has been taken.
 */
async function* checkedBytes(source: FileSource, name: string, maxBytes: number, facts: Partial<StoredFile>): AsyncGenerator<Buffer> {
  const hash = createHash('sha256');
  const text = textCheck();
  let size = 0;
  let head: Buffer[] = [];
  let recognised: string | null | undefined; // undefined until the head is judged; null: maybe text
  const judgeHead = async () => {
    recognised = (await fileTypeFromBuffer(Buffer.concat(head)))?.mime ?? null;
    if (recognised && !ALLOWED.has(recognised)) throw unsupported(name);
    const taken = head;
    head = [];
    return taken;
  };
  for await (const piece of Buffer.isBuffer(source) ? [source] : source) {
    const chunk = Buffer.isBuffer(piece) ? piece : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    size += chunk.length;
    if (size > maxBytes) throw new HttpError(413, 'FILE_TOO_LARGE', `${name} is larger than ${formatBytes(maxBytes)}`);
    hash.update(chunk);
    // A recognised format needs no text check; before the head is judged it might still be text.
    if (!recognised) text.push(chunk);
    if (recognised !== undefined) {
      yield chunk;
      continue;
    }
    head.push(chunk);
    if (size >= SNIFF_BYTES) yield* await judgeHead();
  }
  if (size === 0) throw new HttpError(400, 'EMPTY_FILE', `${name} is empty`);
  if (recognised === undefined) yield* await judgeHead();
  const contentType = recognised ?? (text.end() ? 'text/plain' : null);
  if (!contentType) throw unsupported(name);
  Object.assign(facts, { contentType, size, sha256: hash.digest('hex') });
}

/** Names looked up in one query by the orphan sweep. */
const SWEEP_BATCH = 500;

/** The suffix of a file still being written: renamed to its stored name once its bytes are on disk. */
export const INCOMING_SUFFIX = '.incoming';

/**
 * Each file is one file under `dir`, named by a UUID. It is written under a temporary name, flushed to
 * the disk (fsync), renamed to its stored name and the directory flushed too, all before save() returns:
 * so before any row naming it can commit, the file is whole on the disk and a power cut cannot leave a
 * row whose file is missing or short. A file cut off mid-way (kill -9, power cut) keeps its temporary
 * name, which no row ever names (docs/decisions/024-uploads-exactly-once.md).
 */
export function createDiskStorage(dir: string, maxBytes: number): Storage {
  const fileOf = (storedName: string) => path.join(dir, path.basename(storedName));
  let dirReady: Promise<void> | undefined;
  const storage: Storage = {
    maxBytes,
    async save(source, originalName) {
      const storedName = randomUUID();
      const incoming = fileOf(storedName + INCOMING_SUFFIX);
      const facts: Partial<StoredFile> = {};
      dirReady ??= makeDurableDir(dir).catch((err: unknown) => {
        dirReady = undefined;
        throw err;
      });
      await dirReady;
      // Opened before the pipeline starts: a stream that opens its file by itself may still be opening it when a
      // refusal (the first bytes' type) ends the pipeline, and would then create the file after it was removed.
      const handle = await open(incoming, 'wx');
      try {
        // Straight from the checking generator into the file: each chunk is pulled only when the file takes it.
        // flush: the stream fsyncs the file before closing it, so the bytes are on the disk when the pipeline ends.
        await pipeline(checkedBytes(source, originalName, maxBytes, facts), handle.createWriteStream({ flush: true }));
        await rename(incoming, fileOf(storedName));
        await syncDir(dir);
      } catch (err) {
        await handle.close().catch(() => undefined);
        await rm(incoming, { force: true });
        await rm(fileOf(storedName), { force: true });
        throw err;
      }
      return { ...(facts as StoredFile), storedName };
    },
    async open(storedName) {
      // Opened first, so a missing file rejects here rather than as a stream error mid-answer.
      const handle = await open(fileOf(storedName));
      return handle.createReadStream();
    },
    read: (storedName) => readAll(storage.open(storedName)),
    remove: (storedName) => rm(fileOf(storedName), { force: true }),
    async removeOrphans(cutoff, named) {
      const entries = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return [];
        throw err;
      });
      const old: string[] = [];
      for (const name of entries) {
        const info = await stat(fileOf(name)).catch(() => null);
        if (info?.isFile() && info.mtimeMs < cutoff) old.push(name);
      }
      let removed = 0;
      for (let at = 0; at < old.length; at += SWEEP_BATCH) {
        const batch = old.slice(at, at + SWEEP_BATCH);
        // A temporary name is never a row's: only whole, renamed files are looked up.
        const kept = await named(batch.filter((name) => !name.endsWith(INCOMING_SUFFIX)));
        for (const name of batch) {
          if (kept.has(name)) continue;
          await rm(fileOf(name), { force: true });
          removed++;
        }
      }
      if (removed > 0) await syncDir(dir);
      return removed;
    },
  };
  return storage;
}

/** Creates `dir` if needed and, when it did, flushes the new entries up to the first directory that existed. */
async function makeDurableDir(dir: string): Promise<void> {
  const firstMade = await mkdir(dir, { recursive: true });
  if (!firstMade) return;
  for (let at = dir; ; at = path.dirname(at)) {
    await syncDir(path.dirname(at));
    if (at === firstMade || path.dirname(at) === at) return;
  }
}

/** A directory's entries (a file created or renamed in it) reach the disk only when the directory itself is flushed. */
async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Rows of at most this many bytes: an upload holds one row and its hex-encoded query at a time, well under 1 MB. */
export const DB_CHUNK_BYTES = 128 * 1024;

/**
 * Files as rows of file_chunks in the shared PostgreSQL, so every instance reads what another
 * stored. Written and read one chunk at a time; a failed save deletes the chunks it wrote.
 */
export function createDatabaseStorage(db: Db, maxBytes: number): Storage {
  const rowsOf = (storedName: string) => eq(fileChunks.storedName, storedName);
  const chunkAt = async (storedName: string, part: number) => {
    const [row] = await db
      .select({ data: fileChunks.data })
      .from(fileChunks)
      .where(and(rowsOf(storedName), eq(fileChunks.part, part)));
    return row?.data;
  };
  const storage: Storage = {
    maxBytes,
    async save(source, originalName) {
      const storedName = randomUUID();
      const facts: Partial<StoredFile> = {};
      let part = 0;
      try {
        for await (const block of inBlocks(checkedBytes(source, originalName, maxBytes, facts), DB_CHUNK_BYTES)) {
          await db.insert(fileChunks).values({ storedName, part: part++, data: block });
        }
      } catch (err) {
        await db.delete(fileChunks).where(rowsOf(storedName));
        throw err;
      }
      return { ...(facts as StoredFile), storedName };
    },
    async open(storedName) {
      const first = await chunkAt(storedName, 0);
      if (!first) throw new Error(`no stored file ${storedName}`);
      return Readable.from(
        (async function* () {
          yield first;
          for (let part = 1; ; part++) {
            const next = await chunkAt(storedName, part);
            if (!next) return;
            yield next;
          }
        })(),
      );
    },
    read: (storedName) => readAll(storage.open(storedName)),
    async remove(storedName) {
      await db.delete(fileChunks).where(rowsOf(storedName));
    },
    async removeOrphans(cutoff) {
      // One statement: the chunks of every stored name no files row holds and none of whose chunks was
      // written since the cutoff (an upload still streaming in keeps adding chunks).
      const removed = await db.execute(sql`
        DELETE FROM file_chunks WHERE stored_name IN (
          SELECT c.stored_name FROM file_chunks c
          WHERE NOT EXISTS (SELECT 1 FROM files f WHERE f.stored_name = c.stored_name)
          GROUP BY c.stored_name
          HAVING max(c.created_at) < ${new Date(cutoff).toISOString()}::timestamptz
        )
        RETURNING stored_name`);
      return new Set((removed as unknown as { rows: { stored_name: string }[] }).rows.map((r) => r.stored_name)).size;
    },
  };
  return storage;
}

/** Regroups a stream's chunks into blocks of exactly `size` bytes (the last one shorter). */
async function* inBlocks(source: AsyncIterable<Buffer>, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of source) {
    pending.push(chunk);
    pendingBytes += chunk.length;
    while (pendingBytes >= size) {
      const all = Buffer.concat(pending);
      yield all.subarray(0, size);
      pending = [all.subarray(size)];
      pendingBytes -= size;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending);
}

async function readAll(stream: Promise<Readable>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A file row's bytes as a stream; a row whose bytes are gone (restored backup, manual cleanup) is a missing file, not a server error. */
export async function openStored(app: { storage: Storage }, storedName: string): Promise<Readable> {
  return app.storage.open(storedName).catch(() => {
    throw notFound('File not found');
  });
}

/** What a download answer needs of a file row. */
type StoredFileRow = { storedName: string; contentType: string; size: number; originalName: string };

/**
 * A stored file as a download: its own type and length, the user's name as an attachment (never shown inline, never
 * sniffed), and personal bytes kept out of shared caches. `cache` is the one thing downloads differ in: a signed
 * link's bytes never change, so the service worker may keep them.
 */
export async function sendStoredFile(app: { storage: Storage }, reply: FastifyReply, row: StoredFileRow, cache: 'no-store' | 'immutable' = 'no-store') {
  const bytes = await openStored(app, row.storedName);
  return reply
    .header('content-type', row.contentType)
    .header('content-length', row.size)
    .header('content-disposition', contentDisposition(row.originalName))
    .header('cache-control', cache === 'immutable' ? 'private, max-age=31536000, immutable' : 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(bytes);
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The user's file name, kept for display and Content-Disposition (never for the disk): the last path
 * segment, no control characters, at most 200 characters, never empty. Browsers send a double quote in
 * a multipart file name as %22 (HTML's form encoding), so it is restored.
 */
export function cleanFileName(raw: string): string {
  const base = (raw.split(/[\\/]/).pop() ?? '').replace(/%22/g, '"');
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(-200);
  return clean || 'file';
}

/** RFC 6266: an ASCII fallback plus the exact UTF-8 name. */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${+(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}
