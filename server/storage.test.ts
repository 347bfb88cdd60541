// Both file stores keep the same promises: bytes checked while they stream in (size, type, SHA-256),
// nothing left behind when a file is refused, and a missing file refused when opened.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServices, type Services } from './compose.ts';
import { createDatabaseStorage, createDiskStorage, DB_CHUNK_BYTES, type Storage } from './storage.ts';
import { backends, freshPostgresUrl, storedFileCount, testConfig } from './test-helper.ts';

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
