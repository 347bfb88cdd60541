import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { Events } from './events.ts';
import type { IdentityProvider } from './firebase.ts';
import type { Storage } from './storage.ts';

/** What every route module receives: the app's infrastructure, built once in main.ts or a test. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  identity: IdentityProvider;
  events: Events;
  storage: Storage;
}
