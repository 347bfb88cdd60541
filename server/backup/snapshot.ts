import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import type { Database } from '../db/client.ts';
import { put, putMember, tarEnd } from './tar.ts';

/**
 * A consistent snapshot of the embedded database and its stored files
 * (docs/decisions/022-backup-and-restore.md). Taken by whichever process owns DATA_DIR: the running
 * server (asked through its control socket) or the backup script when no server runs.
 */

export const FORMAT = 'portal-backup/1';
export const DATABASE_MEMBER = 'database/pglite.tar';
export const MANIFEST_MEMBER = 'manifest.json';
export const fileMember = (storedName: string) => `files/${storedName}`;

export interface Manifest {
  format: typeof FORMAT;
  createdAt: string;
  source: { dataDir: string; host: string; takenBy: string; postgres: string };
  /** Rows per table of the snapshot, `schema.table`. */
  tables: Record<string, number>;
  /** Every other member of the archive with its size and SHA-256. */
  members: { name: string; size: number; sha256: string }[];
  /** Stored names the snapshot's `files` rows name but the store no longer held when it was taken. */
  missingFiles: string[];
}

/** The PGlite client under the server's embedded database; undefined on PostgreSQL. */
export function pgliteOf(database: Database): PGlite | undefined {
  const client = (database.db as unknown as { $client?: unknown }).$client;
  return database.kind === 'pglite' && client instanceof PGlite ? client : undefined;
}

/**
 * Writes the snapshot as a tar stream: the database's data directory first, then every file a `files`
 * row names. The directory is copied by PGlite while no statement runs, after a checkpoint, so it is
 * what a clean stop at that instant would leave. Files are written before their row commits and never
 * change afterwards, so listing the rows after the copy finds every file a copied row names (plus a few
 * of rows committed since, which a restore keeps as unnamed files); uploads still in flight are left out.
 */
export async function writeSnapshot(pglite: PGlite, filesDir: string, out: Writable): Promise<void> {
  await pglite.exec('CHECKPOINT');
  const dump = Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer());
  const { rows } = await pglite.query<{ stored_name: string }>('SELECT DISTINCT stored_name FROM files ORDER BY stored_name');
  await putMember(out, DATABASE_MEMBER, dump.length, dump);
  for (const { stored_name: storedName } of rows) {
    let handle;
    try {
      handle = await open(path.join(filesDir, path.basename(storedName)));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // the manifest lists it as missing
      throw err;
    }
    try {
      const { size, mtime } = await handle.stat();
      const body = size === 0 ? Buffer.alloc(0) : handle.createReadStream({ start: 0, end: size - 1, autoClose: false });
      await putMember(out, fileMember(path.basename(storedName)), size, body, mtime);
    } finally {
      await handle.close();
    }
  }
  await put(out, tarEnd());
}

/** What a data directory dump holds: rows per table, and each `files` row's stored name and SHA-256. */
export async function inspectDump(dump: Buffer): Promise<{ tables: Record<string, number>; files: { storedName: string; sha256: string }[]; postgres: string }> {
  const pglite = new PGlite({ loadDataDir: new Blob([new Uint8Array(dump)]) });
  try {
    return await inspect(pglite);
  } finally {
    await pglite.close();
  }
}

export async function inspect(pglite: PGlite): Promise<{ tables: Record<string, number>; files: { storedName: string; sha256: string }[]; postgres: string }> {
  const { rows: names } = await pglite.query<{ schema: string; name: string }>(
    `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
     WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2`,
  );
  const tables: Record<string, number> = {};
  for (const { schema, name } of names) {
    const quoted = `"${schema.replace(/"/g, '""')}"."${name.replace(/"/g, '""')}"`;
    const { rows } = await pglite.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${quoted}`);
    tables[`${schema}.${name}`] = rows[0].n;
  }
  const { rows: files } = await pglite.query<{ storedName: string; sha256: string }>('SELECT DISTINCT stored_name AS "storedName", sha256 FROM files ORDER BY 1');
  const { rows: version } = await pglite.query<{ v: string }>('SELECT version() AS v');
  return { tables, files, postgres: version[0].v };
}

export const sha256 = () => createHash('sha256');
