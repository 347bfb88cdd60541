import { loadConfig } from './config.ts';

// The configuration is checked before the rest of the server is loaded: a refused start (a missing secret, emulator
// settings in production) says so in a fraction of a second instead of after loading every route and library.
const config = loadConfig();
const [{ buildApp }, { listenForBackups }, { openServices }, { DataDirInUseError }, { runDeliveryWorker }, { pruneIdempotencyKeys }, { diskFullMessage, isOutOfSpace }, { ipDataLoadStats, loadIpLookup }] =
  await Promise.all([
    import('./app.ts'),
    import('./backup/control-socket.ts'),
    import('./compose.ts'),
    import('./db/data-dir-lock.ts'),
    import('./notify/run.ts'),
    import('./services/command-ids.ts'),
    import('./platform/service-faults.ts'),
    import('./tracking/ip-lookup.ts'),
  ]);
const services = await openServices(config).catch((err: unknown) => {
  // Another process owns DATA_DIR, or the disk is full: say so in words, without a stack trace, and stop.
  if (err instanceof DataDirInUseError) console.error(err.message);
  else if (isOutOfSpace(err)) console.error(diskFullMessage(err, config.DATA_DIR));
  else throw err;
  process.exit(1);
});
const app = await buildApp(services, { logger: config.NODE_ENV !== 'test' });

// Idempotency keys are kept 30 days; prune once at start and then daily.
const prune = () => pruneIdempotencyKeys(services.db).catch((err) => app.log.error(err, 'pruning idempotency keys failed'));
await prune();
const pruneTimer = setInterval(prune, 24 * 60 * 60 * 1000);
pruneTimer.unref();

// `npm run backup` asks this process for the embedded database's snapshot (it alone may open DATA_DIR).
const backups = await listenForBackups(services).catch((err: unknown) => {
  app.log.error(err, 'the backup socket could not listen: `npm run backup` cannot reach this server');
  return undefined;
});

await app.listen({ port: config.PORT, host: config.HOST });

// Pushes and email go out from here, on every instance that runs a worker (server/notify/worker.ts).
const deliveryWorker = config.DELIVERY_WORKER === 'on' ? await runDeliveryWorker(app, services) : undefined;
console.log(`API listening on http://localhost:${config.PORT} (${services.database.kind})`);

// The offline IP data (GeoLite2 City, ASN ranges) is opened once, after listening, so the server
// answers meanwhile; a capture arriving first waits for the same load (server/tracking/ip-lookup.ts).
loadIpLookup()
  .then(() => {
    const stats = ipDataLoadStats();
    if (stats) app.log.info(stats, `IP data loaded in ${stats.ms} ms (${stats.asnRows} ASN ranges)`);
  })
  .catch((err: unknown) => app.log.error(err, 'loading the IP data failed; captures will retry'));

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: closing the API server`);
  // Sends in flight finish and are recorded before the database closes: a row left `sending` would become unknown.
  await deliveryWorker?.stop();
  await app.close();
  await backups?.close();
  await services.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
