import { rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, registerServices } from '../app.ts';
import { openServices, type Services } from '../compose.ts';
import { users } from '../db/schema.ts';
import { authPlugin } from '../plugins/auth.ts';
import { createTestApp, defined, emulatorHost, freshPostgresUrl, postgresSkipReason, signUp, testConfig, type TestApp, type TestUser } from '../test-helper.ts';
import { eventRoutes } from './events.ts';

interface SseEvent {
  event: string | null;
  data: string | null;
  comment: string | null;
}

/** A fetch-streaming SSE reader, as the client uses (EventSource cannot send Authorization). */
async function openStream(base: string, token: string) {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/events`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  const received: SseEvent[] = [];
  const waiters = new Set<() => void>();
  let ended = false;
  const pump = (async () => {
    const reader = defined(res.body, 'a response body').pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const ev: SseEvent = { event: null, data: null, comment: null };
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) ev.comment = line.slice(1).trim();
            else if (line.startsWith('event:')) ev.event = line.slice(6).trim();
            else if (line.startsWith('data:')) ev.data = line.slice(5).trim();
          }
          received.push(ev);
          for (const w of waiters) w();
        }
      }
    } catch {
      // aborted
    } finally {
      ended = true;
      for (const w of waiters) w();
    }
  })();
  const count = (event: string) => received.filter((e) => e.event === event).length;
  return {
    res,
    received,
    count,
    get ended() {
      return ended;
    },
    /** Resolves once `predicate` holds, or rejects after `ms`. */
    until(predicate: () => boolean, ms = 3000): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (predicate()) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out; received ${JSON.stringify(received)}`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
    async close() {
      controller.abort();
      await pump;
    },
  };
}

/**
 * A fixed window, used only before an assertion that a poke does NOT come (to another user, or a second
 * one out of a burst), or to let a poke's coalescing window (100 ms) pass so the next poke is a new one:
 * neither has an event to wait for. Longer than the coalescing window, so a poke that was going to go out
 * has gone.
 */
/**
 * A poke that must not come has nothing to wait on: these checks give it longer than the server takes to send one
 * (a burst is held for its coalescing window, then written at once) before counting. The other use spaces two
 * pokes further apart than that window, so they are two.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function baseUrl(app: FastifyInstance): string {
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('not listening');
  return `http://127.0.0.1:${addr.port}`;
}

/** Counts live subscriptions by wrapping services.events.subscribe and subscribeStaff (the route calls them per request). */
function countSubscriptions(services: Services) {
  const state = { live: 0 };
  const counted = (off: () => void) => {
    state.live++;
    return () => {
      state.live--;
      off();
    };
  };
  const subscribe = services.events.subscribe.bind(services.events);
  const subscribeStaff = services.events.subscribeStaff.bind(services.events);
  services.events.subscribe = (uid, fn) => counted(subscribe(uid, fn));
  services.events.subscribeStaff = (fn) => counted(subscribeStaff(fn));
  return state;
}

