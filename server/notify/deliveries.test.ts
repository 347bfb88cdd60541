import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsFromDollars } from '../../domain/money.ts';
import { PushPayload } from '../../domain/push.ts';
import { contactRequests, deliveries, files, notificationPreferences, productRequests, pushSends, users } from '../db/schema.ts';
import { backends, createTestApp, defined, postgresSkipReason, type TestApp, type TestUser } from '../test-helper.ts';
import { type MailInbox, startMailInbox } from '../../scripts/mail-inbox.ts';
import { DELIVERIES_CHANNEL } from '../plugins/deliveries.ts';
import { emailSender } from './run.ts';
import { type PushReceiver, startPushReceiver } from './test-support/push-receiver.ts';
import { unsubscribeUrl } from './unsubscribe-tokens.ts';
import { MAX_ATTEMPTS, createDeliveryWorker, type WorkerOptions } from './worker.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[deliveries.test] PostgreSQL run skipped: ${skip}`);

const DELAY = 600;

describe.each(backends())('deliveries (%s)', (backend) => {
  let t: TestApp;
  let staff: TestUser;
  let admin: TestUser;
  let receiver: PushReceiver;
  let inbox: MailInbox;
  /** How far the workers' clock runs ahead of the real one: tests move it forward past a backoff or a lease. */
  let clock = 0;

  beforeAll(async () => {
    inbox = await startMailInbox({ smtpPort: 0, httpPort: 0 });
    t = await createTestApp({ backend, env: { SMTP_URL: inbox.smtpUrl, EMAIL_DELAY_SECONDS: String(DELAY) } });
    staff = await t.user({ staff: true });
    admin = await t.user({ admin: true });
    receiver = await startPushReceiver({ vapidPublicKey: t.services.config.vapid.publicKey });
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
    await inbox?.close();
  });

  const worker = (o: Partial<WorkerOptions> = {}) =>
    createDeliveryWorker({
      db: t.services.db,
      vapid: t.services.config.vapid,
      email: emailSender(t.app),
      publicUrl: t.services.config.email.publicUrl,
      unsubscribeUrl: (uid) => unsubscribeUrl(t.services.config, uid),
      record: { email: true, emailDelaySeconds: DELAY },
      now: () => Date.now() + clock,
      pushTimeoutMs: 2000,
      ...o,
    });

  const call = (user: TestUser, method: 'POST' | 'PUT' | 'GET', url: string, payload?: object, key?: string) =>
    t.app.inject({ method, url, headers: { ...user.headers, ...(key ? { 'idempotency-key': key } : {}) }, payload });

  async function client(o: { push?: boolean } = {}) {
    const user = await t.user({ client: true });
    const device = o.push === false ? null : receiver.subscribe();
    if (device) expect((await call(user, 'POST', '/api/push/subscriptions', device)).statusCode).toBe(201);
    return { ...user, device };
  }
  const setChoices = async (user: TestUser, body: object) => {
    const res = await call(user, 'PUT', '/api/user/notification-preferences', body);
    expect(res.statusCode, res.body).toBe(200);
  };
  const rowsOf = (uid: string) => t.services.db.select().from(deliveries).where(eq(deliveries.recipientUid, uid));
  const byKey = (key: string) => t.services.db.select().from(deliveries).where(eq(deliveries.eventKey, key));

  async function openThread(user: TestUser) {
    const res = await call(user, 'POST', '/api/contact', { contactRequest: { subject: 'My bank', message: 'Please help' } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  }
  async function staffReply(threadId: string, key?: string) {
    const res = await call(staff, 'POST', `/api/staff/threads/${threadId}/replies`, { reply: { message: 'We are on it' } }, key);
    expect(res.statusCode, res.body).toBe(201);
    return res;
  }
  async function requestOf(user: TestUser, values: Partial<typeof productRequests.$inferInsert> = {}) {
    const [row] = await t.services.db.insert(productRequests).values({ userId: user.uid, toolId: 'bank-dispute', productRequestType: 'BANK_DISPUTE', ...values }).returning();
    return row;
  }
  /** The pushes the receiver got for one device since `from`, decrypted and checked. */
  const pushesTo = (endpoint: string) =>
    receiver.received
      .filter((p) => p.endpoint === endpoint && p.status === 201)
      .map((p) => {
        expect(p.problems).toEqual([]);
        return PushPayload.parse(JSON.parse(defined(p.payload, 'a decrypted payload')));
      });

  describe('what a change writes', () => {
    it('a staff reply writes the client’s push now and email after the delay, in the reply’s transaction, and nothing for anyone else', async () => {
      const alice = await client();
      const threadId = await openThread(alice);
      const before = Date.now();
      const res = await staffReply(threadId);
      const rows = await rowsOf(alice.uid);
      expect(rows.map((r) => r.channel).sort()).toEqual(['email', 'push']);
      const replyRows = rows.filter((r) => r.eventKind === 'reply');
      expect(replyRows).toHaveLength(2);
      expect(new Set(replyRows.map((r) => r.eventKey)).size).toBe(1);
      expect(replyRows[0].eventKey).toMatch(/^reply:/);
      const push = defined(replyRows.find((r) => r.channel === 'push'), 'the push row');
      const email = defined(replyRows.find((r) => r.channel === 'email'), 'the email row');
      expect(Date.parse(push.dueAt)).toBeLessThanOrEqual(Date.now());
      expect(Date.parse(email.dueAt) - before).toBeGreaterThanOrEqual((DELAY - 5) * 1000);
      expect(email.notificationId).not.toBeNull();
      expect(email).toMatchObject({ seenKind: 'thread', seenId: threadId, state: 'queued' });
      // The staff member who replied hears nothing of their own reply.
      expect((await rowsOf(staff.uid)).filter((r) => r.eventKind === 'reply')).toEqual([]);
      // A replay of the same key writes no second set.
      const key = crypto.randomUUID();
      await staffReply(threadId, key);
      const afterFirst = (await rowsOf(alice.uid)).length;
      await staffReply(threadId, key);
      expect((await rowsOf(alice.uid)).length).toBe(afterFirst);
      expect(res.statusCode).toBe(201);
    });

    it('the person’s choices decide the rows: no device → no push; email off → no email; Personal Updates off → nothing; a payment’s email goes anyway, at once', async () => {
      const noDevice = await client({ push: false });
      await staffReply(await openThread(noDevice));
      expect((await rowsOf(noDevice.uid)).map((r) => r.channel)).toEqual(['email']);

      const noEmail = await client();
      await setChoices(noEmail, { email: false });
      await staffReply(await openThread(noEmail));
      expect((await rowsOf(noEmail.uid)).map((r) => r.channel)).toEqual(['push']);

      const quiet = await client();
      await setChoices(quiet, { personalUpdates: false, email: false });
      await staffReply(await openThread(quiet));
      expect(await rowsOf(quiet.uid)).toEqual([]);

      const row = await requestOf(quiet, { status: 'Waiting for actions', totalCents: centsFromDollars(1000) });
      const paid = await call(staff, 'POST', `/api/staff/requests/${row.id}/payments`, { version: 1, amount: 400, method: 'CARD', paidAt: '2026-11-01' });
      expect(paid.statusCode, paid.body).toBe(201);
      const rows = await rowsOf(quiet.uid);
      expect(rows.map((r) => `${r.eventKind} ${r.channel}`).sort()).toEqual(['payment email', 'payment push']);
      const mail = defined(rows.find((r) => r.channel === 'email'), 'the payment email');
      expect(Date.parse(mail.dueAt)).toBeLessThanOrEqual(Date.now());
      expect(mail.facts).toMatchObject({ requestId: row.id, tool: 'bank-dispute', ref: expect.stringMatching(/^BD-/) });
    });

    it('every event writes its rows for exactly those who hear of it, each under a key naming the row that caused it', async () => {
      const quinn = await client();
      const version = async (id: string) => (await t.services.db.select().from(productRequests).where(eq(productRequests.id, id)))[0].version;
      const ok = async (res: Awaited<ReturnType<typeof call>>, status = 200) => {
        expect(res.statusCode, res.body).toBe(status);
        return res.json().data as { id: string };
      };
      const move = async (id: string, body: object) => ok(await call(staff, 'POST', `/api/staff/requests/${id}/transition`, { ...body, version: await version(id) }));
      const staffHear = async (key: string) => {
        const rows = await byKey(key);
        const recipients = new Set(rows.map((r) => r.recipientUid));
        expect(recipients.has(staff.uid) && recipients.has(admin.uid), key).toBe(true);
        expect(recipients.has(quinn.uid), key).toBe(false);
        return rows[0].eventKind;
      };

      // A lead's form, then an order, a reply in a thread and a refund request: the staff hear of each.
      const lead = await t.user();
      await ok(await call(lead, 'PUT', '/api/user/initial-form', { initialForm: { moneyLost: 500, lastFundsTransfer: Date.UTC(2026, 9, 1), fraudType: 'ROMANCE', fraudUrl: 'https://hearts.example', name: 'Lee Lead' } }), 201);
      expect(await staffHear(`lead:${lead.uid}`)).toBe('newLead');
      const order = { fraudType: 'romance', fraudUrl: 'https://hearts.example', communicationChannel: 'WhatsApp', notes: 'He asked for money.' };
      const { id } = await ok(await call(quinn, 'POST', '/api/trackMasterProcess', { trackMasterProcess: order }), 201);
      expect(await staffHear(`request:${id}`)).toBe('newRequest');
      const threadId = await openThread(quinn);
      await staffReply(threadId);
      const { id: replyId } = await ok(await call(quinn, 'POST', `/api/contact/${threadId}/replies`, { reply: { message: 'Thank you' } }), 201);
      expect(await staffHear(`clientReply:${replyId}`)).toBe('clientMessage');

      // The request's life, each step a client event.
      await move(id, { to: 'Waiting for actions', totalAmount: 700 });
      await ok(await call(staff, 'POST', `/api/staff/requests/${id}/payments`, { version: await version(id), amount: 300, method: 'CARD', paidAt: '2026-11-01' }), 201);
      await move(id, { to: 'In Progress' });
      const { id: refundId } = await ok(await call(quinn, 'POST', '/api/refund', { refundRequest: { tool: 'TRACK_MASTER', processId: id, refundRequestType: 'FULL', reason: 'Changed my mind' } }), 201);
      expect(await staffHear(`refundRequest:${refundId}`)).toBe('refundRequested');
      await ok(await call(staff, 'POST', `/api/staff/refunds/${refundId}/decision`, { decision: 'decline', version: 1, note: 'The work has started.' }));
      const [file] = await t.services.db
        .insert(files)
        .values({ userId: quinn.uid, kind: 'final', requestId: id, originalName: 'report.pdf', storedName: `${crypto.randomUUID()}.pdf`, contentType: 'application/pdf', size: 1, sha256: 'x' })
        .returning();
      await t.services.db.update(productRequests).set({ finalFileId: file.id }).where(eq(productRequests.id, id));
      await move(id, { to: 'Done' });
      const other = await requestOf(quinn);
      await move(other.id, { to: 'Rejected', reason: 'Not something we can trace.' });
      await ok(await call(admin, 'POST', `/api/notification/${quinn.uid}`, { notification: { message: 'Your case has a new document' } }), 201);

      const rows = await rowsOf(quinn.uid);
      const heard = new Map<string, string[]>();
      for (const r of rows) heard.set(r.eventKind, [...(heard.get(r.eventKind) ?? []), r.channel].sort());
      expect(Object.fromEntries(heard)).toEqual(
        Object.fromEntries(['reply', 'priced', 'payment', 'workStarted', 'refundDecided', 'reportReady', 'rejected', 'notification'].map((k) => [k, ['email', 'push']])),
      );
      expect(rows.filter((r) => r.eventKind === 'rejected').map((r) => r.eventKey)).toEqual([`request:${other.id}:v2`, `request:${other.id}:v2`]);
      expect(new Set(rows.filter((r) => r.eventKind === 'refundDecided').map((r) => r.eventKey))).toEqual(new Set([`refund:${refundId}:decided`]));
    });

    it('the commit of an event’s deliveries wakes the workers once; a refused change wakes nobody', async () => {
      let woken = 0;
      const unlisten = await t.services.database.listen(DELIVERIES_CHANNEL, () => woken++);
      try {
        const rhea = await client();
        const threadId = await openThread(rhea);
        await expect.poll(() => woken).toBeGreaterThan(0);
        const before = woken;
        await staffReply(threadId);
        await expect.poll(() => woken).toBe(before + 1);
        const row = await requestOf(rhea);
        expect((await call(staff, 'POST', `/api/staff/requests/${row.id}/transition`, { to: 'Waiting for actions', version: 9, totalAmount: 100 })).statusCode).toBe(409);
        // A later wake, to know the refused one would have arrived by now.
        await staffReply(threadId);
        await expect.poll(() => woken).toBe(before + 2);
      } finally {
        await unlisten();
      }
    });

    it('a refused change writes no delivery: a transition from an old version is 409 and leaves none', async () => {
      const bob = await client();
      const row = await requestOf(bob);
      const stale = await call(staff, 'POST', `/api/staff/requests/${row.id}/transition`, { to: 'Waiting for actions', version: 7, totalAmount: 100 });
      expect(stale.statusCode).toBe(409);
      expect(await rowsOf(bob.uid)).toEqual([]);
      const priced = await call(staff, 'POST', `/api/staff/requests/${row.id}/transition`, { to: 'Waiting for actions', version: 1, totalAmount: 100 });
      expect(priced.statusCode, priced.body).toBe(200);
      expect((await rowsOf(bob.uid)).map((r) => [r.eventKind, r.eventKey])).toContainEqual(['priced', `request:${row.id}:v2`]);
    });

    it('a client’s new message reaches each staff member who wants it, once, and no client; a general notification is one fan-out row', async () => {
      const other = await t.user({ staff: true });
      await setChoices(other, { staffMessages: false });
      const carol = await client();
      const threadId = await openThread(carol);
      const rows = await byKey(`thread:${threadId}`);
      const recipients = new Set(rows.map((r) => r.recipientUid));
      expect(recipients.has(staff.uid)).toBe(true);
      expect(recipients.has(admin.uid)).toBe(true);
      expect(recipients.has(other.uid)).toBe(false);
      expect(recipients.has(carol.uid)).toBe(false);
      expect(rows.every((r) => r.eventKind === 'clientMessage' && r.channel === 'email')).toBe(true);

      const sent = await call(admin, 'POST', '/api/notification', { notification: { message: 'Office closed on Friday' } });
      expect(sent.statusCode, sent.body).toBe(201);
      const general = await byKey(`notification:${sent.json().data.id}`);
      expect(general.map((r) => [r.channel, r.recipientUid])).toEqual([['fanout', null]]);
    });
  });

  describe('the worker', () => {
    it('sends a push the device decrypts: the product name and a neutral line, the screen to open, the delivery id as Topic; details only when chosen', async () => {
      const dana = await client();
      const threadId = await openThread(dana);
      await staffReply(threadId);
      await worker().drain();
      const [first] = pushesTo(dana.device!.endpoint);
      expect(first).toMatchObject({ title: 'Recovery', body: 'Support replied to your message', url: `/contact-requests?thread=${threadId}` });
      expect(JSON.stringify(first)).not.toContain('My bank');
      const [row] = (await rowsOf(dana.uid)).filter((r) => r.channel === 'push');
      expect(row.state).toBe('sent');
      const topic = receiver.received.find((p) => p.endpoint === dana.device!.endpoint)?.headers.topic;
      expect(topic).toBe(row.id.replace(/-/g, ''));

      await setChoices(dana, { lockScreenDetails: true });
      await staffReply(threadId);
      await worker().drain();
      expect(pushesTo(dana.device!.endpoint)[1].body).toBe('Support replied to your message "My bank".');
    });

    it('a 5xx is retried after its backoff, 404/410 drops the device, and after the last attempt the row is failed and listed for admins', async () => {
      const erin = await client();
      receiver.script(erin.device!.endpoint, 503, 500);
      await staffReply(await openThread(erin));
      const w = worker();
      await w.drain();
      const row = async () => defined((await rowsOf(erin.uid)).find((r) => r.channel === 'push'), 'the push row');
      expect(await row()).toMatchObject({ state: 'queued', attempts: 1, lastStatus: 503 });
      clock += 60_000;
      await w.drain();
      expect(await row()).toMatchObject({ state: 'queued', attempts: 2, lastStatus: 500 });
      clock += 3 * 60_000;
      await w.drain();
      expect(await row()).toMatchObject({ state: 'sent', attempts: 3 });
      expect(pushesTo(erin.device!.endpoint)).toHaveLength(1);

      const frank = await client();
      receiver.script(frank.device!.endpoint, ...Array.from({ length: MAX_ATTEMPTS }, () => 502));
      await staffReply(await openThread(frank));
      for (let i = 0; i < MAX_ATTEMPTS; i++) {
        await w.drain();
        clock += 3 * 3600_000;
      }
      const failed = defined((await rowsOf(frank.uid)).find((r) => r.channel === 'push'), 'the push row');
      expect(failed).toMatchObject({ state: 'failed', attempts: MAX_ATTEMPTS, lastStatus: 502 });
      const listed = await call(admin, 'GET', '/api/admin/deliveries?state=failed');
      expect(listed.statusCode, listed.body).toBe(200);
      expect(listed.json().data.map((d: { id: string }) => d.id)).toContain(failed.id);
      expect((await call(staff, 'GET', '/api/admin/deliveries')).statusCode).toBe(403);

      const gone = await client();
      receiver.script(gone.device!.endpoint, 410);
      await staffReply(await openThread(gone));
      await w.drain();
      expect(defined((await rowsOf(gone.uid)).find((r) => r.channel === 'push'), 'the push row')).toMatchObject({ state: 'skipped' });
    });

    it('a sender that dies after sending and before recording: the row becomes unknown after its lease and is never sent again by itself; an admin retry keeps the id', async () => {
      const gina = await client();
      await staffReply(await openThread(gina));
      await expect(worker({ crashAfterSend: () => true }).drain()).rejects.toThrow();
      expect(pushesTo(gina.device!.endpoint)).toHaveLength(1);
      const row = async () => defined((await rowsOf(gina.uid)).find((r) => r.channel === 'push'), 'the push row');
      expect((await row()).state).toBe('sending');
      // Another instance, before and after the lease ends: nothing is sent twice.
      await worker().drain();
      expect((await row()).state).toBe('sending');
      clock += 61_000;
      await worker().drain();
      expect((await row()).state).toBe('unknown');
      clock += 24 * 3600_000;
      await worker().drain();
      expect(pushesTo(gina.device!.endpoint)).toHaveLength(1);

      const id = (await row()).id;
      const retried = await call(admin, 'POST', `/api/admin/deliveries/${id}/retry`, {});
      expect(retried.statusCode, retried.body).toBe(200);
      await worker().drain();
      const pushes = receiver.received.filter((p) => p.endpoint === gina.device!.endpoint && p.status === 201);
      expect(pushes).toHaveLength(2);
      expect(new Set(pushes.map((p) => p.headers.topic))).toEqual(new Set([id.replace(/-/g, '')]));
      expect((await call(admin, 'POST', `/api/admin/deliveries/${id}/retry`, {})).statusCode).toBe(409);
    });

    it('two workers on one database send each delivery once', async () => {
      const people = await Promise.all(Array.from({ length: 6 }, () => client()));
      for (const person of people) for (let i = 0; i < 5; i++) await staffReply(await openThread(person));
      const [a, b] = [worker({ batch: 4 }), worker({ batch: 4 })];
      await Promise.all([a.drain(), b.drain()]);
      for (const person of people) expect(pushesTo(person.device!.endpoint)).toHaveLength(5);
      const ids = (await t.services.db.select({ id: deliveries.id }).from(deliveries).where(and(inArray(deliveries.recipientUid, people.map((p) => p.uid)), eq(deliveries.channel, 'push')))).map((r) => r.id);
      expect(ids).toHaveLength(30);
      const topics = receiver.received.filter((p) => people.some((q) => q.device!.endpoint === p.endpoint)).map((p) => p.headers.topic);
      expect(new Set(topics).size).toBe(30);
      expect(topics).toHaveLength(30);
      expect(await t.services.db.select().from(pushSends).where(inArray(pushSends.deliveryId, ids))).toHaveLength(30);
    });

    it('a general notification reaches every user who wants it, page by page, and none who turned General Updates off', async () => {
      const [hal, ida] = [await client(), await client()];
      await setChoices(ida, { generalUpdates: false });
      const sent = await call(admin, 'POST', '/api/notification', { notification: { message: 'New office hours' } });
      const key = `notification:${sent.json().data.id}`;
      await worker().drain();
      const rows = await byKey(key);
      expect(rows.find((r) => r.channel === 'fanout')?.state).toBe('sent');
      const pushed = rows.filter((r) => r.channel === 'push');
      expect(pushed.map((r) => r.recipientUid)).toContain(hal.uid);
      expect(pushed.map((r) => r.recipientUid)).not.toContain(ida.uid);
      expect(pushesTo(hal.device!.endpoint).at(-1)).toMatchObject({ body: 'You have a new update', url: '/notifications' });
      const everyone = await t.services.db.$count(users);
      expect(rows.filter((r) => r.channel === 'email').length).toBeLessThanOrEqual(everyone);
      expect(rows.filter((r) => r.channel === 'email').length).toBeGreaterThan(1);
    });

    it('an email waits for the delay, then goes once with the screen’s link, the delivery id as Message-ID and one-click unsubscribe that works without signing in', async () => {
      // The workers' clock back to the database's, so the email is not due yet.
      clock = 0;
      const kim = await client({ push: false });
      const threadId = await openThread(kim);
      await staffReply(threadId);
      await worker().drain();
      const [row] = await rowsOf(kim.uid);
      expect(row).toMatchObject({ channel: 'email', state: 'queued' });
      clock += (DELAY + 1) * 1000;
      await worker().drain();
      const mail = await inbox.waitFor((m) => m.to.includes(kim.email));
      expect(mail.subject).toBe('Recovery: Support replied to your message');
      expect(mail.text).toContain(`${t.services.config.email.publicUrl}/contact-requests?thread=${threadId}`);
      expect(mail.text).not.toContain('My bank');
      expect(mail.messageId).toBe(`<${row.id}@${new URL(t.services.config.email.publicUrl).hostname}>`);
      expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
      const link = defined(/<([^>]+)>/.exec(mail.headers['list-unsubscribe'] ?? '')?.[1], 'the unsubscribe link');
      expect((await rowsOf(kim.uid))[0].state).toBe('sent');
      clock += 24 * 3600_000;
      await worker().drain();
      expect(inbox.messages().filter((m) => m.to.includes(kim.email))).toHaveLength(1);

      const off = await t.app.inject({ method: 'POST', url: new URL(link).pathname, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
      expect(off.statusCode, off.body).toBe(200);
      const [choices] = await t.services.db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, kim.uid));
      expect(choices).toMatchObject({ email: false, personalUpdates: true });
    });

    it('read in the app means no email: the notification marker, the thread opened, the request opened each cancel it', async () => {
      const [lea, max, ned] = [await client({ push: false }), await client({ push: false }), await client({ push: false })];
      const leaThread = await openThread(lea);
      await staffReply(leaThread);
      const [leaRow] = await rowsOf(lea.uid);
      const read = await call(lea, 'PUT', '/api/notifications/read', { notificationId: leaRow.notificationId });
      expect(read.statusCode, read.body).toBe(200);

      const maxThread = await openThread(max);
      await staffReply(maxThread);
      // The reply the thread shows last: the delivery's key names it.
      const replyId = (await rowsOf(max.uid))[0].eventKey.replace('reply:', '');
      const seenThread = await call(max, 'PUT', '/api/seen', { kind: 'thread', id: maxThread, replyId });
      expect(seenThread.statusCode, seenThread.body).toBe(200);

      const request = await requestOf(ned);
      const priced = await call(staff, 'POST', `/api/staff/requests/${request.id}/transition`, { to: 'Waiting for actions', version: 1, totalAmount: 900 });
      expect(priced.statusCode, priced.body).toBe(200);
      const [shown] = await t.services.db.select().from(productRequests).where(eq(productRequests.id, request.id));
      const seenRequest = await call(ned, 'PUT', '/api/seen', { kind: 'request', id: request.id, updatedAt: new Date(shown.updatedAt).toISOString() });
      expect(seenRequest.statusCode, seenRequest.body).toBe(200);

      clock += (DELAY + 1) * 1000;
      await worker().drain();
      for (const person of [lea, max, ned]) {
        const rows = await rowsOf(person.uid);
        expect(rows.length).toBeGreaterThan(0);
        expect(rows.every((r) => r.state === 'skipped' && r.skipReason === 'read in the app')).toBe(true);
        expect(inbox.messages().filter((m) => m.to.includes(person.email))).toEqual([]);
      }
    });

    it('several updates in one window become one digest email', async () => {
      const olga = await client({ push: false });
      const request = await requestOf(olga);
      const price = await call(staff, 'POST', `/api/staff/requests/${request.id}/transition`, { to: 'Waiting for actions', version: 1, totalAmount: 500 });
      expect(price.statusCode, price.body).toBe(200);
      const start = await call(staff, 'POST', `/api/staff/requests/${request.id}/transition`, { to: 'In Progress', version: 2 });
      expect(start.statusCode, start.body).toBe(200);
      await staffReply(await openThread(olga));
      clock += (DELAY + 1) * 1000;
      await worker().drain();
      const mail = await inbox.waitFor((m) => m.to.includes(olga.email));
      expect(mail.subject).toBe('Recovery: 3 new updates');
      expect(mail.text).toContain('is ready to pay');
      expect(mail.text).toContain('Work has started');
      expect(mail.text).toContain('Support replied to your message');
      expect(mail.text).not.toContain('$500');
      const rows = await rowsOf(olga.uid);
      expect(rows.map((r) => r.state)).toEqual(['sent', 'sent', 'sent']);
      expect(inbox.messages().filter((m) => m.to.includes(olga.email))).toHaveLength(1);
    });

    it('choices are read again at send time, and essential mail (a payment) goes at once whatever was chosen, without unsubscribe headers', async () => {
      const pia = await client({ push: false });
      await staffReply(await openThread(pia));
      await setChoices(pia, { email: false, personalUpdates: false });
      clock += (DELAY + 1) * 1000;
      await worker().drain();
      expect((await rowsOf(pia.uid)).map((r) => [r.state, r.skipReason])).toEqual([['skipped', 'switched off']]);

      const row = await requestOf(pia, { status: 'Waiting for actions', totalCents: centsFromDollars(1000) });
      const paid = await call(staff, 'POST', `/api/staff/requests/${row.id}/payments`, { version: 1, amount: 250, method: 'CARD', paidAt: '2026-11-01' });
      expect(paid.statusCode, paid.body).toBe(201);
      await worker().drain();
      const mail = await inbox.waitFor((m) => m.to.includes(pia.email));
      expect(mail.subject).toMatch(/^Recovery: Payment received \(BD-\d{4}\)$/);
      expect(mail.text).not.toContain('250');
      expect(mail.headers['list-unsubscribe']).toBeUndefined();
      expect(mail.text).toContain(`${t.services.config.email.publicUrl}/settings?tab=billings`);
    });

    it('staff hear only of what is still waiting: a message answered before the send is skipped', async () => {
      const judy = await client();
      const threadId = await openThread(judy);
      await staffReply(threadId);
      await t.services.db.update(notificationPreferences).set({ push: true }).where(eq(notificationPreferences.userId, staff.uid));
      clock += (DELAY + 5) * 1000;
      await worker().drain();
      const rows = await byKey(`thread:${threadId}`);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.state === 'skipped' && r.skipReason === 'handled by staff')).toBe(true);
      const [thread] = await t.services.db.select().from(contactRequests).where(eq(contactRequests.id, threadId));
      expect(thread.awaitingSince).toBeNull();
    });
  });
});
