import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface SteppedDatabase {
  /** Runs a statement and returns its rows. */
  query<T>(statement: SQL): Promise<T[]>;
  /** Applies the migrations left (from `before` on). */
  migrateRest(): Promise<void>;
  close(): Promise<void>;
}

/**
 * For migration tests: a new database (PGlite, or one on the test PostgreSQL server at `postgresUrl`)
 * migrated up to, and not including, the migration whose tag starts with `before` ("0011"), so a test can
 * store rows as the older schema had them and then watch the migration change them.
 */
export async function databaseBefore(before: string, postgresUrl: string | null): Promise<SteppedDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), 'migrations-'));
  cpSync(migrationsFolder, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const pglite = postgresUrl ? null : new PGlite();
  const pool = postgresUrl ? new pg.Pool({ connectionString: postgresUrl }) : null;
  const db = pglite ? drizzlePglite(pglite) : drizzlePg(pool as pg.Pool);
  const migrate = () => (pglite ? migratePglite(db as never, { migrationsFolder: dir }) : migratePg(db as never, { migrationsFolder: dir }));
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.filter((e) => e.tag < before) }));
  await migrate();
  return {
    query: async <T>(statement: SQL) => ((await db.execute(statement)) as unknown as { rows: T[] }).rows,
    async migrateRest() {
      writeFileSync(journalPath, JSON.stringify(journal));
      await migrate();
    },
    async close() {
      await pglite?.close();
      await pool?.end();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
