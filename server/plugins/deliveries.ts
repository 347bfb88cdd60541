import fp from 'fastify-plugin';
import type { Db } from '../db/client.ts';
import { type DeliveryEvent, type RecordOptions, recordDeliveries } from '../notify/record.ts';

/** The NOTIFY channel that wakes the delivery workers of every instance: a trigger on deliveries notifies it at commit (migrations/0021). */
export const DELIVERIES_CHANNEL = 'portal_deliveries';

export interface Deliveries {
  /** Writes an event's deliveries in the caller's transaction (server/notify/record.ts). */
  record(tx: Db, event: DeliveryEvent): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    deliveries: Deliveries;
  }
}

/** app.deliveries: writes record their events' pushes and emails; their commit wakes the workers. */
export const deliveriesPlugin = fp<{ options: RecordOptions }>(
  async (app, { options }) => {
    app.decorate('deliveries', {
      record: (tx, event) => recordDeliveries(tx, event, options),
    });
  },
  { name: 'deliveries' },
);
