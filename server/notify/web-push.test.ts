import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newVapidKeys } from '../config.ts';
import { pushSubscriptions } from '../db/schema.ts';
import { type PushReceiver, startPushReceiver } from './test-support/push-receiver.ts';
import { backends, createTestApp, defined, postgresSkipReason, type TestApp, type TestUser } from '../test-helper.ts';
import { retryAfterSeconds, sendPush, topicFor, vapidAuthorization } from './web-push.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[web-push.test] PostgreSQL run skipped: ${skip}`);

describe.each(backends())('sendPush to a push receiver (%s)', (backend) => {
  let t: TestApp;
  let alice: TestUser;
  let receiver: PushReceiver;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    alice = await t.user({ client: true });
    receiver = await startPushReceiver({ vapidPublicKey: t.services.config.vapid.publicKey });
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  /** A device subscribed through the API, as the app does it; returns its row. */
  async function subscribedDevice(endpoint?: string) {
    const sub = receiver.subscribe();
    const res = await t.app.inject({ method: 'POST', url: '/api/push/subscriptions', headers: alice.headers, payload: endpoint ? { ...sub, endpoint } : sub });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await t.services.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, res.json().data.id));
    return defined(row, 'the saved subscription');
  }
  const deps = () => ({ db: t.services.db, vapid: t.services.config.vapid });
  const stillSaved = async (id: string) => (await t.services.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id))).length === 1;
  const options = (deliveryId = randomUUID()) => ({ topic: topicFor(deliveryId), ttl: 86_400, urgency: 'high' as const });

  it('delivers the payload encrypted for the device: the receiver decrypts exactly it, verifies the VAPID JWT and sees the Topic', async () => {
    const device = await subscribedDevice();
    const deliveryId = randomUUID();
    const payload = { v: 1, id: deliveryId, title: 'Recovery', body: 'You have a new update', url: '/requests', tag: 'request:1' };
    const before = receiver.received.length;
    const result = await sendPush(deps(), device, payload, options(deliveryId));
    expect(result).toEqual({ outcome: 'sent', status: 201 });
    const [push] = (await receiver.waitFor(before + 1)).slice(before);
    expect(push.problems).toEqual([]);
    expect(push.endpoint).toBe(device.endpoint);
    expect(JSON.parse(defined(push.payload, 'a decrypted payload'))).toEqual(payload);
    expect(push.claims).toMatchObject({ aud: receiver.origin, sub: t.services.config.vapid.subject });
    expect(push.headers.topic).toBe(deliveryId.replace(/-/g, ''));
    expect(push.headers.topic).toMatch(/^[0-9a-f]{32}$/);
    expect(push.headers.ttl).toBe('86400');
    expect(push.headers.urgency).toBe('high');
    expect(push.headers['content-encoding']).toBe('aes128gcm');
  });

  it('sends nothing readable to anyone but the device: the body on the wire is not the payload', async () => {
    const device = await subscribedDevice();
    const before = receiver.received.length;
    await sendPush(deps(), device, 'Support replied to your message', options());
    const [push] = (await receiver.waitFor(before + 1)).slice(before);
    expect(push.payload).toBe('Support replied to your message');
    expect(JSON.stringify(push.headers)).not.toContain('Support replied');
  });

  it.each([410, 404])('deletes the subscription when the push service answers %i (the device is gone)', async (status) => {
    const device = await subscribedDevice();
    receiver.script(device.endpoint, status);
    const result = await sendPush(deps(), device, 'hello', options());
    expect(result).toEqual({ outcome: 'gone', status });
    expect(await stillSaved(device.id)).toBe(false);
  });

  it('reports 5xx and 429 as worth a retry, with Retry-After when given, and keeps the subscription', async () => {
    const device = await subscribedDevice();
    receiver.script(device.endpoint, 500, { status: 503, headers: { 'retry-after': '120' } }, { status: 429, headers: { 'retry-after': '86400' } });
    expect(await sendPush(deps(), device, 'hello', options())).toMatchObject({ outcome: 'retry', status: 500, retryAfterSeconds: null });
    expect(await sendPush(deps(), device, 'hello', options())).toMatchObject({ outcome: 'retry', status: 503, retryAfterSeconds: 120 });
    expect(await sendPush(deps(), device, 'hello', options())).toMatchObject({ outcome: 'retry', status: 429, retryAfterSeconds: 3600 });
    expect(await stillSaved(device.id)).toBe(true);
    // After the scripted failures the receiver takes it again.
    expect(await sendPush(deps(), device, 'hello', options())).toEqual({ outcome: 'sent', status: 201 });
  });

  it('reports a push service that does not answer in time as worth a retry', async () => {
    const device = await subscribedDevice();
    receiver.script(device.endpoint, { status: 201, hang: true });
    const result = await sendPush(deps(), device, 'hello', { ...options(), timeoutMs: 300 });
    expect(result).toEqual({ outcome: 'retry', status: null, retryAfterSeconds: null, error: 'no answer within 300 ms' });
    expect(await stillSaved(device.id)).toBe(true);
  });

  it('reports a push service that cannot be reached as worth a retry', async () => {
    const device = await subscribedDevice();
    // Port 9 (discard) on loopback: nothing listens there, so the connection is refused.
    const result = await sendPush(deps(), { ...device, endpoint: 'http://127.0.0.1:9/push/nowhere' }, 'hello', options());
    expect(result).toMatchObject({ outcome: 'retry', status: null });
    expect(await stillSaved(device.id)).toBe(true);
  });

  it('is refused (403, failed, not retried) when signed with another VAPID key, and the subscription is kept', async () => {
    const device = await subscribedDevice();
    const before = receiver.received.length;
    const result = await sendPush({ ...deps(), vapid: { ...newVapidKeys(), subject: 'mailto:other@example.com' } }, device, 'hello', options());
    expect(result).toMatchObject({ outcome: 'failed', status: 403 });
    const [push] = (await receiver.waitFor(before + 1)).slice(before);
    expect(push.problems).toContain("k is not the server's VAPID public key");
    expect(await stillSaved(device.id)).toBe(true);
  });
});

