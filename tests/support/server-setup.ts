// Each server test file's in-memory databases start from the run's migrated image (tests/support/server-global-setup.ts).
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { startMemoryDatabasesFrom } from '../../server/db/client.ts';

startMemoryDatabasesFrom(new Blob([readFileSync(inject('pgliteImageFile'))]));
