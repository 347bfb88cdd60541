import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createTestApp, postgresSkipReason, type TestApp, type TestUser } from '../test-helper.ts';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from './json-body.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[json-body.test] PostgreSQL run skipped: ${skip}`);

/** 100,000 levels: objects and arrays in turn, `{"a":[{"a":[…]}]}`. */
const LEVELS = 100_000;
const deepBody = '{"a":['.repeat(LEVELS / 2) + ']}'.repeat(LEVELS / 2);

const WRITE_METHODS = ['post', 'put', 'patch', 'delete'];
/** The API's write routes fail closed: fewer than this found in the OpenAPI document means the listing broke. */
const MIN_WRITE_ROUTES = 20;

/** A value each path parameter accepts as far as the route's own guards go (they run before the body is read). */
const paramValue: Record<string, string> = { toolId: 'track-master' };
const SOME_ID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';

describe('the JSON depth check on the raw text', () => {
  it('counts objects and arrays, not brackets inside strings, and stops at the limit', () => {
    expect(jsonDepthExceeds('{"a":[1,{"b":2}]}', 3)).toBe(false);
    expect(jsonDepthExceeds('{"a":[1,{"b":[]}]}', 3)).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ text: '[[[[[[{{{{{{ \\" [[[[' }), 1)).toBe(false);
    expect(jsonDepthExceeds('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDepthExceeds('['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(jsonDepthExceeds(deepBody, MAX_JSON_DEPTH)).toBe(true);
  });
});

describe.each(backends())('a body nested 100,000 levels deep on every JSON write route (%s)', (backend) => {
  let t: TestApp;
  let admin: TestUser;
  let routes: { method: string; path: string; url: string; hasBody: boolean }[];
  let multipartOnly: string[];

  beforeAll(async () => {
    t = await createTestApp({ backend });
    // An admin is staff and a client too: every guard lets the request through to its body.
    admin = await t.user({ admin: true });
    const doc = (await t.app.inject({ url: '/api/docs' })).json() as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>> };
    const writes = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([method]) => WRITE_METHODS.includes(method))
        // One-click unsubscribe takes a form (RFC 8058), never JSON: its body is at most 1 kB and never parsed as JSON.
        .filter(() => !path.startsWith('/api/unsubscribe/'))
        .map(([method, operation]) => ({ path, method, operation })),
    );
    // A route that declares only multipart/form-data refuses JSON with 415 before reading it: not a JSON route.
    const isMultipartOnly = (content?: Record<string, unknown>) => !!content && !('application/json' in content);
    multipartOnly = writes.filter((w) => isMultipartOnly(w.operation.requestBody?.content)).map((w) => `${w.method.toUpperCase()} ${w.path}`);
    routes = writes
      .filter((w) => !isMultipartOnly(w.operation.requestBody?.content))
      .map(({ path, method, operation }) => ({
          method: method.toUpperCase(),
          path,
          url: path.replace(/\{([^}]+)\}/g, (_all, name: string) => paramValue[name] ?? SOME_ID),
          hasBody: operation.requestBody !== undefined,
        }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it(`finds at least ${MIN_WRITE_ROUTES} write routes in the OpenAPI document, most of them with a body`, () => {
    expect(routes.length, routes.map((r) => `${r.method} ${r.path}`).join('\n')).toBeGreaterThanOrEqual(MIN_WRITE_ROUTES);
    expect(routes.filter((r) => r.hasBody).length).toBeGreaterThanOrEqual(MIN_WRITE_ROUTES / 2);
    // The tools that take files; every other write route takes JSON.
    expect(multipartOnly.length).toBeLessThan(routes.length / 4);
  });

  it(`answers 400 naming the limit of ${MAX_JSON_DEPTH} on every one, never 500`, async () => {
    const wrong: string[] = [];
    for (const route of routes) {
      const res = await t.app.inject({
        method: route.method as 'POST',
        url: route.url,
        headers: { ...admin.headers, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
        payload: deepBody,
      });
      const error = res.statusCode === 400 ? (res.json() as { error: { code: string; message: string } }).error : null;
      if (error?.code !== 'TOO_DEEP' || !error.message.includes(String(MAX_JSON_DEPTH))) {
        wrong.push(`${route.method} ${route.path}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('still takes an ordinary body on the same parser', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { ...admin.headers, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      payload: JSON.stringify({ contactRequest: { subject: 'Nested [{"a":1}]', message: 'Please call me back.' } }),
    });
    expect(res.statusCode, res.body).toBe(201);
  });
});
