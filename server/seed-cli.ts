import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { createIdentityProvider } from './firebase.ts';
import { seedDemo } from './seed.ts';
import { createDiskStorage } from './storage.ts';

const config = loadConfig();
const database = await openDatabase({ url: config.DATABASE_URL, pgliteDir: config.pgliteDir });
const identity = createIdentityProvider(config);
const storage = createDiskStorage(config.filesDir, config.UPLOAD_MAX_BYTES);
try {
  await seedDemo({ db: database.db, identity, storage });
  console.log('Demo accounts are ready.');
} finally {
  await identity.close();
  await database.close();
}
