import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LiveDetails } from '../../domain/schemas.ts';
import { RequestFile, StaffSyncPage } from '../../domain/staff.ts';
import { SyncPage } from '../../domain/sync.ts';
import { requestRef } from '../../domain/tools.ts';
import { StaffTrackingLink, trackingLinkReadyText } from '../../domain/tracking.ts';
import { buildApp } from '../app.ts';
import { auditLog, notifications, productRequests, trackingLinks, visits } from '../db/schema.ts';
import { backends, createTestApp, defined, postgresSkipReason, type TestApp, type TestUser } from '../test-helper.ts';
import { loadIpLookup } from '../tracking/ip-lookup.ts';
import { recordVisit } from '../tracking/record-visit.ts';
import { deleteExpiredVisits } from '../tracking/retention.ts';
import { NOT_FOUND_PAGE, NEUTRAL_PAGE } from './tracking.ts';
import { centsFromDollars } from '../../domain/money.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[tracking.test] PostgreSQL run skipped: ${skip}`);

type Json = Record<string, unknown>;
type RequestRow = typeof productRequests.$inferSelect;

const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.104 Mobile Safari/537.36';
const DAY = 24 * 60 * 60 * 1000;

describe.each(backends())('Track Master tracking links (%s)', (backend) => {
  let t: TestApp;
  let staff: TestUser;
  let client: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    [staff, client, other] = await Promise.all([t.user({ staff: true }), t.user({ client: true }), t.user({ client: true })]);
  });
  afterAll(async () => {
    await t?.close();
  });

  // ---- fixtures and calls ----

  async function request(values: Partial<typeof productRequests.$inferInsert> = {}): Promise<RequestRow> {
    const [row] = await t.services.db
      .insert(productRequests)
      .values({ userId: client.uid, toolId: 'track-master', productRequestType: 'TRACK_MASTER', status: 'In Progress', totalCents: centsFromDollars(400), paidCents: centsFromDollars(100), ...values })
      .returning();
    return row;
  }

  const createLink = (requestId: string, body: Json, user: TestUser = staff, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `/api/staff/requests/${requestId}/tracking-links`, headers: { ...user.headers, ...headers }, payload: body });
  const patchLink = (linkId: string, body: Json, user: TestUser = staff) =>
    t.app.inject({ method: 'PATCH', url: `/api/staff/tracking-links/${linkId}`, headers: user.headers, payload: body });

  async function newLink(destination: string | null = 'https://example.com/receipt', requestRow?: RequestRow): Promise<StaffTrackingLink> {
    const row = requestRow ?? (await request());
    const res = await createLink(row.id, { label: 'Receipt', destination });
    expect(res.statusCode, res.body).toBe(201);
    return StaffTrackingLink.parse(res.json().data);
  }

  /** A visit from `ip`, answered; the capture's write is awaited (it happens after the answer). */
  async function open(slug: string, opts: { ip?: string; ua?: string; headers?: Record<string, string>; method?: 'GET' | 'HEAD' } = {}) {
    const res = await t.app.inject({
      method: opts.method ?? 'GET',
      url: `/t/${slug}`,
      remoteAddress: opts.ip ?? '102.89.34.17',
      headers: { 'user-agent': opts.ua ?? ANDROID_CHROME, ...(opts.headers ?? {}) },
    });
    await t.app.tracking.idle();
    return res;
  }

  const visitsOf = (linkId: string) => t.services.db.select().from(visits).where(eq(visits.linkId, linkId)).orderBy(asc(visits.time));
  const linkRow = async (id: string) => defined((await t.services.db.select().from(trackingLinks).where(eq(trackingLinks.id, id)))[0], 'the link row');
  const get = (user: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: user.headers });
  const syncOf = async (user: TestUser, cursor = '0') => SyncPage.parse((await get(user, `/api/sync?cursor=${cursor}&limit=500`)).json().data);

  // ---- staff: create and disable ----

  describe('staff create a link', () => {
    it('on an In Progress Track Master request: the link, an audit row, and the link in the client\'s feed', async () => {
      const row = await request();
      const res = await createLink(row.id, { label: '  Receipt for the seller ', destination: 'https://example.com/r?id=7' });
      expect(res.statusCode, res.body).toBe(201);
      const link = StaffTrackingLink.parse(res.json().data);
      expect(link).toMatchObject({
        productRequestId: row.id,
        label: 'Receipt for the seller',
        destination: 'https://example.com/r?id=7',
        disabled: false,
        visits: 0,
        previews: 0,
        lastVisitAt: null,
        createdBy: staff.uid,
        version: 1,
      });
      expect(link.slug).toMatch(/^[A-Za-z0-9_-]{22}$/);

      const audit = await t.services.db.select().from(auditLog).where(and(eq(auditLog.entityId, link.id), eq(auditLog.action, 'tracking-link')));
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ actorUid: staff.uid, subjectUid: client.uid, requestId: row.id, before: null });

      // The client's feed carries it without what is staff's: destination, author, version.
      const synced = (await syncOf(client)).trackingLinks.find((l) => l.id === link.id);
      expect(synced).toEqual({
        id: link.id,
        productRequestId: row.id,
        slug: link.slug,
        label: 'Receipt for the seller',
        disabled: false,
        visits: 0,
        previews: 0,
        lastVisitAt: null,
        createdAt: link.createdAt,
        updatedAt: link.updatedAt,
      });
      const raw = (await get(client, '/api/sync?cursor=0&limit=500')).json().data.trackingLinks as Json[];
      expect(raw.find((l) => l.id === link.id)).not.toHaveProperty('destination');
    });

    it('a slug is new every time (128 random bits)', async () => {
      const row = await request();
      const slugs = new Set<string>();
      for (let i = 0; i < 5; i++) slugs.add((await newLink(null, row)).slug);
      expect(slugs.size).toBe(5);
    });

    it('400 with the field in the message for a bad body', async () => {
      const row = await request();
      for (const [body, field] of [
        [{}, 'label'],
        [{ label: '   ' }, 'label'],
        [{ label: 'x'.repeat(81) }, 'label'],
        [{ label: 'Receipt', destination: 'javascript:alert(1)' }, 'destination'],
        [{ label: 'Receipt', destination: 'ftp://example.com/x' }, 'destination'],
        [{ label: 'Receipt', destination: 'not a url' }, 'destination'],
        [{ label: 'Receipt', extra: 1 }, ''],
      ] as const) {
        const res = await createLink(row.id, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_FAILED');
        expect(res.json().error.message).toContain(field);
      }
      expect(await t.services.db.select().from(trackingLinks).where(eq(trackingLinks.requestId, row.id))).toHaveLength(0);
    });

    it('409 with a clear message on a request that is not In Progress, or not Track Master', async () => {
      for (const status of ['Pending', 'Waiting for actions', 'Done', 'Rejected'] as const) {
        const res = await createLink((await request({ status })).id, { label: 'Receipt' });
        expect(res.statusCode).toBe(409);
        expect(res.json().error).toEqual({ code: 'ILLEGAL_STATUS', message: `Tracking links can be created while the request is In Progress; it is ${status}.` });
      }
      const bank = await request({ toolId: 'bank-dispute', productRequestType: 'BANK_DISPUTE' });
      const res = await createLink(bank.id, { label: 'Receipt' });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toEqual({ code: 'NOT_TRACK_MASTER', message: 'Tracking links exist for Track Master requests only.' });
    });

    it('404 for an unknown or malformed request id; staff only', async () => {
      expect((await createLink('00000000-0000-4000-8000-000000000000', { label: 'Receipt' })).statusCode).toBe(404);
      expect((await createLink('nope', { label: 'Receipt' })).statusCode).toBe(404);
      const row = await request();
      expect((await createLink(row.id, { label: 'Receipt' }, client)).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'POST', url: `/api/staff/requests/${row.id}/tracking-links`, payload: { label: 'x' } })).statusCode).toBe(401);
    });

    it('an Idempotency-Key replay answers the first link and stores one', async () => {
      const row = await request();
      const headers = { 'idempotency-key': `link-${row.id}` };
      const label = `Receipt ${row.id.slice(0, 8)}`;
      const first = await createLink(row.id, { label }, staff, headers);
      const again = await createLink(row.id, { label }, staff, headers);
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json().data.id).toBe(first.json().data.id);
      expect(await t.services.db.select().from(trackingLinks).where(eq(trackingLinks.requestId, row.id))).toHaveLength(1);
      // The client is told once where to find it, not again on the replay.
      const told = await t.services.db.select().from(notifications).where(and(eq(notifications.userId, row.userId), eq(notifications.message, trackingLinkReadyText(label, requestRef(row)))));
      expect(requestRef(row)).toMatch(/^TM-\d{4,}$/);
      expect(told).toHaveLength(1);
      // The same key with another body is someone else's request.
      expect((await createLink(row.id, { label: 'Other' }, staff, headers)).statusCode).toBe(422);
    });
  });

  describe('staff disable a link', () => {
    it('a disabled link answers the same 404 page and records nothing; enabled again, it records', async () => {
      const link = await newLink();
      expect((await open(link.slug, { ip: '102.89.34.18' })).statusCode).toBe(302);

      const res = await patchLink(link.id, { disabled: true });
      expect(res.statusCode, res.body).toBe(200);
      expect(StaffTrackingLink.parse(res.json().data)).toMatchObject({ id: link.id, disabled: true, version: 2, visits: 1 });

      const closed = await open(link.slug, { ip: '102.89.34.18' });
      expect(closed.statusCode).toBe(404);
      expect(closed.body).toBe(NOT_FOUND_PAGE);
      expect(await visitsOf(link.id)).toHaveLength(1);

      // Disabling again changes nothing and writes no second audit row.
      expect((await patchLink(link.id, { disabled: true })).json().data.version).toBe(2);
      const audit = await t.services.db.select().from(auditLog).where(eq(auditLog.entityId, link.id));
      expect(audit.map((a) => a.after)).toEqual([{ label: 'Receipt', destination: 'https://example.com/receipt', disabled: false }, { disabled: true }]);

      expect((await patchLink(link.id, { disabled: false })).json().data).toMatchObject({ disabled: false, version: 3 });
      expect((await open(link.slug, { ip: '102.89.34.18' })).statusCode).toBe(302);
      expect(await visitsOf(link.id)).toHaveLength(2);
    });

    it('a visit already queued when the link is disabled is not recorded', async () => {
      const link = await newLink();
      await t.services.db.update(trackingLinks).set({ disabled: true }).where(eq(trackingLinks.id, link.id));
      const written = await recordVisit(t.services.db, await loadIpLookup(), link.id, { ip: '102.89.34.17', time: new Date().toISOString(), userAgent: null, referrer: null, language: null });
      expect(written).toBeNull();
      expect(await visitsOf(link.id)).toHaveLength(0);
    });

    it('400 on a bad body, 404 on an unknown link, staff only', async () => {
      const link = await newLink();
      for (const body of [{}, { disabled: 'yes' }, { disabled: true, label: 'x' }]) {
        const res = await patchLink(link.id, body);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_FAILED');
      }
      expect((await patchLink(link.id, {})).json().error.message).toContain('disabled');
      expect((await patchLink('00000000-0000-4000-8000-000000000000', { disabled: true })).statusCode).toBe(404);
      expect((await patchLink('nope', { disabled: true })).statusCode).toBe(404);
      expect((await patchLink(link.id, { disabled: true }, client)).statusCode).toBe(403);
    });
  });

  // ---- the public capture ----

  describe('GET /t/:slug', () => {
    it('redirects at once to the destination, uncached and without passing the referrer on, and records the visit', async () => {
      const link = await newLink('https://example.com/receipt?n=1');
      const before = await syncOf(client);
      const res = await open(link.slug, {
        headers: { referer: 'https://web.whatsapp.com/', 'accept-language': 'en-NG,en;q=0.9', 'x-forwarded-for': '8.8.8.8' },
      });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('https://example.com/receipt?n=1');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['referrer-policy']).toBe('no-referrer');

      const [visit] = await visitsOf(link.id);
      // X-Forwarded-For is not believed without TRUST_PROXY: the socket's address is the visitor's.
      expect(visit).toMatchObject({
        ip: '102.89.34.17',
        requestId: link.productRequestId,
        userId: client.uid,
        country: 'Nigeria',
        isp: 'MTN NIGERIA Communication limited',
        vpn: false,
        host: null,
        brand: 'Samsung',
        browser: 'Chrome 131',
        os: 'Android 14',
        device: 'mobile',
        referrer: 'https://web.whatsapp.com/',
        source: 'web.whatsapp.com',
        language: 'en-NG,en;q=0.9',
        userAgent: ANDROID_CHROME,
        preview: null,
      });
      expect(visit.ipDetails).toMatchObject({ response: 'OK', country_code: 'NG', city_name: 'Lagos', time_zone: 'Africa/Lagos', latitude: 6.4474, longitude: 3.3903 });

      // The link's counts moved, and with them its seq: the client's next pull carries them.
      const after = await syncOf(client, before.cursor);
      expect(after.trackingLinks.map((l) => [l.id, l.visits, l.previews])).toEqual([[link.id, 1, 0]]);
      expect(after.trackingLinks[0].lastVisitAt).toBe(new Date(visit.time).toISOString());
    });

    it('without a destination: a neutral page that says nothing about tracking', async () => {
      const link = await newLink(null);
      const res = await open(link.slug, { ip: '81.2.69.142' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toBe(NEUTRAL_PAGE);
      expect(res.body).not.toMatch(/track|visit|portal|record/i);
      expect((await visitsOf(link.id)).map((v) => v.country)).toEqual(['United Kingdom']);
    });

    it('an unknown, malformed or disabled slug: the same plain 404 page, nothing recorded', async () => {
      const disabled = await newLink();
      await patchLink(disabled.id, { disabled: true });
      const before = await t.services.db.select().from(visits);
      const bodies = new Set<string>();
      for (const slug of ['AAAAAAAAAAAAAAAAAAAAAA', 'short', 'x'.repeat(23), '%27%20or%201=1', disabled.slug]) {
        const res = await open(slug, { ip: '102.89.34.19' });
        expect(res.statusCode, slug).toBe(404);
        expect(res.headers['content-type']).toContain('text/html');
        expect(res.headers['cache-control']).toBe('no-store');
        bodies.add(res.body);
      }
      expect([...bodies]).toEqual([NOT_FOUND_PAGE]);
      expect(NOT_FOUND_PAGE).not.toMatch(/track|visit|portal|link/i);
      expect(await t.services.db.select().from(visits)).toHaveLength(before.length);
    });

    it('is not under /api and is not the PWA: /api/t/… is a JSON 404', async () => {
      const link = await newLink();
      const res = await t.app.inject({ method: 'GET', url: `/api/t/${link.slug}` });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    });

    it('with the built PWA served (the `npm start` stack), /t/… is still the capture, never the SPA fallback', async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'portal-dist-'));
      writeFileSync(path.join(dir, 'index.html'), '<!doctype html><meta name="portal-config" content="{}" /><div id="root">the PWA</div>');
      const served = await buildApp({ ...t.services, config: { ...t.services.config, STATIC_DIR: dir } });
      try {
        const link = await newLink(null);
        const page = await served.inject({ method: 'GET', url: '/staff/requests/x' });
        expect(page.body).toContain('the PWA');
        for (const slug of ['AAAAAAAAAAAAAAAAAAAAAA', 'short']) {
          const res = await served.inject({ method: 'GET', url: `/t/${slug}` });
          expect(res.statusCode).toBe(404);
          expect(res.body).toBe(NOT_FOUND_PAGE);
        }
        const res = await served.inject({ method: 'GET', url: `/t/${link.slug}`, remoteAddress: '102.89.34.28' });
        expect(res.statusCode).toBe(200);
        expect(res.body).toBe(NEUTRAL_PAGE);
        await served.tracking.idle();
        expect(await visitsOf(link.id)).toHaveLength(1);
      } finally {
        await served.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('a HEAD request is answered and records nothing', async () => {
      const link = await newLink();
      expect((await open(link.slug, { ip: '102.89.34.20', method: 'HEAD' })).statusCode).toBe(302);
      expect(await visitsOf(link.id)).toHaveLength(0);
    });

    it('a private or loopback address is recorded without a location, and without an error', async () => {
      const link = await newLink();
      for (const ip of ['127.0.0.1', '10.0.0.7', '::1']) expect((await open(link.slug, { ip })).statusCode).toBe(302);
      const rows = await visitsOf(link.id);
      expect(rows.map((v) => v.ip).sort()).toEqual(['10.0.0.7', '127.0.0.1', '::1']);
      for (const v of rows) expect(v).toMatchObject({ country: null, isp: null, ipDetails: null, vpn: false });
    });

    it('addresses of several countries get their country and network from the shipped data', async () => {
      const link = await newLink();
      const cases = [
        ['102.89.34.21', 'Nigeria', 'MTN NIGERIA Communication limited'],
        ['81.2.69.142', 'United Kingdom', 'Andrews & Arnold Ltd'],
        ['49.36.0.1', 'India', 'Reliance Jio Infocomm Limited'],
        ['213.180.204.3', 'Russia', 'YANDEX LLC'],
        ['2a00:1450:4001:80b::200e', 'Germany', 'Google LLC'],
      ];
      for (const [ip] of cases) await open(link.slug, { ip });
      const rows = await visitsOf(link.id);
      expect(rows.map((v) => [v.ip, v.country, v.isp]).sort()).toEqual(cases.sort());
    });

    it('a hosting provider\'s address is flagged vpn', async () => {
      const link = await newLink();
      await open(link.slug, { ip: '139.59.0.1' });
      const [visit] = await visitsOf(link.id);
      expect(visit).toMatchObject({ ip: '139.59.0.1', country: 'India', isp: 'DigitalOcean, LLC', vpn: true });
      expect(visit.ipDetails).toMatchObject({ usage_type: 'DCH' });
    });

    it('link-preview fetches (WhatsApp, Telegram, Facebook, iMessage) are marked and counted apart, not as visits', async () => {
      const row = await request({ totalCents: centsFromDollars(400), paidCents: centsFromDollars(100) });
      const link = await newLink(null, row);
      const previews = {
        WhatsApp: 'WhatsApp/2.23.20.0 A',
        Telegram: 'TelegramBot (like TwitterBot)',
        Facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
        iMessage: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0',
      };
      for (const [i, ua] of Object.values(previews).entries()) await open(link.slug, { ip: `31.13.64.${i + 1}`, ua });
      await open(link.slug, { ip: '102.89.34.22' });
      const rows = await visitsOf(link.id);
      expect(rows.map((v) => v.preview ?? 'person').sort()).toEqual(['Facebook', 'Telegram', 'WhatsApp', 'iMessage', 'person']);
      expect(rows.find((v) => v.preview === 'WhatsApp')?.source).toBe('WhatsApp');
      expect(await linkRow(link.id)).toMatchObject({ visits: 1, previews: 4 });

      // Before payment in full the placeholder counts people only (at least 3), and Request Details too.
      const live = LiveDetails.parse((await get(client, `/api/tools/track-master/requests/${row.id}/live-details`)).json().data);
      expect(live.data).toBe(3);
      expect((await get(client, `/api/tools/track-master/requests/${row.id}`)).json().data.visits).toBe(1);
      // Paid in full: every visit, previews marked.
      await t.services.db.update(productRequests).set({ paidCents: centsFromDollars(400) }).where(eq(productRequests.id, row.id));
      const paid = LiveDetails.parse((await get(client, `/api/tools/track-master/requests/${row.id}/live-details`)).json().data);
      expect(Array.isArray(paid.data) && paid.data.map((v) => v.preview ?? 'person').sort()).toEqual(['Facebook', 'Telegram', 'WhatsApp', 'iMessage', 'person']);
    });

    it('the rate limit holds: a flood from one address is answered but recorded 5 times per 10 minutes', async () => {
      const link = await newLink();
      const answers: number[] = [];
      for (let i = 0; i < 9; i++) answers.push((await open(link.slug, { ip: '41.203.72.9' })).statusCode);
      expect(answers).toEqual(Array(9).fill(302));
      expect(await visitsOf(link.id)).toHaveLength(5);
      expect(await linkRow(link.id)).toMatchObject({ visits: 5 });
      // Another address still gets through.
      await open(link.slug, { ip: '41.203.72.10' });
      expect(await visitsOf(link.id)).toHaveLength(6);
    });

    it('the rate limit holds across instances: a flood through two apps on one database is recorded 5 times', async () => {
      const link = await newLink();
      const second = await buildApp(t.services);
      // The shared counts are kept in windows aligned on the clock (server/platform/rate-counters.ts): the flood runs at one
      // frozen instant (Date only; timers run), so it cannot straddle a ten-minute boundary and be counted
      // 5 times in each window.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
      try {
        for (let i = 0; i < 8; i++) {
          const app = i % 2 === 0 ? t.app : second;
          const res = await app.inject({ url: `/t/${link.slug}`, remoteAddress: '41.203.72.77', headers: { 'user-agent': ANDROID_CHROME } });
          expect(res.statusCode).toBe(302);
          await app.tracking.idle();
        }
        expect(await visitsOf(link.id)).toHaveLength(5);
      } finally {
        vi.useRealTimers();
        await second.close();
      }
    });

    it('a recorded visit pokes the client, whose streams pull it', async () => {
      const link = await newLink();
      let poked = 0;
      const unsubscribe = t.services.events.subscribe(client.uid, () => poked++);
      try {
        await open(link.slug, { ip: '102.89.34.23' });
        await expect.poll(() => poked, { timeout: 5000 }).toBeGreaterThan(0);
      } finally {
        unsubscribe();
      }
    });
  });

  // ---- who sees what ----

  describe('reading links and visits', () => {
    it('a client never sees another client\'s links or visits', async () => {
      const row = await request({ totalCents: centsFromDollars(100), paidCents: centsFromDollars(100) });
      const link = await newLink(null, row);
      await open(link.slug, { ip: '102.89.34.24' });

      const otherFeed = await syncOf(other);
      expect(otherFeed.trackingLinks).toEqual([]);
      for (const url of [`/api/tools/track-master/requests/${row.id}/live-details`, `/api/tools/track-master/requests/${row.id}`]) {
        const res = await get(other, url);
        expect(res.statusCode).toBe(404);
        expect(res.body).not.toContain(link.slug);
        expect(res.body).not.toContain('102.89.34.24');
      }
      // The owner reads them; staff routes are closed to clients.
      const mine = LiveDetails.parse((await get(client, `/api/tools/track-master/requests/${row.id}/live-details`)).json().data);
      expect(Array.isArray(mine.data) && mine.data.map((v) => [v.ip, v.linkId])).toEqual([['102.89.34.24', link.id]]);
      expect((await syncOf(client)).trackingLinks.some((l) => l.id === link.id)).toBe(true);
      expect((await get(other, `/api/staff/requests/${row.id}`)).statusCode).toBe(403);
    });

    it('the staff request file has every link and every visit, newest first, and the staff feed sends it again after a capture', async () => {
      const row = await request();
      const first = await newLink(null, row);
      const second = await newLink('https://example.com/', row);
      const opened = await get(staff, `/api/staff/requests/${row.id}`);
      expect(opened.statusCode).toBe(200);
      const file = RequestFile.parse(opened.json().data);
      expect(file.trackingLinks.map((l) => l.id)).toEqual([second.id, first.id]);
      expect(file.trackingLinks[0]).toMatchObject({ destination: 'https://example.com/', createdBy: staff.uid, version: 1 });
      expect(file.visits).toEqual([]);

      const feed = async (cursor: string) => StaffSyncPage.parse((await get(staff, `/api/staff/sync?cursor=${cursor}&limit=100`)).json().data);
      let cursor = '0';
      for (let page = await feed(cursor); ; page = await feed(cursor)) {
        cursor = page.cursor;
        if (!page.hasMore) break;
      }
      await open(first.slug, { ip: '102.89.34.25', ua: 'WhatsApp/2.23.20.0 A' });
      await open(first.slug, { ip: '102.89.34.26' });
      const next = await feed(cursor);
      const sent = defined(next.requests.find((r) => r.request.id === row.id), 'the request file in the staff feed');
      expect(sent.visits.map((v) => [v.ip, v.preview])).toEqual([
        ['102.89.34.26', null],
        ['102.89.34.25', 'WhatsApp'],
      ]);
      expect(sent.trackingLinks.find((l) => l.id === first.id)).toMatchObject({ visits: 1, previews: 1 });
    });
  });

  // ---- retention ----

  describe('retention', () => {
    it('deletes the visits of requests Done or Rejected more than N days ago, and only those', async () => {
      const now = new Date();
      const ago = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
      const lookup = await loadIpLookup();
      const cases = {
        oldDone: await request({ status: 'Done', updatedAt: ago(91) }),
        oldRejected: await request({ status: 'Rejected', updatedAt: ago(120) }),
        recentDone: await request({ status: 'Done', updatedAt: ago(89) }),
        oldInProgress: await request({ status: 'In Progress', updatedAt: ago(200) }),
      };
      const links: Record<string, string> = {};
      for (const [name, row] of Object.entries(cases)) {
        const [link] = await t.services.db.insert(trackingLinks).values({ requestId: row.id, userId: row.userId, slug: `retention-${name}-${row.id}`.slice(0, 60), label: name }).returning();
        links[name] = link.id;
        await recordVisit(t.services.db, lookup, link.id, { ip: '102.89.34.27', time: ago(150), userAgent: null, referrer: null, language: null });
        await recordVisit(t.services.db, lookup, link.id, { ip: '102.89.34.27', time: ago(150), userAgent: 'WhatsApp/2.23.20.0 A', referrer: null, language: null });
      }
      const count = async (name: keyof typeof cases) => (await t.services.db.select().from(visits).where(eq(visits.requestId, cases[name].id))).length;

      const result = await deleteExpiredVisits(t.services.db, 90, now);
      expect(result.deleted).toBeGreaterThanOrEqual(4);
      expect(result.owners).toContain(client.uid);
      expect(await count('oldDone')).toBe(0);
      expect(await count('oldRejected')).toBe(0);
      expect(await count('recentDone')).toBe(2);
      expect(await count('oldInProgress')).toBe(2);
      // The links stay, counted again from what is left.
      expect(await linkRow(links.oldDone)).toMatchObject({ visits: 0, previews: 0 });
      expect(await linkRow(links.recentDone)).toMatchObject({ visits: 1, previews: 1 });

      // Run "two days later" (the injected clock): the recent one has passed its 90 days too.
      await deleteExpiredVisits(t.services.db, 90, new Date(now.getTime() + 2 * DAY));
      expect(await count('recentDone')).toBe(0);
      expect(await count('oldInProgress')).toBe(2);
    });
  });
});
