import { chmodSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import type { Services } from '../compose.ts';
import { pgliteOf, writeSnapshot } from './snapshot.ts';

/**
 * The running server's door for `npm run backup` (docs/decisions/022-backup-and-restore.md): only the
 * process that owns DATA_DIR may open the embedded database, so the snapshot is taken here and streamed
 * to the script over a Unix socket in DATA_DIR. The socket is owner-only (0600), as the download secret
 * is, and no proxy or port reaches it; it answers one thing, `GET /snapshot`.
 */

export const controlSocketPath = (dataDir: string) => path.resolve(dataDir, 'backup.sock');

export interface ControlSocket {
  path: string;
  close(): Promise<void>;
}

/** Listens on DATA_DIR/backup.sock for the embedded database; undefined on PostgreSQL (pg_dump is its backup). */
export async function listenForBackups(services: Services): Promise<ControlSocket | undefined> {
  const pglite = pgliteOf(services.database);
  if (!pglite) return undefined;
  const socketPath = controlSocketPath(services.config.DATA_DIR);
  let busy = false;
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== '/snapshot') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    // One snapshot at a time: each holds the whole database dump in memory.
    if (busy) {
      response.writeHead(409, { 'content-type': 'text/plain' }).end('a backup is already being taken\n');
      return;
    }
    busy = true;
    response.writeHead(200, { 'content-type': 'application/x-tar', 'x-portal-pid': String(process.pid) });
    writeSnapshot(pglite, services.config.filesDir, response)
      .then(() => response.end())
      .catch((err: unknown) => {
        console.error('backup snapshot failed', err);
        // The script sees a truncated archive and says so; nothing half-written is kept.
        response.destroy(err as Error);
      })
      .finally(() => {
        busy = false;
      });
  });
  // A socket file left by a server killed with SIGKILL: this process owns DATA_DIR now (the lock), so it is stale.
  rmSync(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  chmodSync(socketPath, 0o600);
  return {
    path: socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          rmSync(socketPath, { force: true });
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
