import type { Config } from './config.ts';
import { openDatabase, type Database, type Db } from './db/client.ts';
import { acquireDataDirLock } from './db/data-dir-lock.ts';
import { createEvents, type Events } from './platform/events.ts';
import { createIdentityProvider, type IdentityProvider } from './auth/firebase.ts';
import { removeOrphanFiles } from './files/orphan-files.ts';
import { createDatabaseStorage, createDiskStorage, type Storage } from './files/storage.ts';

/**
 * What the server talks to, opened once by the one composition root below and used by main.ts, the
 * seed, the tests and the bench. buildApp borrows these (as app.config, app.db, …); whoever opened
 * them closes them, after the app, so two apps can share one set (a test's second instance).
 */
export interface Services {
  config: Config;
  database: Database;
  db: Db;
  identity: IdentityProvider;
  events: Events;
  storage: Storage;
  /** Closes events, identity provider and database, in that order, then gives DATA_DIR back. */
  close(): Promise<void>;
}

export interface ServiceOptions {
  /** Another database than the config's: a PostgreSQL URL, or 'memory' for a fresh in-memory PGlite (tests, bench). */
  database?: { url: string } | 'memory';
  /** Another identity provider than the config's Firebase project (the bench's token stub); close() closes it too. */
  identity?: IdentityProvider;
}

export async function openServices(config: Config, options: ServiceOptions = {}): Promise<Services> {
  const target = databaseTarget(config, options.database);
  // One process per embedded data directory: a second one refuses here, before PGlite opens it.
  const lock = target.pgliteDir ? acquireDataDirLock(config.DATA_DIR) : undefined;
  let database: Database;
  try {
    database = await openDatabase(target);
  } catch (err) {
    lock?.release();
    throw err;
  }
  let events: Events;
  try {
    events = await createEvents(database);
  } catch (err) {
    await database.close();
    lock?.release();
    throw err;
  }
  // Instances sharing a PostgreSQL share its files too; the embedded default keeps them on local disk.
  const storage = database.kind === 'postgres' ? createDatabaseStorage(database.db, config.UPLOAD_MAX_BYTES) : createDiskStorage(config.filesDir, config.UPLOAD_MAX_BYTES);
  if (database.kind === 'pglite') {
    // The disk store belongs to this one process (one owner per data directory) and nothing is uploading
    // yet: every file no row names, whatever its age, is what a process killed mid-upload left behind.
    // Shared stores (PostgreSQL) are swept only past the grace age, by the periodic sweep. A failed sweep
    // costs disk space, not data: the server starts anyway and the periodic sweep tries again.
    const removed = await removeOrphanFiles(database.db, storage, Date.now()).catch((err: unknown) => {
      console.error('Removing stored files no row names failed at start; the hourly sweep will retry:', err);
      return 0;
    });
    if (removed > 0) console.log(`Removed ${removed} stored file(s) no row names (left by an upload cut off mid-way)`);
  }
  const identity = options.identity ?? createIdentityProvider(config);
  return {
    config,
    database,
    db: database.db,
    identity,
    events,
    storage,
    async close() {
      await events.close();
      await identity.close();
      await database.close();
      lock?.release();
    },
  };
}

/** PostgreSQL when the config (or the caller) names one, else PGlite under DATA_DIR, or in memory. */
function databaseTarget(config: Config, override: ServiceOptions['database']): Parameters<typeof openDatabase>[0] {
  if (override === 'memory') return {};
  const timeouts = { connectMs: config.DATABASE_CONNECT_TIMEOUT_MS, statementMs: config.DATABASE_STATEMENT_TIMEOUT_MS };
  if (override) return { url: override.url, timeouts };
  return { url: config.DATABASE_URL, pgliteDir: config.pgliteDir, timeouts };
}
