import fp from 'fastify-plugin';
import type { Storage } from '../storage.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Uploaded and generated files on disk, checked by type and size (server/storage.ts). */
    storage: Storage;
  }
}

/** app.storage, for the routes that save or serve files and for the multipart size cap. */
export const storagePlugin = fp<{ storage: Storage }>(
  async (app, { storage }) => {
    app.decorate('storage', storage);
  },
  { name: 'storage' },
);
