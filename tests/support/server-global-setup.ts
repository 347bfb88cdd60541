// Migrates one in-memory database for the whole server test run and hands its image to every test file
// (tests/support/server-setup.ts): each file's PGlite then starts from it instead of running every migration again.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migratedPgliteImage } from '../../server/db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding the image of a freshly migrated PGlite database. */
    pgliteImageFile: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-pglite-image-'));
  const file = path.join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await (await migratedPgliteImage()).arrayBuffer()));
  project.provide('pgliteImageFile', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
