import fp from 'fastify-plugin';
import type { Events } from '../platform/events.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Data-free pokes to a user's open streams, and to staff streams, across server instances (server/platform/events.ts). */
    events: Events;
  }
}

/** app.events: writes poke after they commit (pokeStaff for staff-only changes), the event stream subscribes. */
export const eventsPlugin = fp<{ events: Events }>(
  async (app, { events }) => {
    app.decorate('events', events);
  },
  { name: 'events' },
);
