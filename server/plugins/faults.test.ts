import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerServices } from '../app.ts';
import { createTestApp, type TestApp } from '../test-helper.ts';
import { authPlugin } from './auth.ts';
import { faultsPlugin } from './faults.ts';

describe('faultsPlugin', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses to load in production, whoever registers it', async () => {
    const app = Fastify();
    await registerServices(app, { ...t.services, config: { ...t.services.config, NODE_ENV: 'production' } });
    await app.register(authPlugin);
    await expect(app.register(faultsPlugin)).rejects.toThrow('Fault injection is not allowed in production');
    await app.close();
  });
});
