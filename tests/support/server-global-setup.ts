// Migrates one in-memory database for the whole server test run and hands its image to every test file
// (tests/support/server-setup.ts): each file's PGlite then starts from it instead of running every migration again.
// Likewise one embedded database on disk, created and migrated as the server does on its first start, for the data
// directories of the tests that start server processes: each would otherwise run PGlite's initdb and every
// migration again, several seconds of computing per process on a loaded machine.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migratedPgliteImage, openDatabase } from '../../server/db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding the image of a freshly migrated PGlite database. */
    pgliteImageFile: string;
    /** The pglite/ folder of a DATA_DIR whose embedded database is created and migrated, closed cleanly. */
    pgliteDataDirTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-pglite-image-'));
  const file = path.join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await (await migratedPgliteImage()).arrayBuffer()));
  project.provide('pgliteImageFile', file);
  const template = path.join(dir, 'data', 'pglite');
  await (await openDatabase({ pgliteDir: template })).close();
  project.provide('pgliteDataDirTemplate', template);
  return () => rmSync(dir, { recursive: true, force: true });
}
