// `npm run backup [-- <archive.tar.gz>]`: one archive holding a consistent snapshot of the embedded
// database and its stored files, a manifest with the rows per table and the SHA-256 of every member
// (docs/decisions/022-backup-and-restore.md). While a server runs on DATA_DIR it takes the snapshot
// (it alone may open the directory) and streams it here over DATA_DIR/backup.sock; with none running,
// this script takes DATA_DIR's lock and opens it itself. With DATABASE_URL, the archive holds pg_dump's
// dump, whose file_chunks table holds the stored files, and the manifest every file's SHA-256 in that snapshot.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync, rmSync, type WriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { request } from 'node:http';
import { hostname } from 'node:os';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { createGzip, type Gzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { z } from 'zod';
import { acquireDataDirLock, DataDirInUseError, liveDataDirHolder } from '../db/data-dir-lock.ts';
import { durablePgliteOptions } from '../db/durable-pglite.ts';
import { controlSocketPath } from './control-socket.ts';
import { dumpPostgres, fileSha256, POSTGRES_MEMBER, postgresManifest } from './postgres.ts';
import { DATABASE_MEMBER, FORMAT, fileMember, inspectDump, type Manifest, MANIFEST_MEMBER, sha256, writeSnapshot } from './snapshot.ts';
import { put, putMember, readTar, tarEnd } from './tar.ts';

const Env = z.object({
  DATA_DIR: z.string().min(1).default('data'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL').optional(),
});

class BackupError extends Error {}

/** The raw snapshot from the server holding DATA_DIR, over its owner-only socket. */
function snapshotFromServer(dataDir: string, holderPid: number): Promise<Readable> {
  const socketPath = controlSocketPath(dataDir);
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path: '/snapshot', method: 'GET' }, (res) => {
      if (res.statusCode === 200) return resolve(res);
      res.resume();
      reject(new BackupError(`the server (pid ${holderPid}) refused the snapshot: ${res.statusCode}`));
    });
    req.on('error', (err) =>
      reject(new BackupError(`DATA_DIR ${dataDir} is held by pid ${holderPid}, but its backup socket ${socketPath} does not answer (${err.message}). Is it a server of this version?`)),
    );
    req.end();
  });
}

/** The raw snapshot taken by this process, which holds DATA_DIR's lock while it runs. */
function snapshotHere(dataDir: string): Readable {
  const pgliteDir = path.join(dataDir, 'pglite');
  if (!existsSync(path.join(pgliteDir, 'PG_VERSION'))) throw new BackupError(`there is no embedded database under ${pgliteDir}`);
  const lock = acquireDataDirLock(dataDir);
  const out = new PassThrough();
  void (async () => {
    const pglite = new PGlite(durablePgliteOptions(pgliteDir));
    try {
      await pglite.waitReady;
      await writeSnapshot(pglite, path.join(dataDir, 'files'), out);
      out.end();
    } catch (err) {
      out.destroy(err as Error);
    } finally {
      await pglite.close().catch(() => undefined);
      lock.release();
    }
  })();
  return out;
}

/** Copies the raw snapshot into the archive, hashing each member; then checks it and adds the manifest. */
async function writeArchive(raw: Readable, archivePath: string, source: Omit<Manifest['source'], 'postgres'>): Promise<Manifest> {
  const partial = `${archivePath}.${randomUUID().slice(0, 8)}.partial`;
  const gzip = createGzip();
  const file = createWriteStream(partial, { flags: 'wx', mode: 0o600 });
  gzip.pipe(file);
  try {
    const members: Manifest['members'] = [];
    let dump: Buffer | undefined;
    for await (const member of readTar(raw)) {
      const hash = sha256();
      const kept: Buffer[] = [];
      const isDatabase = member.name === DATABASE_MEMBER;
      await putMember(
        gzip,
        member.name,
        member.size,
        (async function* () {
          for await (const chunk of member.body) {
            hash.update(chunk);
            if (isDatabase) kept.push(chunk);
            yield chunk;
          }
        })(),
      );
      if (isDatabase) dump = Buffer.concat(kept);
      members.push({ name: member.name, size: member.size, sha256: hash.digest('hex') });
    }
    if (!dump) throw new BackupError('the snapshot holds no database');
    // The dump opened as a database of its own: proves it opens, and counts what it holds.
    const inside = await inspectDump(dump);
    const byName = new Map(members.map((m) => [m.name, m]));
    const missingFiles: string[] = [];
    for (const row of inside.files) {
      const member = byName.get(fileMember(row.storedName));
      if (!member) missingFiles.push(row.storedName);
      else if (member.sha256 !== row.sha256) throw new BackupError(`stored file ${row.storedName} does not match its row's SHA-256: the store is damaged`);
    }
    const manifest: Manifest = {
      format: FORMAT,
      createdAt: new Date().toISOString(),
      source: { ...source, postgres: inside.postgres },
      tables: inside.tables,
      members,
      missingFiles,
    };
    await closeArchive(gzip, file, partial, archivePath, manifest);
    return manifest;
  } catch (err) {
    gzip.destroy();
    file.destroy();
    rmSync(partial, { force: true });
    throw err;
  }
}

