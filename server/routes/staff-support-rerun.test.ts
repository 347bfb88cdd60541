import { randomUUID } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, contactReplies, idempotencyKeys, notifications, staffNotes } from '../db/schema.ts';
import { backends, createTestApp, type TestApp, type TestUser } from '../test-helper.ts';

describe.each(backends())('staff replies and notes rerun after a crash return the first result (%s)', (backend) => {
  let t: TestApp;
  let staff: TestUser;
  let client: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ backend });
    [staff, client] = await Promise.all([t.user({ staff: true }), t.user({ client: true })]);
  });
  afterAll(async () => t?.close());
  const post = (u: TestUser, url: string, payload: object, key?: string) =>
    t.app.inject({ method: 'POST', url, headers: { ...u.headers, ...(key ? { 'idempotency-key': key } : {}) }, payload });
  const crashed = (key: string) =>
    t.services.db.update(idempotencyKeys).set({ state: 'running', responseStatus: null, responseBody: null, createdAt: sql`now() - interval '3 minutes'` }).where(and(eq(idempotencyKeys.userId, staff.uid), eq(idempotencyKeys.commandId, key)));
  const n = async (table: typeof auditLog | typeof contactReplies | typeof notifications | typeof staffNotes) => (await t.services.db.select({ n: count() }).from(table))[0].n;

  it('a staff reply rerun stores no second reply, audit row or notification', async () => {
    const thread = (await post(client, '/api/contact', { contactRequest: { subject: 's', message: 'm' } })).json().data.id;
    const key = randomUUID();
    const first = await post(staff, `/api/staff/threads/${thread}/replies`, { reply: { message: 'hi' } }, key);
    expect(first.statusCode, first.body).toBe(201);
    expect((await t.services.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.commandId, key)))[0].state).toBe('done');
    await crashed(key);
    const before = [await n(auditLog), await n(contactReplies), await n(notifications)];
    const rerun = await post(staff, `/api/staff/threads/${thread}/replies`, { reply: { message: 'hi' } }, key);
    expect(rerun.statusCode, rerun.body).toBe(201);
    expect(rerun.headers['idempotent-replayed']).toBeUndefined();
    expect(rerun.json()).toEqual(first.json());
    expect([await n(auditLog), await n(contactReplies), await n(notifications)]).toEqual(before);
  });

  it('a note rerun stores no second note', async () => {
    const key = randomUUID();
    const first = await post(staff, '/api/staff/notes', { clientUid: client.uid, body: 'note' }, key);
    expect(first.statusCode, first.body).toBe(201);
    await crashed(key);
    const before = await n(staffNotes);
    const rerun = await post(staff, '/api/staff/notes', { clientUid: client.uid, body: 'note' }, key);
    expect(rerun.statusCode, rerun.body).toBe(201);
    expect(rerun.json()).toEqual(first.json());
    expect(await n(staffNotes)).toBe(before);
  });
});
