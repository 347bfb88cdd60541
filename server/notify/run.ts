import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../compose.ts';
import { DELIVERIES_CHANNEL } from '../plugins/deliveries.ts';
import { composeEmail, messageIdHost } from './mailer.ts';
import { unsubscribeUrl } from './unsubscribe-tokens.ts';
import { type DeliveryWorker, type EmailSender, createDeliveryWorker } from './worker.ts';

/** The worker's email through the app's mailer (null when email is off): composed here, sent over SMTP. */
export function emailSender(app: FastifyInstance): EmailSender | null {
  const mailer = app.mailer;
  if (!mailer) return null;
  const host = messageIdHost(app.config.email);
  return { send: (message) => mailer.send(composeEmail({ ...message, host })) };
}

/** Test only: the process dies as a crash would, between a send and its record (faultsPlugin decides when). */
function crashFault(app: FastifyInstance): (() => boolean) | undefined {
  const faults = app.deliveryFaults;
  if (!faults) return undefined;
  return () => {
    if (faults.crashAfterSend()) process.kill(process.pid, 'SIGKILL');
    return false;
  };
}

/** How often a worker looks for due rows without being woken (retries and delayed email come due on their own). */
const POLL_MS = 2000;

/**
 * Runs this instance's delivery worker until stop(): woken by every committed event on any instance (NOTIFY), and
 * every POLL_MS for rows that came due. Old rows are pruned daily: sent and skipped after 30 days, failed and
 * unknown (what admins look at) after 90.
 */
export async function runDeliveryWorker(app: FastifyInstance, services: Services): Promise<{ worker: DeliveryWorker; stop(): Promise<void> }> {
  const config = services.config;
  const worker = createDeliveryWorker({
    db: services.db,
    vapid: config.vapid,
    email: emailSender(app),
    publicUrl: config.email.publicUrl,
    unsubscribeUrl: (uid) => unsubscribeUrl(config, uid),
    record: { email: config.email.enabled, emailDelaySeconds: config.email.delaySeconds },
    leaseSeconds: config.DELIVERY_LEASE_SECONDS,
    crashAfterSend: crashFault(app),
    onError: (err) => app.log.error({ err }, 'the delivery worker failed a round; it goes on'),
  });
  const unlisten = await services.database.listen(DELIVERIES_CHANNEL, () => worker.wake(), () => worker.wake());
  worker.start(POLL_MS);
  const prune = () =>
    services.db
      .execute(
        sql`DELETE FROM deliveries WHERE (state IN ('sent', 'skipped') AND created_at < now() - interval '30 days')
          OR (state IN ('failed', 'unknown') AND created_at < now() - interval '90 days')`,
      )
      .catch((err: unknown) => app.log.error({ err }, 'pruning old deliveries failed'));
  void prune();
  const pruneTimer = setInterval(prune, 24 * 3600 * 1000);
  pruneTimer.unref();
  return {
    worker,
    async stop() {
      clearInterval(pruneTimer);
      await unlisten();
      await worker.stop();
    },
  };
}
