import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { count, eq, like } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Response as InjectResponse } from 'light-my-request';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import { openServices, type Services } from '../compose.ts';
import { contactRequests, files, rateCounters, users } from '../db/schema.ts';
import { pruneRateCounters, takeHits, WINDOWS, windowStart } from '../platform/rate-counters.ts';
import { backends, type Backend, createTestApp, defined, freshPostgresUrl, postgresSkipReason, type TestApp, type TestUser, testConfig } from '../test-helper.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[write-limits.test] PostgreSQL run skipped: ${skip}`);

/** The production defaults (server/config.ts), stated here so a test of "normal use" cannot drift from them silently. */
const PRODUCTION_LIMITS = {
  WRITE_LIMIT_PER_MINUTE: '60',
  LEAD_WRITE_LIMIT_PER_MINUTE: '10',
  LEAD_WRITE_LIMIT_PER_DAY: '30',
  LEAD_UPLOAD_FILES_PER_DAY: '20',
  LEAD_UPLOAD_MB_PER_DAY: '50',
  UPLOADS_IN_FLIGHT_PER_USER: '2',
};

const contact = (subject: string) => ({ contactRequest: { subject, message: 'Please call me back.' } });
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function multipartBody(filename: string, data: Buffer) {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(data)], { type: 'image/png' }), filename);
  const res = new Response(form);
  return { payload: Buffer.from(await res.arrayBuffer()), contentType: defined(res.headers.get('content-type'), 'a multipart content type') };
}

/**
 * The windows are cut from Date.now(): freezing it (Date only; timers run) keeps a burst of requests in
 * one window, so the counts are exact and a test never straddles a window boundary. Users are created
 * before, so their tokens are not issued "in the future".
 */
function freezeClock(at = Date.now()) {
  vi.useFakeTimers({ toFake: ['Date'], now: at });
  return {
    at,
    advance(ms: number) {
      vi.setSystemTime(Date.now() + ms);
    },
  };
}

const statuses = (answers: InjectResponse[]) => answers.map((a) => a.statusCode).sort();
const contactRows = async (services: Services, uid: string) =>
  Number((await services.db.select({ n: count() }).from(contactRequests).where(eq(contactRequests.userId, uid)))[0].n);

afterEach(() => {
  vi.useRealTimers();
});

