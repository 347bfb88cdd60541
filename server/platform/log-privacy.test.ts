import { DrizzleQueryError } from 'drizzle-orm/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logSerializers, redactUrl } from './log-privacy.ts';
import { createTestApp, type TestApp, type TestUser } from '../test-helper.ts';

describe('log redaction', () => {
  it('keeps where a request went, never a download token, a tracking slug or a query string', () => {
    expect(redactUrl('/api/download/0b6f2f0e-3a1c-4f7e-9d2b-5c8a7e6f1d20.1800000000000.sig')).toBe('/api/download/[redacted]');
    expect(redactUrl('/t/AbCdEfGhIjKlMnOpQrStUv')).toBe('/t/[redacted]');
    expect(redactUrl('/api/staff/queue?q=dana%40example.com&tab=new')).toBe('/api/staff/queue?[redacted]');
    expect(redactUrl('/api/user')).toBe('/api/user');
  });

  it("logs a database error's query but not its parameters", () => {
    const err = new DrizzleQueryError('insert into "users" ("email", "first_name") values ($1, $2)', ['dana@example.com', 'Dana'], new Error('duplicate key'));
    const logged = JSON.stringify(logSerializers.err(err));
    expect(logged).toContain('insert into \\"users\\"');
    expect(logged).toContain('duplicate key');
    expect(logged).not.toContain('dana@example.com');
    expect(logged).not.toContain('Dana');
  });
});

describe('the request log of a run', () => {
  const lines: string[] = [];
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ logStream: { write: (line) => void lines.push(line) } });
    user = await t.user({ client: true });
  });
  afterAll(() => t?.close());

  it('holds no download token and no query string', async () => {
    const token = '0b6f2f0e-3a1c-4f7e-9d2b-5c8a7e6f1d20.1800000000000.c2lnbmF0dXJlLW9mLWZvcnR5LXRocmVlLWNoYXJhY3RlcnMtMTIz';
    await t.app.inject({ url: `/api/download/${token}` });
    await t.app.inject({ url: '/api/sync?cursor=0&limit=5', headers: user.headers });
    const log = lines.join('');
    expect(log).toContain('/api/download/[redacted]');
    expect(log).not.toContain('c2lnbmF0dXJl');
    expect(log).not.toContain('cursor=0');
  });
});

describe('the request log in production (LOG_REQUESTS=errors)', () => {
  const lines: string[] = [];
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ env: { LOG_REQUESTS: 'errors' }, logStream: { write: (line) => void lines.push(line) } });
    user = await t.user({ client: true });
  });
  afterAll(() => t?.close());

  it('writes nothing for an answered request and one line, with its request id, for a failed one', async () => {
    lines.length = 0;
    expect((await t.app.inject({ url: '/api/sync?cursor=0&limit=5', headers: user.headers })).statusCode).toBe(200);
    expect(lines).toEqual([]);
    const missing = await t.app.inject({ url: '/api/user/files/00000000-0000-4000-8000-000000000000', headers: user.headers });
    expect(missing.statusCode).toBe(404);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]) as { level: number; reqId: string; msg: string; req: { url: string }; res: { statusCode: number } };
    expect(line).toMatchObject({ level: 40, msg: 'request failed', req: { url: '/api/user/files/00000000-0000-4000-8000-000000000000' }, res: { statusCode: 404 } });
    expect(line.reqId).toBeTruthy();
  });
});
