import { spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { FORMAT, type Manifest, sha256 } from './snapshot.ts';

/**
 * Backup and restore with DATABASE_URL (docs/decisions/022-backup-and-restore.md): stored files are rows
 * of file_chunks (013), so pg_dump holds them. The rows per table and every stored file's SHA-256 are
 * read in the very snapshot pg_dump copies (`pg_dump --snapshot`), so the manifest describes the dump
 * exactly, and a restore can prove it got what was backed up.
 */

export const POSTGRES_MEMBER = 'database/postgres.dump';

/** Rows per table and each stored file's SHA-256 computed from its chunks, with the row's own. */
export async function postgresContents(client: pg.Client): Promise<{ tables: Record<string, number>; files: { storedName: string; rowSha256: string; chunksSha256: string | null }[]; postgres: string }> {
  const { rows: names } = await client.query<{ schema: string; name: string }>(
    `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
     WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2`,
  );
  const tables: Record<string, number> = {};
  for (const { schema, name } of names) {
    const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${client.escapeIdentifier(schema)}.${client.escapeIdentifier(name)}`);
    tables[`${schema}.${name}`] = rows[0].n;
  }
  // One file at a time on the server's side: each is at most UPLOAD_MAX_BYTES.
  const { rows: files } = await client.query<{ storedName: string; rowSha256: string; chunksSha256: string | null }>(
    `SELECT f.stored_name AS "storedName", min(f.sha256) AS "rowSha256",
            (SELECT encode(sha256(string_agg(c.data, ''::bytea ORDER BY c.part)), 'hex') FROM file_chunks c WHERE c.stored_name = f.stored_name) AS "chunksSha256"
     FROM files f GROUP BY f.stored_name ORDER BY 1`,
  );
  const { rows: version } = await client.query<{ v: string }>('SELECT version() AS v');
  return { tables, files, postgres: version[0].v };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'inherit', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'ENOENT' ? new Error(`${command} was not found: install the PostgreSQL client tools (the server's major version or newer), or name it in ${command.includes('restore') ? 'PG_RESTORE' : 'PG_DUMP'}`) : err),
    );
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} failed (exit code ${code}): ${errors.trim()}`))));
  });
}

/** Dumps the database behind `url` into a temporary file; returns it with the manifest's facts. */
export async function dumpPostgres(url: string): Promise<{ dumpFile: string; cleanup(): void; facts: Awaited<ReturnType<typeof postgresContents>> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-pg-backup-'));
  const dumpFile = path.join(dir, 'postgres.dump');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows } = await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id');
    const facts = await postgresContents(client);
    await run(process.env.PG_DUMP ?? 'pg_dump', ['--format=custom', `--snapshot=${rows[0].id}`, `--file=${dumpFile}`, `--dbname=${url}`], process.env);
    await client.query('COMMIT');
    return { dumpFile, cleanup: () => rmSync(dir, { recursive: true, force: true }), facts };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  } finally {
    await client.end();
  }
}

export function postgresManifest(facts: Awaited<ReturnType<typeof postgresContents>>, dumpFile: string, dumpSha256: string, source: Omit<Manifest['source'], 'postgres'>): Manifest {
  return {
    format: FORMAT,
    createdAt: new Date().toISOString(),
    source: { ...source, postgres: facts.postgres },
    tables: facts.tables,
    members: [{ name: POSTGRES_MEMBER, size: statSync(dumpFile).size, sha256: dumpSha256 }],
    missingFiles: facts.files.filter((f) => f.chunksSha256 === null).map((f) => f.storedName),
  };
}

export async function fileSha256(file: string): Promise<string> {
  const hash = sha256();
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Restores a dump into the empty database behind `url`, then compares rows per table and stored files with the manifest. */
export async function restorePostgres(url: string, dumpFile: string, manifest: Manifest): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    if (rows[0].n > 0) throw new Error(`the database behind DATABASE_URL holds ${rows[0].n} tables: restore only into an empty database (createdb a new one)`);
    await run(process.env.PG_RESTORE ?? 'pg_restore', ['--exit-on-error', '--no-owner', `--dbname=${url}`, dumpFile], process.env);
    const after = await postgresContents(client);
    for (const [table, count] of Object.entries(manifest.tables)) {
      if (after.tables[table] !== count) throw new Error(`table ${table} holds ${after.tables[table] ?? 'no'} rows after the restore, the manifest says ${count}`);
    }
    const missing = new Set(manifest.missingFiles);
    for (const file of after.files) {
      if (file.chunksSha256 === null && missing.has(file.storedName)) continue;
      if (file.chunksSha256 !== file.rowSha256) throw new Error(`stored file ${file.storedName} does not match its row's SHA-256 after the restore`);
    }
  } finally {
    await client.end();
  }
}
