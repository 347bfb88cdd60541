// Backup and restore of the embedded database, with the real processes an operator runs: a server with
// rows and uploads, `npm run backup` while it runs, `npm run restore` into another directory, and the
// restored directory compared table by table and file by file, then served again.
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireDataDirLock } from '../db/data-dir-lock.ts';
import { durablePgliteOptions } from '../db/durable-pglite.ts';
import { migratedDataDir, type ServerProcess, startServerProcess } from '../server-process.ts';
import { emulatorHost, freshPostgresUrl, postgresSkipReason, signUp } from '../test-helper.ts';
import { inspect } from './snapshot.ts';

const backupCli = path.resolve(import.meta.dirname, 'backup-cli.ts');
const restoreCli = path.resolve(import.meta.dirname, 'restore-cli.ts');
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Runs one of the scripts as `npm run backup|restore` does; resolves with its exit code and output. */
function runScript(script: string, args: string[], dataDir: string, env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const { DATABASE_URL: _none, ...inherited } = process.env;
  const child = spawn(process.execPath, [script, ...args], { env: { ...inherited, DATA_DIR: dataDir, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

function uploadForm(name: string, bytes: Buffer): { body: Uint8Array<ArrayBuffer>; contentType: string } {
  const boundary = `----portal-${randomUUID()}`;
  const head = `--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="${name}"\r\ncontent-type: application/pdf\r\n\r\n`;
  const whole = Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { body: new Uint8Array(whole.buffer as ArrayBuffer, whole.byteOffset, whole.length), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Rows per table and the SHA-256 of every stored file of a DATA_DIR no process holds. */
async function contents(dataDir: string): Promise<{ tables: Record<string, number>; files: Record<string, string> }> {
  const lock = acquireDataDirLock(dataDir);
  const pglite = new PGlite(durablePgliteOptions(path.join(dataDir, 'pglite')));
  try {
    const { tables } = await inspect(pglite);
    const filesDir = path.join(dataDir, 'files');
    const files = Object.fromEntries(readdirSync(filesDir).map((name) => [name, sha256(readFileSync(path.join(filesDir, name)))]));
    return { tables, files };
  } finally {
    await pglite.close();
    lock.release();
  }
}

/** Two accounts with three contact requests and two uploads each, through the server's API. */
async function fill(server: ServerProcess): Promise<{ contactRows: number; uploads: { id: string; sha256: string; headers: Record<string, string> }[] }> {
  const uploads: { id: string; sha256: string; headers: Record<string, string> }[] = [];
  let contactRows = 0;
  for (let u = 0; u < 2; u++) {
    const token = await signUp(emulatorHost(), `b${Date.now()}-${randomUUID().slice(0, 8)}@test.example`, 'Secret#123');
    const headers = { authorization: `Bearer ${token.idToken}` };
    expect((await fetch(`${server.url}/api/user`, { headers })).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const contact = await fetch(`${server.url}/api/contact`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify({ contactRequest: { subject: `Question ${i}`, message: `Message ${i} of user ${u}` } }),
      });
      expect(contact.status).toBe(201);
      contactRows++;
    }
    for (let i = 0; i < 2; i++) {
      const bytes = randomBytes(150_000 + i * 70_000);
      bytes.write('%PDF-1.4\n', 0, 'latin1');
      const form = uploadForm(`statement-${i}.pdf`, bytes);
      const created = await fetch(`${server.url}/api/user/files`, { method: 'POST', headers: { ...headers, 'content-type': form.contentType }, body: form.body });
      expect(created.status).toBe(201);
      const { data } = (await created.json()) as { data: { files: { id: string }[] } };
      uploads.push({ id: data.files[0].id, sha256: sha256(bytes), headers });
    }
  }
  return { contactRows, uploads };
}

/**
 * One server with uploads allowed at any pace, for the tests that need a server running on its DATA_DIR but not its
 * rows: started by the first of them, stopped after the file. Each server start costs seconds of computing.
 */
let shared: Promise<{ server: ServerProcess; dataDir: string }> | undefined;
function sharedServer(): Promise<{ server: ServerProcess; dataDir: string }> {
  shared ??= (async () => {
    const dataDir = migratedDataDir('portal-backup-running-');
    const limits = { LEAD_UPLOAD_FILES_PER_DAY: '1000', LEAD_UPLOAD_MB_PER_DAY: '1000', LEAD_WRITE_LIMIT_PER_MINUTE: '1000', LEAD_WRITE_LIMIT_PER_DAY: '1000' };
    return { server: await startServerProcess({ DATA_DIR: dataDir, ...limits }), dataDir };
  })();
  return shared;
}
afterAll(async () => {
  const started = await shared?.catch(() => undefined);
  await started?.server.stop();
  if (started) rmSync(started.dataDir, { recursive: true, force: true });
});

describe('npm run backup and npm run restore (embedded database)', () => {
  const dirs: string[] = [];
  const dir = (prefix: string) => {
    const made = mkdtempSync(path.join(tmpdir(), prefix));
    dirs.push(made);
    return made;
  };
  let source: string;
  let server: ServerProcess | undefined;
  let uploads: { id: string; sha256: string; headers: Record<string, string> }[] = [];
  let contactRows = 0;

  beforeAll(async () => {
    source = migratedDataDir('portal-backup-source-');
    dirs.push(source);
    server = await startServerProcess({ DATA_DIR: source });
    ({ contactRows, uploads } = await fill(server));
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    for (const made of dirs) rmSync(made, { recursive: true, force: true });
  });

  it('backs up the running server, restores into an empty directory, and the copy holds every row and file', async () => {
    const archive = path.join(dir('portal-backup-archive-'), 'backup.tar.gz');
    const backup = await runScript(backupCli, [archive], source);
    expect(backup.output).toContain(`taken by the running server (pid ${server!.pid}`);
    expect(backup.code).toBe(0);

    const target = dir('portal-backup-target-');
    const restore = await runScript(restoreCli, [archive], target);
    expect(restore.output).toContain('every SHA-256 and row count checked');
    expect(restore.code).toBe(0);

    // The source as it stood (nothing was written after the backup), read once its server stopped.
    await server!.stop();
    server = undefined;
    const before = await contents(source);
    const after = await contents(target);
    expect(after.tables).toEqual(before.tables);
    expect(before.tables['public.contact_requests']).toBe(contactRows);
    expect(before.tables['public.files']).toBe(uploads.length);
    expect(after.files).toEqual(before.files);
    expect(Object.values(after.files).sort()).toEqual(uploads.map((u) => u.sha256).sort());

    // The restored directory serves: every upload downloads with its SHA-256.
    const restored = await startServerProcess({ DATA_DIR: target });
    try {
      for (const upload of uploads) {
        const download = await fetch(`${restored.url}/api/user/files/${upload.id}`, { headers: upload.headers });
        expect(download.status).toBe(200);
        expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(upload.sha256);
      }
    } finally {
      await restored.stop();
    }

    // With no server running, the script opens the directory itself and the result restores the same.
    const offlineArchive = path.join(path.dirname(archive), 'offline.tar.gz');
    const offline = await runScript(backupCli, [offlineArchive], source);
    expect(offline.output).toContain('no server was running');
    expect(offline.code).toBe(0);
    const second = dir('portal-backup-second-');
    expect((await runScript(restoreCli, [offlineArchive], second)).code).toBe(0);
    expect(await contents(second)).toEqual(before);
  }, 300_000);

  it('refuses to restore over a running server, into a directory that holds anything, or from a damaged archive', async () => {
    const { server: running, dataDir: runningDir } = await sharedServer();
    const archive = path.join(dir('portal-backup-archive-'), 'backup.tar.gz');
    expect((await runScript(backupCli, [archive], source)).code).toBe(0);
    const overRunning = await runScript(restoreCli, [archive], runningDir);
    expect(overRunning.code).toBe(1);
    expect(overRunning.output).toContain(`is in use by another process (pid ${running.pid}`);

    const notEmpty = dir('portal-backup-not-empty-');
    writeFileSync(path.join(notEmpty, 'notes.txt'), 'keep me');
    const refused = await runScript(restoreCli, [archive], notEmpty);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`DATA_DIR ${notEmpty} is not empty (notes.txt)`);
    expect(readdirSync(notEmpty)).toEqual(['notes.txt', 'owner.lock']);

    // One byte of one stored file changed inside the archive (the tar and gzip framing kept valid).
    const tar = gunzipSync(readFileSync(archive));
    const at = tar.indexOf(Buffer.from('%PDF-1.4\n')) + 20;
    tar[at] ^= 0xff;
    const damaged = path.join(path.dirname(archive), 'damaged.tar.gz');
    writeFileSync(damaged, gzipSync(tar));
    const empty = dir('portal-backup-empty-');
    const rejected = await runScript(restoreCli, [damaged], empty);
    expect(rejected.code).toBe(1);
    expect(rejected.output).toMatch(/files\/[0-9a-f-]+ does not match its SHA-256 in the manifest/);
    expect(readdirSync(empty)).toEqual(['owner.lock']);
  }, 300_000);
});

describe('a backup taken while uploads keep arriving (embedded database)', () => {
  it('restores to a database in which every files row has its file, with the SHA-256 of the row', async () => {
    const { server, dataDir } = await sharedServer();
    const target = mkdtempSync(path.join(tmpdir(), 'portal-backup-busy-target-'));
    try {
      const { uploads: before } = await fill(server);
      const { headers } = before[0];
      let uploading = true;
      let acknowledged = 0;
      const uploader = (async () => {
        for (let i = 0; uploading; i++) {
          const bytes = randomBytes(100_000);
          bytes.write('%PDF-1.4\n', 0, 'latin1');
          const form = uploadForm(`during-${i}.pdf`, bytes);
          const created = await fetch(`${server.url}/api/user/files`, { method: 'POST', headers: { ...headers, 'content-type': form.contentType }, body: form.body });
          expect(created.status).toBe(201);
          acknowledged++;
        }
      })();
      const archive = path.join(target, '..', `${path.basename(target)}.tar.gz`);
      const backup = await runScript(backupCli, [archive], dataDir);
      uploading = false;
      await uploader;
      expect(backup.code).toBe(0);
      expect(acknowledged).toBeGreaterThan(0);
      rmSync(target, { recursive: true });
      const restore = await runScript(restoreCli, [archive], target);
      rmSync(archive, { force: true });
      expect(restore.output).toContain('every SHA-256 and row count checked');
      expect(restore.code).toBe(0);
      const lock = acquireDataDirLock(target);
      const pglite = new PGlite(durablePgliteOptions(path.join(target, 'pglite')));
      try {
        const { files } = await inspect(pglite);
        expect(files.length).toBeGreaterThanOrEqual(before.length);
        for (const row of files) expect(sha256(readFileSync(path.join(target, 'files', row.storedName)))).toBe(row.sha256);
      } finally {
        await pglite.close();
        lock.release();
      }
    } finally {
      rmSync(target, { recursive: true, force: true });
    }
  }, 300_000);
});

describe('the backup socket', () => {
  it('serves the next backup after a reader that went away in the middle of one', async () => {
    const { server, dataDir } = await sharedServer();
    const archives = mkdtempSync(path.join(tmpdir(), 'portal-backup-gone-'));
    try {
      // The first reader takes one chunk of the snapshot (tens of MB) and hangs up.
      await new Promise<void>((resolve, reject) => {
        const req = request({ socketPath: path.join(dataDir, 'backup.sock'), path: '/snapshot' }, (res) => {
          expect(res.statusCode).toBe(200);
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', reject);
        req.end();
      });
      const archive = path.join(archives, 'after.tar.gz');
      const backup = await runScript(backupCli, [archive], dataDir);
      expect(backup.output).toContain(`taken by the running server (pid ${server.pid}`);
      expect(backup.code).toBe(0);
    } finally {
      rmSync(archives, { recursive: true, force: true });
    }
  }, 300_000);
});

describe.skipIf(postgresSkipReason())('npm run backup and npm run restore (DATABASE_URL)', () => {
  /** Rows per table, and each stored file's SHA-256 computed from its chunks. */
  async function pgContents(url: string): Promise<{ tables: Record<string, number>; files: Record<string, string> }> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows: names } = await client.query<{ name: string }>(
        `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
      );
      const tables: Record<string, number> = {};
      for (const { name } of names) tables[name] = Number((await client.query(`SELECT count(*) AS n FROM ${name.split('.').map((part) => client.escapeIdentifier(part)).join('.')}`)).rows[0].n);
      const { rows } = await client.query<{ stored_name: string; sha: string }>(`SELECT stored_name, encode(sha256(string_agg(data, ''::bytea ORDER BY part)), 'hex') AS sha FROM file_chunks GROUP BY 1`);
      return { tables, files: Object.fromEntries(rows.map((r) => [r.stored_name, r.sha])) };
    } finally {
      await client.end();
    }
  }

  it('dumps the database with its stored files, restores into an empty database, and the copy holds every row and file', async () => {
    const sourceUrl = await freshPostgresUrl();
    const server = await startServerProcess({ DATABASE_URL: sourceUrl, DOWNLOAD_SECRET: randomBytes(32).toString('base64url') });
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-backup-pg-'));
    try {
      const { uploads } = await fill(server);
      const archive = path.join(dataDir, 'backup.tar.gz');
      const backup = await runScript(backupCli, [archive], dataDir, { DATABASE_URL: sourceUrl });
      expect(backup.output).toContain('stored files included');
      expect(backup.code).toBe(0);
      const before = await pgContents(sourceUrl);

      const targetUrl = await freshPostgresUrl();
      const restore = await runScript(restoreCli, [archive], dataDir, { DATABASE_URL: targetUrl });
      expect(restore.output).toContain('every SHA-256 and row count checked');
      expect(restore.code).toBe(0);
      const after = await pgContents(targetUrl);
      expect(after).toEqual(before);
      expect(Object.values(after.files).sort()).toEqual(uploads.map((u) => u.sha256).sort());

      // Into a database that is not empty: refused.
      const again = await runScript(restoreCli, [archive], dataDir, { DATABASE_URL: targetUrl });
      expect(again.code).toBe(1);
      expect(again.output).toMatch(/restore only into an empty database/);
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
