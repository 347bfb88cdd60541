import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../test-helper.ts';

let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [admin, alice, bob] = await Promise.all([t.user({ admin: true }), t.user({ client: true }), t.user()]);
});
afterAll(() => t?.close());

const post = (user: TestUser | null, url: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers: user?.headers ?? {}, payload: payload as object });
const list = async (user: TestUser) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/notification', headers: user.headers });
  expect(res.statusCode).toBe(200);
  return res.json().data as { id: string; message: string; createdAt: string; userId: string | null }[];
};

/** Resolves on the next poke for this user (pokes travel through NOTIFY, so they are asynchronous). */
function nextPoke(uid: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no poke for ${uid}`));
    }, 5000);
    const stop = t.services.events.subscribe(uid, () => {
      clearTimeout(timer);
      stop();
      resolve();
    });
  });
}

describe('admin notification routes', () => {
  it('answer 401 without a token and 403 to a client', async () => {
    const body = { notification: { message: 'hello' } };
    for (const url of ['/api/notification', `/api/notification/${alice.uid}`]) {
      const anon = await post(null, url, body);
      expect(anon.statusCode).toBe(401);
      expect(anon.json().error.code).toBe('UNAUTHORIZED');
      const client = await post(alice, url, body);
      expect(client.statusCode).toBe(403);
      expect(client.json().error).toMatchObject({ code: 'FORBIDDEN', message: expect.any(String) });
    }
    expect((await list(alice)).some((n) => n.message === 'hello')).toBe(false);
  });

  it('refuse empty, whitespace-only and over-long content with a message', async () => {
    for (const message of ['', '   \n ', 'x'.repeat(1001)]) {
      for (const url of ['/api/notification', `/api/notification/${alice.uid}`]) {
        const res = await post(admin, url, { notification: { message } });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.message).toMatch(/message/);
      }
    }
    const missing = await post(admin, '/api/notification', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toMatch(/notification/);
    // 1000 characters is still allowed.
    expect((await post(admin, '/api/notification', { notification: { message: 'y'.repeat(1000) } })).statusCode).toBe(201);
  });

  it('refuse a missing or unknown user id', async () => {
    const missing = await post(admin, '/api/notification/', { notification: { message: 'hi' } });
    expect(missing.statusCode).toBeGreaterThanOrEqual(400);
    expect(missing.statusCode).toBeLessThan(500);
    expect(missing.json().error.message).toEqual(expect.any(String));
    const blank = await post(admin, '/api/notification/%20%20', { notification: { message: 'hi' } });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error.message).toMatch(/userId/);
    const unknown = await post(admin, '/api/notification/no-such-user', { notification: { message: 'hi' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toEqual({ code: 'NOT_FOUND', message: 'User no-such-user not found' });
  });
});

describe('notification visibility', () => {
  it('shows a general one to everyone and a specific one only to its user, newest first', async () => {
    const everyone = Promise.all([nextPoke(alice.uid), nextPoke(bob.uid)]);
    const general = await post(admin, '/api/notification', { notification: { message: '  Office closed on Friday  ' } });
    expect(general.statusCode).toBe(201);
    expect(general.json().data).toMatchObject({ message: 'Office closed on Friday', userId: null, id: expect.any(String) });
    await everyone;

    const alicePoked = nextPoke(alice.uid);
    const specific = await post(admin, `/api/notification/${alice.uid}`, { notification: { message: 'Your case moved forward' } });
    expect(specific.statusCode).toBe(201);
    expect(specific.json().data).toMatchObject({ message: 'Your case moved forward', userId: alice.uid });
    await alicePoked;

    const forAlice = await list(alice);
    const forBob = await list(bob);
    const ids = (items: { id: string }[]) => items.map((n) => n.id);
    expect(ids(forAlice)).toContain(general.json().data.id);
    expect(ids(forAlice)).toContain(specific.json().data.id);
    expect(ids(forBob)).toContain(general.json().data.id);
    expect(ids(forBob)).not.toContain(specific.json().data.id);
    expect(forBob.every((n) => n.userId === null || n.userId === bob.uid)).toBe(true);
    // Newest first.
    expect(forAlice[0].id).toBe(specific.json().data.id);
    const times = forAlice.map((n) => Date.parse(n.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('needs a token to list', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/notification' });
    expect(res.statusCode).toBe(401);
  });
});

describe('audit of notifications', () => {
  it('writes who sent what to whom, in the history of that client', async () => {
    const { clientHistory } = await import('../services/audit.ts');
    const message = `audited ${Date.now()}`;
    const res = await post(admin, `/api/notification/${bob.uid}`, { notification: { message } });
    expect(res.statusCode).toBe(201);
    const history = await clientHistory(t.services.db, bob.uid);
    const entry = history.find((h) => h.entityId === res.json().data.id);
    expect(entry).toMatchObject({ action: 'notification', actor: { uid: admin.uid, email: admin.email }, after: { message, to: bob.uid } });
  });
});
