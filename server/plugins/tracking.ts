import fp from 'fastify-plugin';
import { type CaptureService, createCaptureService } from '../tracking/capture-service.ts';
import { type RetentionJob, startRetentionJob } from '../tracking/retention.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Track Master capture: slug cache, rate limits and the write queue behind GET /t/:slug (server/tracking/). */
    tracking: CaptureService;
  }
}

/**
 * app.tracking, and the visit retention job: started when the app is ready (then hourly), stopped on
 * close. On close the capture queue is drained first, while the database is still open.
 */
export const trackingPlugin = fp(
  async (app) => {
    const tracking = createCaptureService({ db: app.db, events: app.events, log: app.log });
    app.decorate('tracking', tracking);
    let retention: RetentionJob | undefined;
    app.addHook('onReady', async () => {
      retention = startRetentionJob({
        db: app.db,
        days: app.config.VISIT_RETENTION_DAYS,
        onDeleted: async ({ deleted, owners }) => {
          app.log.info({ deleted }, 'visit retention: deleted visits of closed requests');
          for (const uid of owners) await app.events.poke(uid);
        },
        onError: (err) => app.log.error({ err }, 'visit retention failed'),
      });
    });
    app.addHook('onClose', async () => {
      await retention?.stop();
      await tracking.close();
    });
  },
  { name: 'tracking', dependencies: ['config', 'database', 'events'] },
);
