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
import { openDurablePglite } from './durable-pglite.ts';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Subscribes to a NOTIFY channel; returns the unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** PGlite under dataDir by default; PostgreSQL when a URL is given. Same schema, same migrations. */
export async function openDatabase(opts: { url?: string; pgliteDir?: string }): Promise<Database> {
  return opts.url ? openPostgres(opts.url) : openPglite(opts.pgliteDir);
}

async function openPglite(dir?: string): Promise<Database> {
  if (dir) mkdirSync(dir, { recursive: true });
  const client = dir ? await openDurablePglite(dir) : new PGlite();
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder });
  return {
    db,
    kind: 'pglite',
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

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  await migratePg(db as never, { migrationsFolder });
  // LISTEN needs one dedicated connection; every instance holds one so pokes fan out across instances.
  let listener: pg.Client | undefined;
  const handlers = new Map<string, Set<(p: string) => void>>();
  async function listenerClient() {
    if (listener) return listener;
    listener = new pg.Client({ connectionString: url });
    await listener.connect();
    listener.on('notification', (msg) => {
      for (const fn of handlers.get(msg.channel) ?? []) fn(msg.payload ?? '');
    });
    return listener;
  }
  return {
    db,
    kind: 'postgres',
    async listen(channel, onPayload) {
      const client = await listenerClient();
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await client.query(`LISTEN "${channel.replace(/"/g, '')}"`);
      }
      set.add(onPayload);
      return async () => {
        set.delete(onPayload);
      };
    },
    async notify(channel, payload) {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    async close() {
      await listener?.end();
      await pool.end();
    },
  };
}
