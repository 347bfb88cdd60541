import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { isOutOfSpace } from '../platform/service-faults.ts';
import { openDurablePglite } from './durable-pglite.ts';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Subscribes to a NOTIFY channel; returns the unsubscribe function. `onReconnect` runs each time the
   * listening connection is back after a drop: payloads sent while it was gone were missed.
   */
  listen(channel: string, onPayload: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}


/** The rows of a raw `db.execute` (node-postgres and PGlite both answer `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** How long PostgreSQL may take (docs/decisions/023-database-faults.md); PGlite runs in the process and has no connection. */
export interface DatabaseTimeouts {
  /** To open a connection, and to wait for a free one in the pool. */
  connectMs: number;
  /** One statement, cancelled by the server; the client gives up a little later when the server does not answer at all. */
  statementMs: number;
  /**
   * How often the listening connection is asked a `select 1`. It only receives, so a connection that died
   * without a word (a failover to another address, a firewall forgetting it) would otherwise go unnoticed
   * for as long as the operating system's keepalive takes, commonly more than ten minutes.
   */
  listenerCheckMs: number;
}

export const DEFAULT_TIMEOUTS: DatabaseTimeouts = { connectMs: 5_000, statementMs: 30_000, listenerCheckMs: 30_000 };

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** PGlite under dataDir by default; PostgreSQL when a URL is given. Same schema, same migrations. */
/**
 * `pgliteFsync: false` opens PGlite with its own defaults (no fsync at all, decision 021): only the bench that
 * measures what durable commits cost uses it.
 */
export async function openDatabase(opts: { url?: string; pgliteDir?: string; timeouts?: Partial<DatabaseTimeouts>; pgliteFsync?: boolean }): Promise<Database> {
  return opts.url ? openPostgres(opts.url, { ...DEFAULT_TIMEOUTS, ...opts.timeouts }) : openPglite(opts.pgliteDir, opts.pgliteFsync ?? true);
}

/** What an in-memory database starts from: a database migrated once, as PGlite saves a data directory. */
let migratedImage: Promise<Blob> | undefined;

/** A fresh PGlite with every migration run, saved as a data directory image. */
export async function migratedPgliteImage(): Promise<Blob> {
  const first = new PGlite();
  await first.waitReady;
  await migratePglite(drizzlePglite(first) as never, { migrationsFolder });
  const image = await first.dumpDataDir('none');
  await first.close();
  return image;
}

/**
 * In-memory databases start from this image instead of migrating one of their own: the server tests make it once per
 * run (tests/support/server-global-setup.ts), as every test file would otherwise pay for it again.
 */
export function startMemoryDatabasesFrom(image: Blob): void {
  migratedImage = Promise.resolve(image);
}

/**
 * An in-memory database (tests, benches) starts as a copy of a migrated one: running every migration costs about
 * 1.4 s of computing, loading the copy about 0.3 s. The migrations still run on the copy (applied already, they change
 * nothing, or apply what the image lacks), so the result is the same as a fresh database's.
 */
async function newMemoryPglite(): Promise<PGlite> {
  migratedImage ??= migratedPgliteImage().catch((err: unknown) => {
    migratedImage = undefined;
    throw err;
  });
  return new PGlite({ loadDataDir: await migratedImage });
}

