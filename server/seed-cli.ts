import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { createIdentityProvider } from './firebase.ts';
import { seedDemo } from './seed.ts';

const config = loadConfig();
const database = await openDatabase({ url: config.DATABASE_URL, pgliteDir: config.pgliteDir });
const identity = createIdentityProvider(config);
try {
  await seedDemo({ db: database.db, identity });
  console.log('Demo accounts are ready.');
} finally {
  await identity.close();
  await database.close();
}
