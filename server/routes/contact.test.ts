import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../test-helper.ts';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [alice, bob] = await Promise.all([t.user({ client: true }), t.user()]);
});
afterAll(() => t?.close());

const send = (user: TestUser | null, payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/contact', headers: user?.headers ?? {}, payload: payload as object });
const list = async (user: TestUser) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/contact', headers: user.headers });
  expect(res.statusCode).toBe(200);
  return res.json().data as { id: string; subject: string; message: string; createdAt: string }[];
};

describe('contact requests', () => {
  it('need a token', async () => {
    expect((await send(null, { contactRequest: { subject: 'a', message: 'b' } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/contact' })).statusCode).toBe(401);
  });

  it('are created with 201 and listed newest first, to their author only', async () => {
    const first = await send(alice, { contactRequest: { subject: 'Refund question', message: 'When will I hear back?' } });
    expect(first.statusCode).toBe(201);
    expect(first.json().data).toMatchObject({ id: expect.any(String), subject: 'Refund question', message: 'When will I hear back?' });
    expect(Number.isNaN(Date.parse(first.json().data.createdAt))).toBe(false);
    const second = await send(alice, { contactRequest: { subject: 'Second', message: 'More details' } });
    expect(second.statusCode).toBe(201);

    const mine = await list(alice);
    expect(mine.map((c) => c.id)).toEqual([second.json().data.id, first.json().data.id]);
    const theirs = await list(bob);
    expect(theirs).toEqual([]);
  });

  it('refuse empty, missing and over-long fields with a message', async () => {
    const cases: [unknown, RegExp][] = [
      [{ contactRequest: { subject: '  ', message: 'x' } }, /subject/],
      [{ contactRequest: { subject: 'x', message: '' } }, /message/],
      [{ contactRequest: { subject: 'x' } }, /message/],
      [{ contactRequest: { subject: 'x'.repeat(151), message: 'x' } }, /subject/],
      [{ contactRequest: { subject: 'x', message: 'x'.repeat(2001) } }, /message/],
      [{}, /contactRequest/],
    ];
    for (const [payload, field] of cases) {
      const res = await send(alice, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().error.message).toMatch(field);
    }
    expect((await list(bob)).length).toBe(0);
  });
});

describe('POST /api/user/not-crm-exists', () => {
  const check = (email: unknown, remoteAddress: string) =>
    t.app.inject({ method: 'POST', url: '/api/user/not-crm-exists', remoteAddress, payload: { email } });

  it('answers the same for an email with an account and one without, without a token', async () => {
    const known = await check(alice.email, '10.0.0.1');
    const knownUpper = await check(alice.email.toUpperCase(), '10.0.0.1');
    const unknown = await check('nobody-here@test.example', '10.0.0.1');
    for (const res of [known, knownUpper, unknown]) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { received: true } });
    }
    expect(unknown.body).toBe(known.body);
    expect(unknown.headers['content-type']).toBe(known.headers['content-type']);
    expect(unknown.headers['content-length']).toBe(known.headers['content-length']);
  });

  it('refuses an invalid email with 400', async () => {
    for (const email of ['not-an-email', '', 42]) {
      const res = await check(email, '10.0.0.2');
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(/email/);
    }
  });

  it('answers 429 in the error shape after 5 calls a minute from one address', async () => {
    for (let i = 0; i < 5; i++) expect((await check(`x${i}@test.example`, '10.0.0.3')).statusCode).toBe(200);
    const limited = await check(alice.email, '10.0.0.3');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: { code: 'RATE_LIMITED', message: expect.stringMatching(/Too many requests/) } });
    expect(limited.headers['retry-after']).toBeDefined();
    // Another address is not affected.
    expect((await check(alice.email, '10.0.0.4')).statusCode).toBe(200);
  });
});
