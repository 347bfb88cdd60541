// The embedded database's commits reach the disk before they are acknowledged: PostgreSQL inside
// PGlite runs with fsync on, and a commit calls fsync(2) on the WAL file it wrote.
import fs, { mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client.ts';

/** The paths fsync(2) was called on while `run` ran (Linux: each descriptor's path from /proc). */
async function syncedPaths(run: () => Promise<unknown>): Promise<string[]> {
  const paths: string[] = [];
  const real = fs.fsyncSync;
  fs.fsyncSync = (fd) => {
    paths.push(readlinkSync(`/proc/self/fd/${fd}`));
    real(fd);
  };
  syncBuiltinESMExports();
  try {
    await run();
  } finally {
    fs.fsyncSync = real;
    syncBuiltinESMExports();
  }
  return paths;
}

describe.skipIf(process.platform !== 'linux')('PGlite on disk', () => {
  let dir: string;
  let database: Database;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'portal-durable-'));
    database = await openDatabase({ pgliteDir: path.join(dir, 'pglite') });
    await database.db.execute(sql`CREATE TABLE durability_probe (id serial PRIMARY KEY, v text NOT NULL)`);
  });
  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs PostgreSQL with fsync on', async () => {
    const result = (await database.db.execute(sql`SHOW fsync`)) as unknown as { rows: { fsync: string }[] };
    expect(result.rows[0].fsync).toBe('on');
  });

  it('fsyncs the WAL before a commit is acknowledged', async () => {
    const synced = await syncedPaths(() => database.db.execute(sql`INSERT INTO durability_probe (v) VALUES ('acknowledged')`));
    expect(synced.some((file) => file.startsWith(path.join(dir, 'pglite', 'pg_wal') + path.sep))).toBe(true);
  });

  it('fsyncs once per committed transaction, not per statement', async () => {
    const synced = await syncedPaths(() =>
      database.db.transaction(async (tx) => {
        for (let i = 0; i < 5; i++) await tx.execute(sql`INSERT INTO durability_probe (v) VALUES (${`row ${i}`})`);
      }),
    );
    expect(synced.filter((file) => file.includes(`${path.sep}pg_wal${path.sep}`))).toHaveLength(1);
  });
});
