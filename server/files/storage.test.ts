// Both file stores keep the same promises: bytes checked while they stream in (size, type, SHA-256),
// nothing left behind when a file is refused, and a missing file refused when opened.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { openServices, type Services } from '../compose.ts';
import { fileChunks, files, users } from '../db/schema.ts';
import { ORPHAN_GRACE_MS, removeOrphanFiles } from './orphan-files.ts';
import { createDatabaseStorage, createDiskStorage, DB_CHUNK_BYTES, INCOMING_SUFFIX, type Storage } from './storage.ts';
import { migratedDataDir } from '../server-process.ts';
import { backends, freshPostgresUrl, storedFileCount, testConfig } from '../test-helper.ts';

const MAX = 1024 * 1024;

/** The bytes in pieces of `size`, as a socket delivers them. */
async function* inPieces(data: Buffer, size: number) {
  for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
}

const pdf = (bytes: number) => Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(bytes - 9)]);
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const stores: [string, 'disk' | 'database', 'pglite' | 'postgres'][] = [
  ['local disk', 'disk', 'pglite'],
  ...backends().map((backend): [string, 'disk' | 'database', 'pglite' | 'postgres'] => [`the database (${backend})`, 'database', backend]),
];

describe.each(stores)('file storage on %s', (_name, kind, backend) => {
  let services: Services;
  let storage: Storage;
  let dir: string;
  const count = () => storedFileCount(services, kind);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'portal-storage-'));
    services = await openServices(testConfig(dir), { database: backend === 'postgres' ? { url: await freshPostgresUrl() } : 'memory' });
    storage = kind === 'disk' ? createDiskStorage(services.config.filesDir, MAX) : createDatabaseStorage(services.db, MAX);
  });
  afterAll(async () => {
    await services.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores a streamed file and reads back the same bytes, with its size, type and SHA-256', async () => {
    const data = pdf(DB_CHUNK_BYTES * 2 + 12_345);
    const stored = await storage.save(inPieces(data, 64 * 1024), 'statement.pdf');
    expect(stored).toMatchObject({ contentType: 'application/pdf', size: data.length, sha256: sha256(data) });
    expect(sha256(await storage.read(stored.storedName))).toBe(sha256(data));
    await storage.remove(stored.storedName);
    await expect(storage.open(stored.storedName)).rejects.toThrow();
  });

  it('takes UTF-8 text whose characters straddle two pieces, and refuses text with a NUL', async () => {
    const text = Buffer.from('Reçu n° 42 — 100 € payés '.repeat(400));
    expect((await storage.save(inPieces(text, 7), 'receipt.txt')).contentType).toBe('text/plain');
    const before = await count();
    await expect(storage.save(inPieces(Buffer.concat([text, Buffer.from([0])]), 4096), 'x.txt')).rejects.toMatchObject({ statusCode: 415 });
    expect(await count()).toBe(before);
  });

  it('refuses a disallowed type from its first bytes, an oversized file and an empty one, leaving nothing behind', async () => {
    const before = await count();
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), randomBytes(DB_CHUNK_BYTES)]);
    await expect(storage.save(inPieces(elf, 64 * 1024), 'invoice.pdf')).rejects.toMatchObject({ statusCode: 415, code: 'UNSUPPORTED_FILE_TYPE' });
    await expect(storage.save(inPieces(pdf(MAX + 1), 64 * 1024), 'big.pdf')).rejects.toMatchObject({ statusCode: 413, code: 'FILE_TOO_LARGE' });
    await expect(storage.save(Buffer.alloc(0), 'empty.pdf')).rejects.toMatchObject({ statusCode: 400, code: 'EMPTY_FILE' });
    expect(await count()).toBe(before);
  });

  it('removes what it wrote when the upload breaks off mid-way', async () => {
    const before = await count();
    async function* brokenOff() {
      yield pdf(DB_CHUNK_BYTES + 1);
      throw new Error('connection reset');
    }
    await expect(storage.save(brokenOff(), 'cut.pdf')).rejects.toThrow('connection reset');
    expect(await count()).toBe(before);
  });
});

/** A files row naming a stored file, as an upload's transaction commits it. */
async function nameInRow(services: Services, storedName: string) {
  const uid = `sweep-${randomUUID()}`;
  await services.db.insert(users).values({ uid, email: `${uid}@sweep.example` });
  await services.db.insert(files).values({ userId: uid, kind: 'general', originalName: 'kept.pdf', storedName, contentType: 'application/pdf', size: 1, sha256: 'x' });
}