describe('GET /api/events (PGlite)', () => {
  let t: TestApp;
  let base: string;
  let alice: TestUser;
  let bob: TestUser;
  let staff: TestUser;
  let subs: { live: number };

  beforeAll(async () => {
    t = await createTestApp();
    subs = countSubscriptions(t.services);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = baseUrl(t.app);
    [alice, bob, staff] = await Promise.all([t.user(), t.user(), t.user({ staff: true })]);
  });
  afterAll(async () => {
    // fetch (undici) may hold a spare socket open that never sent a request; the server counts it
    // as busy, and close() would wait for the client's keep-alive timeout.
    t?.app.server.closeAllConnections();
    await t?.close();
  });

  it('answers 401 with no token and with a bad token, before opening a stream', async () => {
    const none = await fetch(`${base}/api/events`);
    expect(none.status).toBe(401);
    expect((await none.json()).error.code).toBe('UNAUTHORIZED');
    const bad = await fetch(`${base}/api/events`, { headers: { authorization: 'Bearer not.a.token' } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('content-type')).toMatch(/application\/json/);
  });

  it('opens an event stream with the right headers and says ready at once', async () => {
    const s = await openStream(base, alice.token);
    try {
      expect(s.res.status).toBe(200);
      expect(s.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(s.res.headers.get('cache-control')).toBe('no-store');
      expect(s.res.headers.get('x-accel-buffering')).toBe('no');
      // The security headers still apply to a hijacked reply.
      expect(s.res.headers.get('x-content-type-options')).toBe('nosniff');
      await s.until(() => s.count('ready') === 1, 1000);
      expect(s.received[0]).toMatchObject({ event: 'ready', data: '{}' });
    } finally {
      await s.close();
    }
  });

  it('pokes only the user whose data changed, with no data in the poke', async () => {
    const a = await openStream(base, alice.token);
    const b = await openStream(base, bob.token);
    try {
      await Promise.all([a.until(() => a.count('ready') === 1), b.until(() => b.count('ready') === 1)]);
      await t.services.events.poke(alice.uid);
      await a.until(() => a.count('poke') === 1);
      await sleep(300);
      expect(b.count('poke')).toBe(0);
      expect(a.received.find((e) => e.event === 'poke')?.data).toBe('{}');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('pokes everyone for a general change (poke(null))', async () => {
    const a = await openStream(base, alice.token);
    const b = await openStream(base, bob.token);
    try {
      await Promise.all([a.until(() => a.count('ready') === 1), b.until(() => b.count('ready') === 1)]);
      await t.services.events.poke(null);
      await Promise.all([a.until(() => a.count('poke') === 1), b.until(() => b.count('poke') === 1)]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("pokes staff streams when any user's data changes, and no other user's", async () => {
    const s = await openStream(base, staff.token);
    const b = await openStream(base, bob.token);
    try {
      await Promise.all([s.until(() => s.count('ready') === 1), b.until(() => b.count('ready') === 1)]);
      await t.services.events.poke(alice.uid);
      await s.until(() => s.count('poke') === 1);
      await sleep(300);
      expect(b.count('poke')).toBe(0);
    } finally {
      await Promise.all([s.close(), b.close()]);
    }
  });

  it('pokes staff streams alone for a staff-only change (pokeStaff)', async () => {
    const s = await openStream(base, staff.token);
    const a = await openStream(base, alice.token);
    try {
      await Promise.all([s.until(() => s.count('ready') === 1), a.until(() => a.count('ready') === 1)]);
      await t.services.events.pokeStaff();
      await s.until(() => s.count('poke') === 1);
      await sleep(300);
      expect(a.count('poke')).toBe(0);
      // A staff member's own poke and a staff poke in one burst are still one poke.
      await Promise.all([t.services.events.pokeStaff(), t.services.events.poke(staff.uid)]);
      await s.until(() => s.count('poke') === 2);
      await sleep(300);
      expect(s.count('poke')).toBe(2);
    } finally {
      await Promise.all([s.close(), a.close()]);
    }
  });

  it('pokes a staff stream when a route changes a client’s data (contact request)', async () => {
    const s = await openStream(base, staff.token);
    try {
      await s.until(() => s.count('ready') === 1);
      const res = await fetch(`${base}/api/contact`, {
        method: 'POST',
        headers: { ...alice.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ contactRequest: { subject: 'Any news?', message: 'Hello' } }),
      });
      expect(res.status).toBe(201);
      await res.body?.cancel();
      await s.until(() => s.count('poke') === 1);
    } finally {
      await s.close();
    }
  });

  it('coalesces a burst of pokes into one', async () => {
    const a = await openStream(base, alice.token);
    try {
      await a.until(() => a.count('ready') === 1);
      await Promise.all(Array.from({ length: 20 }, () => t.services.events.poke(alice.uid)));
      await a.until(() => a.count('poke') >= 1);
      await sleep(400);
      expect(a.count('poke')).toBe(1);
      // A later change is a new poke.
      await t.services.events.poke(alice.uid);
      await a.until(() => a.count('poke') === 2);
    } finally {
      await a.close();
    }
  });

  it('pokes when a route changes the user’s data (initial form)', async () => {
    const a = await openStream(base, alice.token);
    try {
      await a.until(() => a.count('ready') === 1);
      const res = await fetch(`${base}/api/user/initial-form`, {
        method: 'PUT',
        headers: { ...alice.headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          initialForm: { moneyLost: 100, lastFundsTransfer: Date.UTC(2025, 0, 1), fraudType: 'CRYPTO', fraudUrl: 'https://x.example', name: 'Al Ice' },
        }),
      });
      expect(res.status).toBe(201);
      await res.body?.cancel();
      await a.until(() => a.count('poke') === 1);
    } finally {
      await a.close();
    }
  });

  it('sends a ": ping" comment on the heartbeat interval, and app.close() ends open streams', async () => {
    const app = Fastify();
    await registerServices(app, t.services);
    await app.register(authPlugin);
    await app.register(eventRoutes, { prefix: '/api', heartbeatMs: 100 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const s = await openStream(baseUrl(app), alice.token);
    await s.until(() => s.received.filter((e) => e.comment === 'ping').length >= 2, 2000);
    // close() ends the open stream rather than waiting for it: it returns (a close that waited for the
    // stream would run into the test's timeout) and the client sees its stream end.
    await app.close();
    await s.until(() => s.ended);
    await s.close();
  });

  it('unsubscribes when the client goes away, a staff stream from both topics', async () => {
    for (const [user, topics] of [[alice, 1], [staff, 2]] as const) {
      // The streams of the tests before are closed; the server sees each close a moment later.
      await vi.waitFor(() => expect(subs.live).toBe(0), { timeout: 5000 });
      const before = subs.live;
      const a = await openStream(base, user.token);
      await a.until(() => a.count('ready') === 1);
      expect(subs.live).toBe(before + topics);
      await a.close();
      await vi.waitFor(() => expect(subs.live).toBe(before), { timeout: 5000 });
    }
  });

  it('refuses a sixth open stream of one user with 429, and takes it once one is closed', async () => {
    const carol = await t.user();
    const streams = [];
    for (let i = 0; i < 5; i++) {
      const s = await openStream(base, carol.token);
      await s.until(() => s.count('ready') === 1);
      streams.push(s);
    }
    const sixth = await fetch(`${base}/api/events`, { headers: { authorization: `Bearer ${carol.token}` } });
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('retry-after')).toBeTruthy();
    expect(await sixth.json()).toEqual({ error: { code: 'RATE_LIMITED', message: expect.stringMatching(/at most 5 can be open at once/) } });
    // Another user is not affected by carol's streams.
    const other = await openStream(base, bob.token);
    await other.until(() => other.count('ready') === 1);
    await other.close();

    await defined(streams.pop(), 'an open stream').close();
    // The server sees the close a moment later; then the place is free again.
    let again = await fetch(`${base}/api/events`, { headers: { authorization: `Bearer ${carol.token}` } });
    for (const deadline = Date.now() + 2000; again.status === 429 && Date.now() < deadline; ) {
      await again.body?.cancel();
      await sleep(20);
      again = await fetch(`${base}/api/events`, { headers: { authorization: `Bearer ${carol.token}` } });
    }
    expect(again.status).toBe(200);
    await again.body?.cancel();
    for (const s of streams) await s.close();
  });
});

const skip = postgresSkipReason();
if (skip) console.warn(`[events.test] cross-instance PostgreSQL test skipped: ${skip}`);

describe.skipIf(!!skip)('GET /api/events across two app instances on one PostgreSQL', () => {
  const dirs: string[] = [];
  const closers: (() => Promise<void>)[] = [];

  async function instance(url: string) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-events-'));
    dirs.push(dataDir);
    const services = await openServices(testConfig(dataDir), { database: { url } });
    const app = await buildApp(services);
    await app.listen({ port: 0, host: '127.0.0.1' });
    closers.push(async () => {
      app.server.closeAllConnections();
      await app.close();
      await services.close();
    });
    return { app, services, base: baseUrl(app) };
  }

  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('a subscriber on instance A hears a poke sent by instance B', async () => {
    const url = await freshPostgresUrl();
    const a = await instance(url);
    const b = await instance(url);
    const emulator = emulatorHost();
    const email = `xi-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@test.example`;
    const { idToken, localId } = await signUp(emulator, email, 'Secret#123');
    const other = await signUp(emulator, `o-${email}`, 'Secret#123');

    const onA = await openStream(a.base, idToken);
    const otherOnA = await openStream(a.base, other.idToken);
    try {
      await onA.until(() => onA.count('ready') === 1);
      await otherOnA.until(() => otherOnA.count('ready') === 1);
      await b.services.events.poke(localId);
      await onA.until(() => onA.count('poke') === 1, 5000);
      await sleep(300);
      expect(otherOnA.count('poke')).toBe(0);

      // A real write on B (the initial form) pokes the stream held by A.
      const res = await fetch(`${b.base}/api/user/initial-form`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${idToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          initialForm: { moneyLost: 5, lastFundsTransfer: Date.UTC(2025, 0, 1), fraudType: 'CRYPTO', fraudUrl: 'https://x.example', name: 'Cross Instance' },
        }),
      });
      expect(res.status).toBe(201);
      await onA.until(() => onA.count('poke') === 2, 5000);

      // A general change on B reaches every user on A.
      await b.services.events.poke(null);
      await otherOnA.until(() => otherOnA.count('poke') === 1, 5000);
    } finally {
      await Promise.all([onA.close(), otherOnA.close()]);
    }
  });

  it('a staff stream on instance A hears a client poke and a staff poke sent by instance B', async () => {
    const url = await freshPostgresUrl();
    const a = await instance(url);
    const b = await instance(url);
    const emulator = emulatorHost();
    const email = `xs-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@test.example`;
    const member = await signUp(emulator, email, 'Secret#123');
    const client = await signUp(emulator, `c-${email}`, 'Secret#123');
    // The first authenticated call creates the profile; the role is then granted in the database.
    const me = await fetch(`${a.base}/api/user`, { headers: { authorization: `Bearer ${member.idToken}` } });
    expect(me.status).toBe(200);
    await me.body?.cancel();
    await a.services.db.update(users).set({ isStaff: true }).where(eq(users.uid, member.localId));

    const onA = await openStream(a.base, member.idToken);
    try {
      await onA.until(() => onA.count('ready') === 1);
      await b.services.events.poke(client.localId);
      await onA.until(() => onA.count('poke') === 1, 5000);
      await sleep(300);
      await b.services.events.pokeStaff();
      await onA.until(() => onA.count('poke') === 2, 5000);
    } finally {
      await onA.close();
    }
  });
});
