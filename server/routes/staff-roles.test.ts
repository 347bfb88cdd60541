import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema.ts';
import { backends, createTestApp, emulatorHost, postgresSkipReason, signUp, type TestApp, type TestUser } from '../test-helper.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[staff-roles.test] PostgreSQL run skipped: ${skip}`);

/** A uid or id that looks real, for every path parameter, so a route reaches its role check and no further. */
const SOME_ID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';
/** The staff workspace's routes fail closed: fewer than this found means the route listing broke. */
const MIN_STAFF_ROUTES = 6;

interface Route {
  method: string;
  /** As registered, e.g. /api/staff/clients/:uid */
  path: string;
}

/**
 * Every route the built app serves under /api/staff, read from Fastify's own router
 * (`printRoutes({ commonPrefix: true })`: a tree whose node texts concatenate into the path), so a route
 * added by anyone is checked here without editing this file. HEAD routes are the GET handlers again.
 */
function staffRoutes(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: true }).split('\n')) {
    const match = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    stack.length = depth;
    stack.push(match[2]);
    const path = stack.join('');
    if (!match[3] || !path.startsWith('/api/staff')) continue;
    for (const method of match[3].split(', ')) if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, path });
  }
  return routes;
}

/** A concrete URL for a route pattern: every :param and wildcard becomes SOME_ID. */
const urlOf = (route: Route) => route.path.replace(/:[A-Za-z0-9_]+(\([^)]*\))?/g, SOME_ID).replace(/\*/g, SOME_ID);

/** The routes only admins may call: the team, the lookup by email, and granting or revoking the staff role. */
const isAdminOnly = (route: Route) =>
  route.path === '/api/staff/team' || route.path === '/api/staff/users/lookup' || (route.method === 'PUT' && /^\/api\/staff\/users\/:[^/]+\/role$/.test(route.path));

describe.each(backends())('staff roles on every /api/staff route (%s)', (backend) => {
  let t: TestApp;
  let routes: Route[];
  let staff: TestUser;
  let client: TestUser;
  let lead: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    routes = staffRoutes(t.app);
    [staff, client, lead] = await Promise.all([t.user({ staff: true }), t.user({ client: true }), t.user()]);
  });
  afterAll(async () => {
    await t?.close();
  });

  function call(route: Route, headers: Record<string, string>) {
    const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
    return t.app.inject({
      method: route.method as 'GET',
      url: urlOf(route),
      headers: hasBody ? { ...headers, 'content-type': 'application/json' } : headers,
      ...(hasBody ? { payload: '{}' } : {}),
    });
  }

  async function expectEvery(selected: Route[], headers: Record<string, string>, status: number, who: string) {
    const wrong: string[] = [];
    for (const route of selected) {
      const res = await call(route, headers);
      if (res.statusCode !== status) wrong.push(`${route.method} ${route.path} as ${who}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
  }

  it(`finds at least ${MIN_STAFF_ROUTES} staff routes, the reads among them`, () => {
    const listed = routes.map((r) => `${r.method} ${r.path}`);
    expect(routes.length, listed.join('\n')).toBeGreaterThanOrEqual(MIN_STAFF_ROUTES);
    for (const read of ['/api/staff/queue', '/api/staff/clients/:uid', '/api/staff/requests/:requestId', '/api/staff/files/:fileId', '/api/staff/team', '/api/staff/users/lookup']) {
      expect(listed).toContain(`GET ${read}`);
    }
  });

  it('lists every staff route the OpenAPI document describes (the route listing misses nothing)', async () => {
    const doc = (await t.app.inject({ url: '/api/docs' })).json() as { paths: Record<string, Record<string, unknown>> };
    const listed = new Set(routes.map((r) => `${r.method} ${r.path}`));
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (!path.startsWith('/api/staff')) continue;
      const pattern = path.replace(/\{([^}]+)\}/g, ':$1');
      for (const method of Object.keys(operations).map((m) => m.toUpperCase())) {
        if (method !== 'HEAD') expect(listed, `${method} ${path}`).toContain(`${method} ${pattern}`);
      }
    }
  });

  it('answers 401 without a token, on every one', async () => {
    await expectEvery(routes, {}, 401, 'nobody');
    await expectEvery(routes, { authorization: 'Bearer not-a-token' }, 401, 'a bad token');
  });

  it('answers 403 to a client, a lead and a stranger who just signed up, on every one', async () => {
    const emulator = emulatorHost();
    // A stranger: an account made on the sign-up page that has never called the API (no row yet).
    const stranger = await signUp(emulator, `stranger-${Date.now()}@test.example`, 'Secret#123');
    await expectEvery(routes, client.headers, 403, 'a client');
    await expectEvery(routes, lead.headers, 403, 'a lead');
    await expectEvery(routes, { authorization: `Bearer ${stranger.idToken}` }, 403, 'a stranger');
  });

  it('answers 403 to staff who are not admins on the admin-only routes', async () => {
    const adminOnly = routes.filter(isAdminOnly);
    expect(adminOnly.map((r) => r.path)).toEqual(expect.arrayContaining(['/api/staff/team', '/api/staff/users/lookup']));
    await expectEvery(adminOnly, staff.headers, 403, 'staff');
  });

  it('takes the staff role away on the very next request once it is revoked', async () => {
    const member = await t.user({ staff: true });
    const queue = () => t.app.inject({ method: 'GET', url: '/api/staff/queue', headers: member.headers });
    expect((await queue()).statusCode).toBe(200);
    await t.services.db.update(users).set({ isStaff: false }).where(eq(users.uid, member.uid));
    const res = await queue();
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
  });
});