describe.each(stores)('orphan sweep on %s', (_name, kind, backend) => {
  let services: Services;
  let storage: Storage;
  let dir: string;
  const names = async () =>
    kind === 'disk'
      ? (await readdir(services.config.filesDir)).sort()
      : (await services.db.selectDistinct({ name: fileChunks.storedName }).from(fileChunks)).map((r) => r.name).sort();
  /** Makes a stored file look last written `minutes` ago. */
  const age = async (storedName: string, minutes: number) => {
    const when = new Date(Date.now() - minutes * 60_000);
    if (kind === 'disk') await utimes(path.join(services.config.filesDir, storedName), when, when);
    else await services.db.update(fileChunks).set({ createdAt: when.toISOString() }).where(eq(fileChunks.storedName, storedName));
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'portal-sweep-'));
    services = await openServices(testConfig(dir), { database: backend === 'postgres' ? { url: await freshPostgresUrl() } : 'memory' });
    storage = kind === 'disk' ? createDiskStorage(services.config.filesDir, MAX) : createDatabaseStorage(services.db, MAX);
  });
  afterAll(async () => {
    await services.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('removes old files no row names, keeps every file a row names, and leaves recent ones (uploads in flight) alone', async () => {
    const named = (await storage.save(pdf(DB_CHUNK_BYTES + 10), 'named.pdf')).storedName;
    const orphan = (await storage.save(pdf(2000), 'orphan.pdf')).storedName;
    const inFlight = (await storage.save(pdf(2000), 'in-flight.pdf')).storedName;
    await nameInRow(services, named);
    await age(named, 600);
    await age(orphan, 120);
    const expected = [named, inFlight];
    if (kind === 'disk') {
      // What kill -9 mid-upload leaves: a short file under its temporary name, never a row's.
      const cut = `${randomUUID()}${INCOMING_SUFFIX}`;
      await writeFile(path.join(services.config.filesDir, cut), pdf(500));
      await age(cut, 120);
    }
    expect(await removeOrphanFiles(services.db, storage, Date.now() - ORPHAN_GRACE_MS)).toBe(kind === 'disk' ? 2 : 1);
    expect(await names()).toEqual(expected.sort());
    // The named file is whole; the recent one is removed too once it is past the cutoff with still no row.
    expect(sha256(await storage.read(named)).length).toBe(64);
    expect(await removeOrphanFiles(services.db, storage, Date.now() + 1000)).toBe(1);
    expect(await names()).toEqual([named]);
  });
});

describe('the disk store at start', () => {
  it('removes every file no row names (whatever its age) and keeps the named ones, when the data directory is opened', async () => {
    const dataDir = migratedDataDir('portal-start-sweep-');
    try {
      const config = testConfig(dataDir);
      const first = await openServices(config);
      const named = (await first.storage.save(pdf(3000), 'named.pdf')).storedName;
      await nameInRow(first, named);
      // A killed process's leftovers: a whole file whose row never committed, and a cut-off temporary file.
      const unnamed = (await first.storage.save(pdf(3000), 'unnamed.pdf')).storedName;
      const cut = `${randomUUID()}${INCOMING_SUFFIX}`;
      await writeFile(path.join(config.filesDir, cut), pdf(100));
      await first.close();
      expect((await readdir(config.filesDir)).sort()).toEqual([named, unnamed, cut].sort());

      const second = await openServices(config);
      try {
        expect(await readdir(config.filesDir)).toEqual([named]);
        expect(sha256(await second.storage.read(named)).length).toBe(64);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

/**
 * Durability is in the system calls: the bytes are fsync'd under the temporary name, then renamed, then
 * the directory is fsync'd, all before save() returns. strace shows them in order (Linux, where strace is).
 */
describe.skipIf(!existsSync('/usr/bin/strace'))('the disk store flushes a file before it is named', () => {
  it('fsync of the file, rename to its stored name, fsync of the directory, in that order', () => {
    const work = mkdtempSync(path.join(tmpdir(), 'portal-fsync-'));
    try {
      const script = path.join(work, 'save.ts');
      const filesDir = path.join(work, 'files');
      writeFileSync(
        script,
        `import { createDiskStorage } from ${JSON.stringify(path.resolve(import.meta.dirname, 'storage.ts'))};
         const storage = createDiskStorage(${JSON.stringify(filesDir)}, 1024 * 1024);
         const stored = await storage.save(Buffer.from('%PDF-1.4\\n' + 'x'.repeat(5000)), 'a.pdf');
         console.log('STORED ' + stored.storedName);`,
      );
      const trace = path.join(work, 'trace');
      const run = spawnSync('/usr/bin/strace', ['-f', '-e', 'trace=openat,fsync,fdatasync,rename,renameat,renameat2', '-o', trace, process.execPath, script], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status, run.stderr).toBe(0);
      const storedName = /STORED (\S+)/.exec(run.stdout)?.[1] ?? '';
      expect(storedName).not.toBe('');
      const lines = readFileSync(trace, 'utf8').split('\n');
      const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
      const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const openIncoming = lines[at(new RegExp(`openat\\(.*${esc(storedName + INCOMING_SUFFIX)}".*= \\d+$`))] ?? '';
      const fileFd = /= (\d+)$/.exec(openIncoming)?.[1];
      expect(fileFd, 'the temporary file is opened').toBeDefined();
      const fileSync = at(new RegExp(`f(data)?sync\\(${fileFd}\\)`));
      const renamed = at(new RegExp(`rename.*${esc(storedName + INCOMING_SUFFIX)}".*${esc(storedName)}"`));
      const dirOpens = lines.flatMap((line, i) => (new RegExp(`openat\\(.*"${esc(filesDir)}", O_RDONLY.*= (\\d+)$`).test(line) && i > renamed ? [i] : []));
      const dirFd = /= (\d+)$/.exec(lines[dirOpens[0]] ?? '')?.[1];
      const dirSync = lines.findIndex((line, i) => i > (dirOpens[0] ?? Infinity) && new RegExp(`f(data)?sync\\(${dirFd}\\)`).test(line));
      expect(fileSync, 'the file is fsynced').toBeGreaterThan(-1);
      expect(renamed, 'the file is renamed after its fsync').toBeGreaterThan(fileSync);
      expect(dirSync, 'the directory is fsynced after the rename').toBeGreaterThan(renamed);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);
});
