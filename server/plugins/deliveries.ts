import fp from 'fastify-plugin';
import type { Db } from '../db/client.ts';
import { type DeliveryEvent, type RecordOptions, recordDeliveries } from '../notify/record.ts';

/** The NOTIFY channel that wakes the delivery workers of every instance. */
export const DELIVERIES_CHANNEL = 'portal_deliveries';

export interface Deliveries {
  /** Writes an event's deliveries in the caller's transaction (server/notify/record.ts). */
  record(tx: Db, event: DeliveryEvent): Promise<void>;
  /** After the commit: tells the workers there is something to send. Never fails the write that committed. */
  wake(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    deliveries: Deliveries;
  }
}

/** app.deliveries: writes record their events' pushes and emails, then wake the workers. */
export const deliveriesPlugin = fp<{ options: RecordOptions }>(
  async (app, { options }) => {
    app.decorate('deliveries', {
      record: (tx, event) => recordDeliveries(tx, event, options),
      wake: () => app.database.notify(DELIVERIES_CHANNEL, '').catch((err: unknown) => app.log.error({ err }, 'waking the delivery workers failed')),
    });
  },
  { name: 'deliveries', dependencies: ['database'] },
);