for (const backend of backends()) {
  describe(`write limits (${backend})`, () => {
    describe('with the production limits', () => {
      let t: TestApp;
      let lead: TestUser;
      let client: TestUser;
      let staff: TestUser;
      let burstAt = 0;
      beforeAll(async () => {
        t = await createTestApp({ backend, env: PRODUCTION_LIMITS });
        [lead, client, staff] = await Promise.all([t.user(), t.user({ client: true }), t.user({ staff: true })]);
      });
      afterAll(async () => t?.close());

      it('stores at most the quota of 30 parallel contact messages from an account awaiting approval; the rest are 429 with Retry-After', async () => {
        // Half a minute into the next window: the wait the refusal names is exactly 30 seconds (at a window's
        // first second it would round up to "1 minute"). The next test runs three minutes on and then asks
        // for the day's refusal: within ten minutes of midnight UTC the burst moves to the next day's first
        // minute (still within the tokens' hour), so the three minutes stay in one day and leave minutes of it.
        const next = windowStart(Date.now(), '1m') + WINDOWS['1m'] + 30_000;
        const nearMidnight = windowStart(next, '1d') + WINDOWS['1d'] - next < 10 * WINDOWS['1m'];
        burstAt = freezeClock(nearMidnight ? windowStart(next, '1d') + WINDOWS['1d'] + 30_000 : next).at;
        const answers = await Promise.all(
          Array.from({ length: 30 }, (_, i) => t.app.inject({ method: 'POST', url: '/api/contact', headers: lead.headers, payload: contact(`burst ${i}`) })),
        );
        expect(statuses(answers)).toEqual([...Array(10).fill(201), ...Array(20).fill(429)]);
        expect(await contactRows(t.services, lead.uid)).toBe(10);
        const refused = defined(
          answers.find((a) => a.statusCode === 429),
          'a refused answer',
        );
        expect(refused.json()).toEqual({
          error: { code: 'RATE_LIMITED', message: 'Too many requests: an account awaiting approval can make at most 10 changes a minute. Please try again in 30 seconds.' },
        });
        expect(refused.headers['retry-after']).toBe('30');
      });

      it('lets the same lead write again in the next minute, up to 30 a day, then says when the day is over', async () => {
        const clock = freezeClock(burstAt + WINDOWS['1m']);
        const send = (i: number) => t.app.inject({ method: 'POST', url: '/api/contact', headers: lead.headers, payload: contact(`day ${i}`) });
        for (let minute = 0; minute < 2; minute++) {
          const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => send(minute * 10 + i)));
          expect(statuses(answers)).toEqual(Array(10).fill(201));
          clock.advance(WINDOWS['1m']);
        }
        // 30 stored today (10 in the first minute, 20 since); the quota is the day's now.
        expect(await contactRows(t.services, lead.uid)).toBe(30);
        expect(windowStart(Date.now(), '1d')).toBe(windowStart(burstAt, '1d'));
        const refused = await send(99);
        expect(refused.statusCode).toBe(429);
        expect(refused.json().error.message).toMatch(/at most 30 changes a day\. Please try again in \d+ (hours?|minutes?)\./);
        const dayEnds = windowStart(clock.at, '1d') + WINDOWS['1d'];
        expect(Number(refused.headers['retry-after'])).toBe(Math.ceil((dayEnds - Date.now()) / 1000));
      });

      it("does not refuse an approved client's or a staff member's normal use", async () => {
        freezeClock();
        const thread = await t.app.inject({ method: 'POST', url: '/api/contact', headers: client.headers, payload: contact('Where is my report?') });
        expect(thread.statusCode).toBe(201);
        const threadId = thread.json().data.id as string;
        // A busy session: forty replies within one minute, beyond any lead's quota.
        for (let i = 0; i < 40; i++) {
          const reply = await t.app.inject({ method: 'POST', url: `/api/contact/${threadId}/replies`, headers: client.headers, payload: { reply: { message: `more ${i}` } } });
          expect(reply.statusCode).toBe(201);
        }
        for (let i = 0; i < 40; i++) {
          const note = await t.app.inject({ method: 'POST', url: '/api/staff/notes', headers: staff.headers, payload: { clientUid: client.uid, body: `note ${i}` } });
          expect(note.statusCode, note.body).toBe(201);
        }
      });
    });

    describe('with small limits', () => {
      let t: TestApp;
      let client: TestUser;
      let lead: TestUser;
      beforeAll(async () => {
        t = await createTestApp({ backend, env: { ...PRODUCTION_LIMITS, WRITE_LIMIT_PER_MINUTE: '3', LEAD_UPLOAD_FILES_PER_DAY: '2', LEAD_UPLOAD_MB_PER_DAY: '1' } });
        [client, lead] = await Promise.all([t.user({ client: true }), t.user()]);
      });
      afterAll(async () => t?.close());

      it('answers a replay of a stored Idempotency-Key with its stored answer, not a 429', async () => {
        const clock = freezeClock();
        const send = (key: string) =>
          t.app.inject({ method: 'POST', url: '/api/contact', headers: { ...client.headers, 'idempotency-key': key }, payload: contact(`keyed ${key}`) });
        const first = await send('replay-key-1');
        expect(first.statusCode).toBe(201);
        expect((await send('replay-key-2')).statusCode).toBe(201);
        expect((await send('replay-key-3')).statusCode).toBe(201);
        const fourth = await send('replay-key-4');
        expect(fourth.statusCode).toBe(429);
        // The outbox's retry of a command whose answer it lost: the stored answer, nothing stored again.
        const replay = await send('replay-key-1');
        expect(replay.statusCode).toBe(201);
        expect(replay.headers['idempotent-replayed']).toBe('true');
        expect(replay.json()).toEqual(first.json());
        expect(await contactRows(t.services, client.uid)).toBe(3);
        // The refused command claimed nothing, so its retry runs in the next window.
        clock.advance(WINDOWS['1m']);
        expect((await send('replay-key-4')).statusCode).toBe(201);
      });

      it('refuses a third upload of one user while two are in flight, at once; a finished one frees its place', async () => {
        freezeClock();
        const uploader = await t.user({ client: true });
        const { payload, contentType } = await multipartBody('slow.png', PNG);
        const post = (body: Buffer | PassThrough) =>
          t.app.inject({ method: 'POST', url: '/api/user/files', headers: { ...uploader.headers, 'content-type': contentType, 'content-length': String(payload.length) }, payload: body });
        // Two uploads whose bodies have not finished arriving: they hold their places.
        const bodies = [new PassThrough(), new PassThrough()];
        const slow = bodies.map((body) => {
          body.write(payload.subarray(0, 20));
          return post(body);
        });
        // Both have taken their place once both are counted as writes (that comes right after).
        const writes = () => t.services.db.select({ count: rateCounters.count }).from(rateCounters).where(eq(rateCounters.key, `1m:writes:${uploader.uid}`));
        await vi.waitFor(async () => expect((await writes())[0]?.count).toBe(2));
        const third = await post(payload);
        expect(third.statusCode).toBe(429);
        expect(third.json().error).toEqual({ code: 'RATE_LIMITED', message: expect.stringMatching(/Too many uploads at once: at most 2/) });
        expect(third.headers['retry-after']).toBe('1');
        for (const body of bodies) body.end(payload.subarray(20));
        expect((await Promise.all(slow)).map((d) => d.statusCode)).toEqual([201, 201]);
        const after = await post(payload);
        expect(after.statusCode, after.body).toBe(201);
      });

      it("counts a lead's uploads against a daily quota of files, and of bytes before they are read", async () => {
        freezeClock();
        const upload = async (name: string, data: Buffer) => {
          const body = await multipartBody(name, data);
          return t.app.inject({ method: 'POST', url: '/api/user/files', headers: { ...lead.headers, 'content-type': body.contentType }, payload: body.payload });
        };
        expect((await upload('a.png', PNG)).statusCode).toBe(201);
        expect((await upload('b.png', PNG)).statusCode).toBe(201);
        const third = await upload('c.png', PNG);
        expect(third.statusCode).toBe(429);
        expect(third.json().error.message).toMatch(/Upload quota reached: an account awaiting approval can upload at most 2 files and 1 MB a day/);
        expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
        const stored = await t.services.db.select({ n: count() }).from(files).where(eq(files.userId, lead.uid));
        expect(Number(stored[0].n)).toBe(2);

        // Bytes: a body larger than what is left of the day's megabyte is refused from its Content-Length.
        const other = await t.user();
        const big = await multipartBody('big.png', Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]));
        const refused = await t.app.inject({ method: 'POST', url: '/api/user/files', headers: { ...other.headers, 'content-type': big.contentType }, payload: big.payload });
        expect(refused.statusCode).toBe(429);
        expect(refused.json().error.message).toMatch(/Upload quota reached/);
      });
    });

    describe('two app instances on one database', () => {
      const closers: Array<() => Promise<void>> = [];
      afterAll(async () => {
        for (const close of closers.reverse()) await close();
      });

      /** Two apps that share one database: two sets of services on one PostgreSQL, or (PGlite, one process) one set. */
      async function twoInstances(which: Backend, env: Record<string, string>): Promise<{ apps: [FastifyInstance, FastifyInstance]; services: Services; t: TestApp }> {
        const t = await createTestApp({ backend: which, env });
        closers.push(() => t.close());
        if (which === 'pglite') {
          const second = await buildApp(t.services);
          closers.push(() => second.close());
          return { apps: [t.app, second], services: t.services, t };
        }
        const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-limits-'));
        const url = await freshPostgresUrl();
        const servicesA = await openServices(testConfig(dataDir, env), { database: { url } });
        const servicesB = await openServices(testConfig(dataDir, env), { database: { url } });
        const [a, b] = [await buildApp(servicesA), await buildApp(servicesB)];
        closers.push(async () => {
          await a.close();
          await b.close();
          await servicesA.close();
          await servicesB.close();
          rmSync(dataDir, { recursive: true, force: true });
        });
        return { apps: [a, b], services: servicesA, t };
      }

      it('limits N writes split across both instances as one', async () => {
        const { apps, services, t } = await twoInstances(backend, { ...PRODUCTION_LIMITS, WRITE_LIMIT_PER_MINUTE: '6' });
        const client = await t.user({ client: true });
        if (services !== t.services) {
          // The user's profile lives in the test app's database; the two instances have their own fresh one.
          await services.db.insert(users).values({ uid: client.uid, email: client.email, isClient: true });
        }
        freezeClock();
        const answers = await Promise.all(
          Array.from({ length: 10 }, (_, i) => apps[i % 2].inject({ method: 'POST', url: '/api/contact', headers: client.headers, payload: contact(`split ${i}`) })),
        );
        expect(statuses(answers)).toEqual([...Array(6).fill(201), ...Array(4).fill(429)]);
        // Both instances refused some: each alone would have let 5 through.
        expect(new Set(answers.map((a, i) => (a.statusCode === 429 ? i % 2 : -1)).filter((i) => i >= 0)).size).toBeGreaterThanOrEqual(1);
        expect(await contactRows(services, client.uid)).toBe(6);
      });
    });

    describe('counters', () => {
      let t: TestApp;
      beforeAll(async () => {
        t = await createTestApp({ backend });
      });
      afterAll(async () => t?.close());

      it('counts in fixed windows, each request against all its limits or none, and prunes the windows that are over', async () => {
        const now = Date.UTC(2026, 0, 1, 12, 0, 30);
        const limits = [
          { key: 'unit:u1', window: '1m' as const, max: 5 },
          { key: 'unit:u1', window: '1d' as const, max: 14, amount: 2 },
        ];
        const parallel = await Promise.all(Array.from({ length: 8 }, () => takeHits(t.services.db, limits, now)));
        // Five fit the minute; the three refused counted nowhere, not even in the day.
        expect(parallel.filter((over) => over === null)).toHaveLength(5);
        const refused = defined(parallel.find((over) => over !== null), 'a refusal');
        expect(refused).toEqual([{ limit: limits[0], resetInMs: 30_000 }]);
        // key@window start (UTC hh:mm) → count
        const counters = async () =>
          Object.fromEntries(
            (await t.services.db.select().from(rateCounters).where(like(rateCounters.key, '%:unit:%'))).map((r) => [`${r.key}@${r.windowStart.toISOString().slice(11, 16)}`, r.count]),
          );
        expect(await counters()).toEqual({ '1m:unit:u1@12:00': 5, '1d:unit:u1@00:00': 10 });
        // The next minute: the day has room for two more requests (14), then refuses the third until midnight.
        const next = now + WINDOWS['1m'];
        expect(await takeHits(t.services.db, limits, next)).toBeNull();
        expect(await takeHits(t.services.db, limits, next)).toBeNull();
        expect(await takeHits(t.services.db, limits, next)).toEqual([{ limit: limits[1], resetInMs: 12 * 3600_000 - 90_000 }]);
        // A single amount larger than the maximum is refused without counting.
        expect(await takeHits(t.services.db, [{ key: 'unit:u2', window: '1d', max: 10, amount: 11 }], next)).toHaveLength(1);
        expect(await counters()).toEqual({ '1m:unit:u1@12:00': 5, '1m:unit:u1@12:01': 2, '1d:unit:u1@00:00': 14 });

        // Two minutes on, both minute windows are over and the day's is not.
        expect(await pruneRateCounters(t.services.db, now + 2 * WINDOWS['1m'] + 1)).toBeGreaterThanOrEqual(2);
        expect(Object.keys(await counters())).toEqual(['1d:unit:u1@00:00']);
        await pruneRateCounters(t.services.db, now + WINDOWS['1d']);
        expect(await counters()).toEqual({});
      });
    });
  });
}
