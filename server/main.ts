import path from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { createEvents } from './events.ts';
import { createIdentityProvider } from './firebase.ts';
import { createDiskStorage } from './storage.ts';
import { pruneIdempotencyKeys } from './plugins/idempotency.ts';

const config = loadConfig();
const database = await openDatabase({ url: config.DATABASE_URL, pgliteDir: config.pgliteDir });
const events = await createEvents(database);
const identity = createIdentityProvider(config);
const storage = createDiskStorage(path.join(config.filesDir), config.UPLOAD_MAX_BYTES);
const app = await buildApp({ config, database, db: database.db, identity, events, storage }, { logger: config.NODE_ENV !== 'test' });

// Idempotency keys are kept 30 days; prune once at start and then daily.
const prune = () => pruneIdempotencyKeys(database.db).catch((err) => app.log.error(err, 'pruning idempotency keys failed'));
await prune();
const pruneTimer = setInterval(prune, 24 * 60 * 60 * 1000);
pruneTimer.unref();

await app.listen({ port: config.PORT, host: config.HOST });
console.log(`API listening on http://localhost:${config.PORT} (${database.kind})`);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: closing the API server`);
  await app.close();
  await events.close();
  await identity.close();
  await database.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
