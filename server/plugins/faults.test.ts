import { randomUUID } from 'node:crypto';
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

describe('faultsPlugin: injected faults are counted', () => {
  let t: TestApp;
  beforeAll(async () => {
    const previous = process.env.TEST_FAULTS;
    process.env.TEST_FAULTS = '1';
    try {
      t = await createTestApp();
    } finally {
      if (previous === undefined) delete process.env.TEST_FAULTS;
      else process.env.TEST_FAULTS = previous;
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const injected = async () => (await t.app.inject({ method: 'GET', url: '/api/__test/faults' })).json().data.injected;
  const setFaults = async (faults: object) => expect((await t.app.inject({ method: 'POST', url: '/api/__test/faults', payload: faults })).statusCode).toBe(200);

  it('GET /api/__test/faults reports each crash, drop and 5xx it injected', async () => {
    const user = await t.user({ client: true });
    const send = (key: string) =>
      t.app.inject({ method: 'POST', url: '/api/contact', headers: { ...user.headers, 'idempotency-key': key }, payload: { contactRequest: { subject: `count-${key}`, message: 'Hi' } } });
    expect(await injected()).toEqual({ fail5xx: 0, dropAfterCommit: 0, crashAfterCommit: 0 });
    try {
      await setFaults({ crashAfterCommitRate: 1, pathPrefix: '/api/contact' });
      await send(randomUUID());
      await send(randomUUID());
      await setFaults({ dropAfterCommitRate: 1, pathPrefix: '/api/contact' });
      await send(randomUUID());
      await setFaults({ fail5xxRate: 1, pathPrefix: '/api/contact' });
      expect((await send(randomUUID())).statusCode).toBe(503);
    } finally {
      await setFaults({});
    }
    expect(await injected()).toEqual({ fail5xx: 1, dropAfterCommit: 1, crashAfterCommit: 2 });
    // The faults in force are reported too: back to none.
    expect((await t.app.inject({ method: 'GET', url: '/api/__test/faults' })).json().data.faults).toMatchObject({ crashAfterCommitRate: 0, pathPrefix: '/api/' });
  });
});
