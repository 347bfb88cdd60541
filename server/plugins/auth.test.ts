import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerServices } from '../app.ts';
import { HttpError } from '../errors.ts';
import { createTestApp, type TestApp, type TestUser } from '../test-helper.ts';
import { authPlugin } from './auth.ts';

/** A bare app with the services and the auth plugin, and routes with and without a guard. */
async function appWithAuth(t: TestApp): Promise<FastifyInstance> {
  const app = Fastify();
  app.setErrorHandler((error, _request, reply) =>
    reply.status(error instanceof HttpError ? error.statusCode : 500).send({ code: error instanceof HttpError ? error.code : 'OTHER' }),
  );
  await registerServices(app, t.services);
  await app.register(authPlugin);
  app.get('/guarded', { onRequest: app.authenticate }, async (request) => ({ uid: request.user.uid }));
  // A route that forgot its guard but reads the user anyway.
  app.get('/unguarded', async (request) => ({ uid: request.user.uid }));
  app.get('/public', async (request) => ({ userOrNull: request.userOrNull }));
  return app;
}

describe('request.user', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let alice: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    app = await appWithAuth(t);
    alice = await t.user();
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  it('is the caller behind app.authenticate', async () => {
    const res = await app.inject({ url: '/guarded', headers: alice.headers });
    expect(res.json()).toEqual({ uid: alice.uid });
  });

  it('answers 401 when read on a route without a guard, even with a valid token: it fails closed', async () => {
    for (const headers of [{}, alice.headers]) {
      const res = await app.inject({ url: '/unguarded', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 'UNAUTHORIZED' });
    }
  });

  it('leaves userOrNull null when no token was checked', async () => {
    const res = await app.inject({ url: '/public', headers: alice.headers });
    expect(res.json()).toEqual({ userOrNull: null });
  });
});
