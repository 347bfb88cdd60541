import fp from 'fastify-plugin';
import { type OrphanSweep, startOrphanSweep } from '../files/orphan-files.ts';
import type { Storage } from '../files/storage.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Uploaded and generated files on disk, checked by type and size (server/files/storage.ts). */
    storage: Storage;
  }
}

/**
 * app.storage, for the routes that save or serve files and for the multipart size cap; and the
 * orphan sweep (server/files/orphan-files.ts): started when the app is ready (then hourly), stopped on close.
 */
export const storagePlugin = fp<{ storage: Storage }>(
  async (app, { storage }) => {
    app.decorate('storage', storage);
    let sweep: OrphanSweep | undefined;
    app.addHook('onReady', async () => {
      sweep = startOrphanSweep({
        db: app.db,
        storage,
        onRemoved: (removed) => app.log.info({ removed }, 'orphan sweep: removed stored files no row names'),
        onError: (err) => app.log.error({ err }, 'orphan sweep failed'),
      });
    });
    app.addHook('onClose', async () => {
      await sweep?.stop();
    });
  },
  { name: 'storage', dependencies: ['database'] },
);
