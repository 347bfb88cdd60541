import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createTestApp, type TestApp, waitUntil } from '../test-helper.ts';

describe.each(backends())('GET /api/health (%s)', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend });
  });
  afterAll(() => t?.close());

  const health = () => t.app.inject({ method: 'GET', url: '/api/health' });

  it('answers 200 with the database kind and every check passed, after writing to the database and the store', async () => {
    const res = await health();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: { status: 'ok', database: backend, checks: { database: { reachable: true, writable: true }, storage: { writable: true } } },
    });
  });

  it.skipIf(backend !== 'pglite')('answers 503 saying so when the database refuses writes', async () => {
    // PGlite is one session: a setting made here holds for the probe's transaction too.
    await t.services.db.execute(sql`set default_transaction_read_only = on`);
    try {
      await waitUntil(async () => (await health()).statusCode === 503);
      const { error } = (await health()).json();
      expect(error).toMatchObject({ code: 'UNAVAILABLE', message: 'Not ready: the database does not accept writes.' });
      expect(error.details).toEqual({ status: 'unavailable', database: 'pglite', checks: { database: { reachable: true, writable: false }, storage: { writable: true } } });
    } finally {
      await t.services.db.execute(sql`set default_transaction_read_only = off`);
    }
    await waitUntil(async () => (await health()).statusCode === 200);
  });
});
