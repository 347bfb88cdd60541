import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncPage } from '../../domain/sync.ts';
import { productRequests } from '../db/schema.ts';
import { bootScriptHash, entryRetryScriptHash } from '../platform/first-paint.ts';
import { backends, createTestApp, type TestApp, type TestUser } from '../test-helper.ts';

/** What helmet sets with the app's options (server/app.ts), header by header. */
function expectSecurityHeaders(headers: Record<string, unknown>, what: string) {
  const csp = String(headers['content-security-policy']);
  expect(csp, what).toContain("default-src 'self'");
  // Inline scripts: only the entry's watchdog and the first paint's boot script, by their hashes; never 'unsafe-inline'.
  expect(csp, what).toContain(`script-src 'self' ${entryRetryScriptHash} ${bootScriptHash};`);
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("object-src 'none'");
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['x-frame-options'], what).toBe('SAMEORIGIN');
  expect(headers['strict-transport-security'], what).toMatch(/^max-age=\d+; includeSubDomains$/);
  expect(headers['referrer-policy'], what).toBe('no-referrer');
  expect(headers['cross-origin-opener-policy'], what).toBe('same-origin');
  expect(headers['cross-origin-resource-policy'], what).toBe('same-origin');
  expect(headers['x-dns-prefetch-control'], what).toBe('off');
  expect(headers['x-permitted-cross-domain-policies'], what).toBe('none');
  expect(headers['x-powered-by'], what).toBeUndefined();
}

describe.each(backends())('security headers and compression on every kind of answer (%s)', (backend) => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ backend });
    user = await t.user();
  });
  afterAll(() => t?.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('health, an authenticated pull, a refusal, an unknown path and a write all carry helmet\'s headers', async () => {
    const answers = {
      health: await get('/api/health'),
      pull: await get('/api/sync', user.headers),
      unauthenticated: await get('/api/sync'),
      unknown: await get('/api/no-such-route'),
      write: await t.app.inject({ method: 'POST', url: '/api/contact', headers: user.headers, payload: { contactRequest: { subject: 'Headers', message: 'Are they there?' } } }),
    };
    expect(answers.health.statusCode).toBe(200);
    expect(answers.pull.statusCode).toBe(200);
    expect(answers.unauthenticated.statusCode).toBe(401);
    expect(answers.unknown.statusCode).toBe(404);
    expect(answers.write.statusCode).toBe(201);
    for (const [what, res] of Object.entries(answers)) expectSecurityHeaders(res.headers, what);
  });

  it('a sync page with rows is compressed for a client that accepts it; an empty pull is sent as is', async () => {
    const requests = Array.from({ length: 30 }, (_, i) => ({ userId: user.uid, toolId: 'funds-tracking', productRequestType: 'TRACK_MASTER' as const, totalAmount: 100 + i, requestDetails: { note: `request ${i}` } }));
    await t.services.db.insert(productRequests).values(requests);
    const full = await get('/api/sync?cursor=0', { ...user.headers, 'accept-encoding': 'br, gzip' });
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-encoding']).toBe('br');
    expect(full.headers.vary).toContain('accept-encoding');
    const page = SyncPage.parse(JSON.parse(brotliDecompressSync(full.rawPayload).toString()).data);
    expect(page.requests).toHaveLength(30);
    expectSecurityHeaders(full.headers, 'compressed page');

    const empty = await get(`/api/sync?cursor=${page.cursor}`, { ...user.headers, 'accept-encoding': 'br, gzip' });
    expect(empty.headers['content-encoding']).toBeUndefined();
    expect(empty.json().data).toMatchObject({ cursor: page.cursor, requests: [] });
  });
});