async function openPglite(dir: string | undefined, fsync: boolean): Promise<Database> {
  let client: PGlite;
  let db: Db;
  try {
    if (dir) mkdirSync(dir, { recursive: true });
    client = !dir ? await newMemoryPglite() : fsync ? await openDurablePglite(dir) : new PGlite(dir);
    await client.waitReady;
    db = drizzlePglite(client, { schema }) as unknown as Db;
    await migratePglite(db as never, { migrationsFolder });
  } catch (err) {
    // PGlite's own file system reports a full disk as `ErrnoError { errno: 51 }`, which says nothing to an operator.
    if (isOutOfSpace(err)) throw new Error(`The disk is full: the database cannot be created or opened in ${dir ?? 'memory'} (no space left on device). Free some space and start the server again.`, { cause: err });
    throw err;
  }
  return {
    db,
    kind: 'pglite',
    // One process, no connection to lose: onReconnect never runs.
    async listen(channel, onPayload) {
      const unsub = await client.listen(channel, onPayload);
      return async () => unsub();
    },
    async notify(channel, payload) {
      await client.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    close: () => client.close(),
  };
}

async function openPostgres(url: string, timeouts: DatabaseTimeouts): Promise<Database> {
  const connection = {
    connectionString: url,
    connectionTimeoutMillis: timeouts.connectMs,
    keepAlive: true,
  };
  // Migrations may take as long as they need: their own connection, without the statement timeout.
  await migrateOn(connection);
  const pool = new pg.Pool({
    ...connection,
    max: 10,
    // The server cancels a statement after statementMs; when the server does not answer at all (paused,
    // or the network gone), the client gives up a little later. A connection whose query timed out is
    // dropped by the pool when that query came through pool.query (every query outside a transaction).
    statement_timeout: timeouts.statementMs,
    query_timeout: timeouts.statementMs + timeouts.connectMs,
    // A transaction left open by a crashed handler would hold its row locks for ever.
    idle_in_transaction_session_timeout: timeouts.statementMs * 2,
  });
  // An idle connection that dies (a restart, pg_terminate_backend, a network blip) is removed by the pool
  // and reported here; without a listener, the 'error' event would end the process.
  pool.on('error', (err) => console.warn(`database: an idle connection was lost (${err.message}); the pool opens a new one when needed`));
  // A connection lost while a request holds it (in a transaction) fails that request's query, and also
  // emits 'error' on the client, which the pool does not listen to while the client is checked out.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  const listener = createListener(connection, timeouts.listenerCheckMs);
  return {
    db,
    kind: 'postgres',
    listen: listener.listen,
    async notify(channel, payload) {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    async close() {
      await listener.close();
      await pool.end();
    },
  };
}

async function migrateOn(connection: pg.ClientConfig) {
  const client = new pg.Client(connection);
  client.on('error', () => undefined);
  await client.connect();
  try {
    await migratePg(drizzlePg(client, { schema }) as never, { migrationsFolder });
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Waits before the nth attempt to listen again: doubling from a quarter second to ten seconds, with jitter so instances do not reconnect in step. */
function reconnectDelay(attempt: number): number {
  const base = Math.min(10_000, 250 * 2 ** Math.min(attempt, 6));
  return base / 2 + Math.random() * (base / 2);
}

/**
 * LISTEN needs one dedicated connection; every instance holds one so pokes fan out across instances.
 * When it drops, it is opened again with backoff until the database answers, every channel with
 * subscribers is listened to again, and their onReconnect runs: what was sent meanwhile is lost.
 */
function createListener(connection: pg.ClientConfig & { connectionTimeoutMillis: number }, checkEveryMs: number) {
  const handlers = new Map<string, Set<(p: string) => void>>();
  const reconnects = new Set<() => void>();
  let current: pg.Client | undefined;
  let opening: Promise<pg.Client> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let attempt = 0;
  let closed = false;

  const quoted = (channel: string) => `"${channel.replace(/"/g, '')}"`;

  // A check that gets no answer in time counts as a drop: the connection is closed and opened again.
  let checking = false;
  const check = setInterval(() => {
    const client = current;
    if (!client || checking) return;
    checking = true;
    client
      .query({ text: 'select 1', query_timeout: connection.connectionTimeoutMillis } as pg.QueryConfig)
      .catch((err: Error) => {
        console.warn(`database: the listening connection does not answer (${err.message}); listening again`);
        dropped(client);
        client.connection.stream.destroy();
      })
      .finally(() => (checking = false));
  }, checkEveryMs);
  check.unref();

  async function open(): Promise<pg.Client> {
    const client = new pg.Client(connection);
    client.on('error', (err) => {
      console.warn(`database: the listening connection was lost (${err.message}); listening again`);
      dropped(client);
    });
    client.on('end', () => dropped(client));
    client.on('notification', (msg) => {
      for (const fn of handlers.get(msg.channel) ?? []) fn(msg.payload ?? '');
    });
    try {
      await client.connect();
      for (const channel of handlers.keys()) await client.query(`LISTEN ${quoted(channel)}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    return client;
  }

  function connected(): Promise<pg.Client> {
    if (current) return Promise.resolve(current);
    opening ??= open()
      .then((client) => {
        current = client;
        return client;
      })
      .finally(() => (opening = undefined));
    return opening;
  }

  function dropped(client: pg.Client) {
    if (client !== current) return;
    current = undefined;
    if (!closed) scheduleReconnect();
  }

  function scheduleReconnect() {
    if (retryTimer || closed) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connected()
        .then(() => {
          attempt = 0;
          if (!closed) for (const fn of reconnects) fn();
        })
        .catch(() => {
          attempt++;
          scheduleReconnect();
        });
    }, reconnectDelay(attempt));
    retryTimer.unref();
  }

  return {
    async listen(channel: string, onPayload: (p: string) => void, onReconnect?: () => void) {
      let set = handlers.get(channel);
      const isNew = !set;
      if (!set) handlers.set(channel, (set = new Set()));
      set.add(onPayload);
      if (onReconnect) reconnects.add(onReconnect);
      const client = await connected();
      // A connection opened by this very call already listens to it; LISTEN twice is harmless.
      if (isNew) await client.query(`LISTEN ${quoted(channel)}`);
      return async () => {
        set.delete(onPayload);
        if (onReconnect) reconnects.delete(onReconnect);
      };
    },
    async close() {
      closed = true;
      clearInterval(check);
      clearTimeout(retryTimer);
      const client = current ?? (await opening?.catch(() => undefined));
      current = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}
