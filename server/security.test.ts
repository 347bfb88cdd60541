// One test each per security finding, on PGlite and PostgreSQL. Routes are read from the OpenAPI
// document, so a route added later is covered without touching this file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createTestApp, storedFileCount, type TestApp, type TestUser } from './test-helper.ts';

interface Operation {
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

interface WriteRoute {
  method: string;
  url: string;
  /** The body's top-level fields as the document lists them. */
  fields: string[];
  multipart: boolean;
}

/** Every write route of the API (test-only routes aside), with a path whose parameters are filled in. */
function writeRoutes(t: TestApp): WriteRoute[] {
  const doc = t.app.swagger() as { paths: Record<string, Record<string, Operation>> };
  const routes = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    // Test routes, and one-click unsubscribe, which takes a form (RFC 8058: urlencoded or multipart), never JSON.
    if (path.includes('__test') || path.startsWith('/api/unsubscribe/')) continue;
    for (const [method, op] of Object.entries(operations)) {
      if (!['post', 'put', 'patch'].includes(method)) continue;
      const content = op.requestBody?.content ?? {};
      const multipart = 'multipart/form-data' in content;
      const schema = content[multipart ? 'multipart/form-data' : 'application/json']?.schema;
      routes.push({
        method: method.toUpperCase(),
        url: path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000'),
        fields: Object.keys(schema?.properties ?? { text: null }),
        multipart,
      });
    }
  }
  return routes;
}

describe.each(backends())('bad text never reaches the database (%s)', (backend) => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ backend });
    // Admin, staff and client at once, so every route's own checks are passed and its body is read.
    user = await t.user({ admin: true, staff: true, client: true });
  });
  afterAll(() => t?.close());

  const send = (method: string, url: string, payload: string, type = 'application/json') =>
    t.app.inject({ method: method as 'POST', url, headers: { ...user.headers, 'content-type': type }, payload });

  /** Every field of the route set to `text`, as JSON or as a multipart form (text fields only). */
  const sendAll = (route: WriteRoute, text: string) => {
    if (!route.multipart) return send(route.method, route.url, JSON.stringify(Object.fromEntries(route.fields.map((f) => [f, text]))));
    const parts = route.fields.map((f) => `--B\r\ncontent-disposition: form-data; name="${f}"\r\n\r\n${text}\r\n`).join('');
    return send(route.method, route.url, `${parts}--B--\r\n`, 'multipart/form-data; boundary=B');
  };

  it('a NUL character in any field of any write route is a 400 naming the field', async () => {
    const routes = writeRoutes(t);
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      const res = await sendAll(route, 'x\u0000y');
      expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBe(400);
      expect(res.json().error.message, route.url).toContain('NUL');
    }
  });

  it('an unpaired surrogate in a JSON body is a 400 on every write route, also deep inside', async () => {
    for (const route of writeRoutes(t).filter((r) => !r.multipart)) {
      const res = await send(route.method, route.url, `{"${route.fields[0]}":{"deep":["ok","\\ud800"]}}`);
      expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBe(400);
      expect(res.json().error.message, route.url).toContain('unpaired surrogate');
    }
  });

  it('a multipart body to any route that takes no files is a 415, refused before it is read', async () => {
    const jsonRoutes = writeRoutes(t).filter((r) => !r.multipart);
    const before = await storedFileCount(t.services);
    for (const route of jsonRoutes) {
      const file = `--B\r\ncontent-disposition: form-data; name="${route.fields[0]}"; filename="a.pdf"\r\ncontent-type: application/pdf\r\n\r\n%PDF-1.4 x\r\n--B--\r\n`;
      const res = await send(route.method, route.url, file, 'multipart/form-data; boundary=B');
      expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBe(415);
    }
    expect(await storedFileCount(t.services)).toBe(before);
  });

  it('a NUL in a query string or a path parameter is a 400, not a failed query', async () => {
    const search = await t.app.inject({ url: '/api/staff/queue?q=a%00b', headers: user.headers });
    expect(search.statusCode, search.body).toBe(400);
    // The router leaves an encoded NUL in a path parameter encoded, so it never reaches a query as a NUL.
    const param = await t.app.inject({ url: '/api/staff/requests/a%00b', headers: user.headers });
    expect(param.statusCode, param.body).toBe(404);
  });
});

describe.each(backends())('malformed uploads are refused with a 400 (%s)', (backend) => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ backend });
    user = await t.user({ client: true });
  });
  afterAll(() => t?.close());

  const upload = (type: string, payload: string) =>
    t.app.inject({ method: 'POST', url: '/api/user/files', headers: { ...user.headers, 'content-type': type }, payload });

  it('without a boundary, truncated, or with a broken part header', async () => {
    const cases: [string, string, string][] = [
      ['no boundary', 'multipart/form-data', '--B\r\ncontent-disposition: form-data; name="a"\r\n\r\nx\r\n--B--\r\n'],
      ['truncated', 'multipart/form-data; boundary=B', '--B\r\ncontent-disposition: form-data; name="file"; filename="a.pdf"\r\ncontent-type: application/pdf\r\n\r\n%PDF-1.4 trunc'],
      ['broken header', 'multipart/form-data; boundary=B', '--B\r\nthis is not a header\r\n\r\nx\r\n--B--\r\n'],
    ];
    for (const [name, type, payload] of cases) {
      const res = await upload(type, payload);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(400);
      expect(res.json().error.message, name).not.toBe('');
    }
  });
});

describe('personal answers are never cached', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await t.user({ admin: true, staff: true, client: true });
  });
  afterAll(() => t?.close());

  it('every GET of the API answers Cache-Control: no-store, errors included', async () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const gets = Object.entries(doc.paths)
      .filter(([path, ops]) => 'get' in ops && !path.includes('__test') && !path.startsWith('/api/download') && !path.startsWith('/api/events'))
      .map(([path]) => path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000'));
    expect(gets.length).toBeGreaterThan(15);
    for (const url of gets) {
      const res = await t.app.inject({ url, headers: user.headers });
      expect(res.headers['cache-control'], `${url} (${res.statusCode})`).toBe('no-store');
    }
  });
});