describe('topicFor and retryAfterSeconds', () => {
  it('makes a 32-hex Topic of a delivery id and refuses anything else', () => {
    expect(topicFor('0b9d6c1e-7f1a-4c52-9a8e-3d2f1b0c9e7a')).toBe('0b9d6c1e7f1a4c529a8e3d2f1b0c9e7a');
    expect(() => topicFor('reply:42')).toThrow(/not a delivery id/);
  });

  it('reads Retry-After as seconds or an HTTP date, at most an hour', () => {
    const now = Date.parse('2026-11-27T12:00:00Z');
    expect(retryAfterSeconds('30', now)).toBe(30);
    expect(retryAfterSeconds('Fri, 27 Nov 2026 12:02:00 GMT', now)).toBe(120);
    expect(retryAfterSeconds('99999', now)).toBe(3600);
    expect(retryAfterSeconds('soon', now)).toBeNull();
    expect(retryAfterSeconds(null, now)).toBeNull();
  });

  it('signs one VAPID JWT per push service and reuses it until an hour before its 12 hours end', () => {
    const vapid = { ...newVapidKeys(), subject: 'mailto:ops@example.com' };
    const now = Date.parse('2026-11-27T12:00:00Z');
    const fcm = vapidAuthorization(vapid, 'https://fcm.googleapis.com', now);
    expect(vapidAuthorization(vapid, 'https://fcm.googleapis.com', now + 10 * 3600_000)).toBe(fcm);
    expect(vapidAuthorization(vapid, 'https://updates.push.services.mozilla.com', now)).not.toBe(fcm);
    const renewed = vapidAuthorization(vapid, 'https://fcm.googleapis.com', now + 11 * 3600_000 + 1);
    expect(renewed).not.toBe(fcm);
    const claims = (header: string) => JSON.parse(Buffer.from(header.split('t=')[1].split('.')[1], 'base64url').toString('utf8')) as { exp: number; aud: string };
    expect(claims(fcm)).toMatchObject({ aud: 'https://fcm.googleapis.com', exp: now / 1000 + 12 * 3600 });
    expect(claims(renewed).exp).toBeGreaterThan(claims(fcm).exp);
  });
});
