// `npm run restore <archive.tar.gz>`: puts a backup made by `npm run backup` into an empty DATA_DIR
// (docs/decisions/022-backup-and-restore.md). Refuses while any process holds DATA_DIR (a running
// server) and when DATA_DIR holds anything; checks every member's SHA-256 against the manifest, opens
// the restored database and compares its rows per table with the manifest and every stored file with
// its row's SHA-256, and only then moves the result into place.
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { z } from 'zod';
import { acquireDataDirLock, DataDirInUseError, LOCK_DIR_NAME } from '../db/data-dir-lock.ts';
import { durablePgliteOptions, syncTree } from '../db/durable-pglite.ts';
import { POSTGRES_MEMBER, restorePostgres } from './postgres.ts';
import { DATABASE_MEMBER, FORMAT, inspect, type Manifest, MANIFEST_MEMBER, sha256 } from './snapshot.ts';
import { put, readTar } from './tar.ts';

const Env = z.object({
  DATA_DIR: z.string().min(1).default('data'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL').optional(),
});

const ManifestSchema = z.object({
  format: z.literal(FORMAT),
  createdAt: z.string(),
  source: z.object({ dataDir: z.string(), host: z.string(), takenBy: z.string(), postgres: z.string() }),
  tables: z.record(z.string(), z.number().int().nonnegative()),
  members: z.array(z.object({ name: z.string(), size: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
  missingFiles: z.array(z.string()),
});

class RestoreError extends Error {}

/** Where a member goes under the staging directory; anything else in an archive is refused. */
function stagedPath(staging: string, name: string): string {
  if (name === DATABASE_MEMBER) return path.join(staging, 'pglite.tar');
  if (name === POSTGRES_MEMBER) return path.join(staging, 'postgres.dump');
  const file = /^files\/([0-9A-Za-z-]{1,80})$/.exec(name);
  if (file) return path.join(staging, 'files', file[1]);
  throw new RestoreError(`the archive holds an unexpected member ${name}`);
}

async function syncFile(file: string): Promise<void> {
  const handle = await open(file, 'r');
  await handle.sync();
  await handle.close();
}

async function unpack(archive: string, staging: string): Promise<{ manifest: Manifest; seen: Map<string, { size: number; sha256: string }> }> {
  mkdirSync(path.join(staging, 'files'), { recursive: true });
  const seen = new Map<string, { size: number; sha256: string }>();
  let manifestText: string | undefined;
  for await (const member of readTar(createReadStream(archive).pipe(createGunzip()))) {
    if (member.name === MANIFEST_MEMBER) {
      const parts: Buffer[] = [];
      for await (const chunk of member.body) parts.push(chunk);
      manifestText = Buffer.concat(parts).toString('utf8');
      continue;
    }
    if (seen.has(member.name)) throw new RestoreError(`the archive holds ${member.name} twice`);
    const target = stagedPath(staging, member.name);
    const hash = sha256();
    const out = createWriteStream(target, { flags: 'wx', mode: 0o600 });
    for await (const chunk of member.body) {
      hash.update(chunk);
      await put(out, chunk);
    }
    out.end();
    await finished(out);
    await syncFile(target);
    seen.set(member.name, { size: member.size, sha256: hash.digest('hex') });
  }
  if (!manifestText) throw new RestoreError('the archive has no manifest.json: not a backup of this portal, or truncated');
  const parsed = ManifestSchema.safeParse(JSON.parse(manifestText));
  if (!parsed.success) throw new RestoreError(`the manifest is not one this version reads: ${parsed.error.issues[0]?.message}`);
  return { manifest: parsed.data as Manifest, seen };
}

function checkMembers(manifest: Manifest, seen: Map<string, { size: number; sha256: string }>, database: string): void {
  const listed = new Set(manifest.members.map((m) => m.name));
  for (const member of manifest.members) {
    const got = seen.get(member.name);
    if (!got) throw new RestoreError(`${member.name} is listed in the manifest but missing from the archive`);
    if (got.size !== member.size || got.sha256 !== member.sha256) throw new RestoreError(`${member.name} does not match its SHA-256 in the manifest: the archive is damaged`);
  }
  for (const name of seen.keys()) if (!listed.has(name)) throw new RestoreError(`${name} is in the archive but not in its manifest`);
  if (!listed.has(database)) {
    throw new RestoreError(
      listed.has(DATABASE_MEMBER) || listed.has(POSTGRES_MEMBER)
        ? `this archive is of the ${listed.has(DATABASE_MEMBER) ? 'embedded database (unset DATABASE_URL to restore it)' : 'PostgreSQL database (set DATABASE_URL to an empty database to restore it)'}`
        : 'the archive holds no database',
    );
  }
}

/** DATABASE_URL: the dump into that (empty) database; rows and stored files compared with the manifest. */
async function restoreIntoPostgres(url: string, archive: string): Promise<void> {
  const staging = mkdtempSync(path.join(tmpdir(), 'portal-pg-restore-'));
  try {
    const { manifest, seen } = await unpack(archive, staging);
    checkMembers(manifest, seen, POSTGRES_MEMBER);
    await restorePostgres(url, path.join(staging, 'postgres.dump'), manifest).catch((err: Error) => {
      throw new RestoreError(err.message);
    });
    const rows = Object.values(manifest.tables).reduce((a, b) => a + b, 0);
    console.log(`Restored ${archive} into the database behind DATABASE_URL`);
    console.log(`  backup of ${manifest.createdAt}; ${Object.keys(manifest.tables).length} tables, ${rows} rows: every SHA-256 and row count checked`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const parsed = Env.safeParse(process.env);
  if (!parsed.success) throw new RestoreError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
  const env = parsed.data;
  const archive = process.argv[2];
  if (!archive) throw new RestoreError('name the archive: npm run restore <archive.tar.gz>');
  if (env.DATABASE_URL) return restoreIntoPostgres(env.DATABASE_URL, path.resolve(archive));
  const dataDir = path.resolve(env.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const lock = acquireDataDirLock(dataDir);
  const staging = path.join(dataDir, `.restoring-${process.pid}`);
  try {
    const present = readdirSync(dataDir).filter((name) => name !== LOCK_DIR_NAME);
    if (present.length) {
      throw new RestoreError(`DATA_DIR ${dataDir} is not empty (${present.slice(0, 5).join(', ')}${present.length > 5 ? ', …' : ''}): restore only into an empty directory (move this one aside, or set DATA_DIR to a new one)`);
    }
    const { manifest, seen } = await unpack(path.resolve(archive), staging);
    checkMembers(manifest, seen, DATABASE_MEMBER);
    const pgliteDir = path.join(staging, 'pglite');
    const dump = await readFile(path.join(staging, 'pglite.tar'));
    const pglite = new PGlite({ ...durablePgliteOptions(pgliteDir), loadDataDir: new Blob([new Uint8Array(dump)]) });
    let inside;
    try {
      await pglite.waitReady;
      inside = await inspect(pglite);
    } finally {
      await pglite.close();
    }
    rmSync(path.join(staging, 'pglite.tar'));
    for (const [table, rows] of Object.entries(manifest.tables)) {
      if (inside.tables[table] !== rows) throw new RestoreError(`table ${table} holds ${inside.tables[table] ?? 'no'} rows after the restore, the manifest says ${rows}`);
    }
    for (const table of Object.keys(inside.tables)) if (!(table in manifest.tables)) throw new RestoreError(`table ${table} is not in the manifest`);
    const missing = new Set(manifest.missingFiles);
    for (const row of inside.files) {
      const member = seen.get(`files/${row.storedName}`);
      if (!member && missing.has(row.storedName)) continue; // already missing when the backup was taken
      if (!member) throw new RestoreError(`stored file ${row.storedName} of a files row is not in the archive`);
      if (member.sha256 !== row.sha256) throw new RestoreError(`stored file ${row.storedName} does not match its row's SHA-256`);
    }
    syncTree(staging);
    renameSync(pgliteDir, path.join(dataDir, 'pglite'));
    renameSync(path.join(staging, 'files'), path.join(dataDir, 'files'));
    rmSync(staging, { recursive: true });
    syncTree(dataDir);
    const rows = Object.values(manifest.tables).reduce((a, b) => a + b, 0);
    console.log(`Restored ${archive} into ${dataDir}`);
    console.log(`  backup of ${manifest.createdAt}, taken by ${manifest.source.takenBy}`);
    console.log(`  ${Object.keys(manifest.tables).length} tables, ${rows} rows, ${seen.size - 1} stored files: every SHA-256 and row count checked`);
    if (manifest.missingFiles.length) console.warn(`  warning: ${manifest.missingFiles.length} files were already missing when the backup was taken: ${manifest.missingFiles.join(', ')}`);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  } finally {
    lock.release();
  }
}

try {
  await main();
} catch (err) {
  if (err instanceof RestoreError || err instanceof DataDirInUseError) {
    console.error(`Restore refused: ${err.message}`);
    process.exitCode = 1;
  } else {
    throw err;
  }
}
