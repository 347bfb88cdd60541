import { openServices } from '../compose.ts';
import { loadConfig } from '../config.ts';
import { seedDemo } from './seed.ts';

const services = await openServices(loadConfig());
try {
  await seedDemo(services);
  console.log('Demo accounts are ready.');
} finally {
  await services.close();
}
