// Each server test file's in-memory databases start from the run's migrated image, and the data directories it makes
// for server processes from the run's migrated embedded database (tests/support/server-global-setup.ts).
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { startMemoryDatabasesFrom } from '../../server/db/client.ts';
import { startDataDirsFrom } from '../../server/server-process.ts';

startMemoryDatabasesFrom(new Blob([readFileSync(inject('pgliteImageFile'))]));
startDataDirsFrom(inject('pgliteDataDirTemplate'));
