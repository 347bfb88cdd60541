import fp from 'fastify-plugin';
import type { Database, Db } from '../db/client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The open database: its kind, LISTEN/NOTIFY and close (server/db/client.ts). */
    database: Database;
    /** Drizzle on that database: what routes query. */
    db: Db;
  }
}

/** app.database and app.db. The composition root opened the database and closes it; the app only borrows it. */
export const databasePlugin = fp<{ database: Database }>(
  async (app, { database }) => {
    app.decorate('database', database);
    app.decorate('db', database.db);
  },
  { name: 'database' },
);
