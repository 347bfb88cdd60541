import { buildApp } from './app.ts';
import { openServices } from './compose.ts';
import { loadConfig } from './config.ts';
import { pruneIdempotencyKeys } from './plugins/idempotency.ts';

const config = loadConfig();
const services = await openServices(config);
const app = await buildApp(services, { logger: config.NODE_ENV !== 'test' });

// Idempotency keys are kept 30 days; prune once at start and then daily.
const prune = () => pruneIdempotencyKeys(services.db).catch((err) => app.log.error(err, 'pruning idempotency keys failed'));
await prune();
const pruneTimer = setInterval(prune, 24 * 60 * 60 * 1000);
pruneTimer.unref();

await app.listen({ port: config.PORT, host: config.HOST });
console.log(`API listening on http://localhost:${config.PORT} (${services.database.kind})`);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: closing the API server`);
  await app.close();
  await services.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