/** The manifest as the archive's last member, then the archive on disk (fsync) and moved to its name in one step. */
async function closeArchive(gzip: Gzip, file: WriteStream, partial: string, archivePath: string, manifest: Manifest): Promise<void> {
  const body = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  await putMember(gzip, MANIFEST_MEMBER, body.length, body);
  await put(gzip, tarEnd());
  gzip.end();
  await finished(file);
  const handle = await open(partial, 'r+');
  await handle.sync();
  await handle.close();
  renameSync(partial, archivePath);
}

/** DATABASE_URL: pg_dump of one snapshot, in which the rows were also counted and the stored files hashed. */
async function writePostgresArchive(url: string, archivePath: string): Promise<Manifest> {
  const { dumpFile, cleanup, facts } = await dumpPostgres(url);
  const partial = `${archivePath}.${randomUUID().slice(0, 8)}.partial`;
  try {
    const damaged = facts.files.filter((f) => f.chunksSha256 !== null && f.chunksSha256 !== f.rowSha256);
    if (damaged.length) throw new BackupError(`stored files do not match their rows' SHA-256: ${damaged.map((f) => f.storedName).join(', ')}`);
    const redacted = new URL(url);
    redacted.password = '';
    const manifest = postgresManifest(facts, dumpFile, await fileSha256(dumpFile), { dataDir: redacted.toString(), host: hostname(), takenBy: 'npm run backup (pg_dump)' });
    const gzip = createGzip();
    const file = createWriteStream(partial, { flags: 'wx', mode: 0o600 });
    gzip.pipe(file);
    await putMember(gzip, POSTGRES_MEMBER, manifest.members[0].size, createReadStream(dumpFile));
    await closeArchive(gzip, file, partial, archivePath, manifest);
    return manifest;
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  } finally {
    cleanup();
  }
}

const stamp = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');

async function main(): Promise<number> {
  const parsed = Env.safeParse(process.env);
  if (!parsed.success) throw new BackupError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
  const env = parsed.data;
  const archivePath = path.resolve(process.argv[2] ?? path.join('backups', `portal-backup-${stamp()}.tar.gz`));
  if (existsSync(archivePath)) throw new BackupError(`${archivePath} exists already; name another archive`);
  mkdirSync(path.dirname(archivePath), { recursive: true });
  if (env.DATABASE_URL) {
    const manifest = await writePostgresArchive(env.DATABASE_URL, archivePath);
    const rows = Object.values(manifest.tables).reduce((a, b) => a + b, 0);
    console.log(`Backup written to ${archivePath}`);
    console.log(`  pg_dump of ${Object.keys(manifest.tables).length} tables, ${rows} rows, stored files included (file_chunks): every one's SHA-256 checked`);
    return 0;
  }
  const dataDir = path.resolve(env.DATA_DIR);
  const holder = liveDataDirHolder(dataDir);
  const raw = holder ? await snapshotFromServer(dataDir, holder.pid) : snapshotHere(dataDir);
  const takenBy = holder ? `the running server (pid ${holder.pid}, ${holder.command})` : 'npm run backup (no server was running)';
  const manifest = await writeArchive(raw, archivePath, { dataDir, host: hostname(), takenBy });
  const files = manifest.members.filter((m) => m.name.startsWith('files/'));
  const rows = Object.values(manifest.tables).reduce((a, b) => a + b, 0);
  console.log(`Backup written to ${archivePath}`);
  console.log(`  taken by ${takenBy}`);
  console.log(`  ${Object.keys(manifest.tables).length} tables, ${rows} rows; ${files.length} stored files (${files.reduce((a, f) => a + f.size, 0)} bytes)`);
  if (manifest.missingFiles.length) {
    console.warn(`  warning: ${manifest.missingFiles.length} files named by rows were already missing from the store: ${manifest.missingFiles.join(', ')}`);
  }
  return 0;
}

try {
  process.exitCode = await main();
} catch (err) {
  if (err instanceof BackupError || err instanceof DataDirInUseError) {
    console.error(`Backup failed: ${err.message}`);
    process.exitCode = 1;
  } else {
    throw err;
  }
}
