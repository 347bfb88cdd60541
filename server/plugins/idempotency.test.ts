import { createHash, randomUUID } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactReplies, contactRequests, files, idempotencyKeys, notifications, productRequests, refunds, userAttachments } from '../db/schema.ts';
import { minimalPdf } from '../seed/seed-data.ts';
import { backends, createTestApp, postgresSkipReason, storedFileCount, type Backend, type TestApp, type TestUser } from '../test-helper.ts';
import { isRetryable } from './idempotency.ts';
import { KEY_TTL_DAYS, pruneIdempotencyKeys } from '../services/command-ids.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[idempotency.test] PostgreSQL run skipped: ${skip}`);

const contact = (subject = 'Where is my report?', message = 'Please call me back.') => ({ contactRequest: { subject, message } });

/** A Web Intelligence order with one PDF: a multipart purchase that stores a file. */
async function webIntelligenceOrder(label: string) {
  const form = new FormData();
  const fields = { websiteName: label, websiteUrl: 'https://scam.example', fraudType: 'crypto', description: 'They took my deposit.', amountLost: '1234.5' };
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('relevantInformation', new Blob([new Uint8Array(minimalPdf('Evidence', [label]))], { type: 'application/pdf' }), 'evidence.pdf');
  const response = new Response(form);
  return { payload: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') ?? '' };
}

/** A general upload of two files (POST /api/user/files): a PDF and a text note, both parts named `files`. */
async function twoFileUpload(label: string) {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(minimalPdf('Statement', [label]))], { type: 'application/pdf' }), 'statement.pdf');
  form.append('files', new Blob([`Call log ${label}`], { type: 'text/plain' }), 'calls.txt');
  const response = new Response(form);
  return { payload: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') ?? '' };
}

/** An app with the test-only fault plugin (server/plugins/faults.ts), which TEST_FAULTS=1 registers. */
async function createFaultyApp(backend?: Backend): Promise<TestApp> {
  const previous = process.env.TEST_FAULTS;
  process.env.TEST_FAULTS = '1';
  try {
    return await createTestApp({ backend });
  } finally {
    if (previous === undefined) delete process.env.TEST_FAULTS;
    else process.env.TEST_FAULTS = previous;
  }
}

/** Sends a user's commands of every kind that stores a row under its key, and counts what they stored. */
function commandsOf(t: TestApp, user: TestUser) {
  const send = (url: string, key: string, payload: object | Buffer, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, headers: { ...user.headers, ...headers, 'idempotency-key': key }, payload });
  const rows = async (table: typeof contactRequests | typeof contactReplies | typeof refunds | typeof productRequests | typeof files) =>
    (await t.services.db.select({ n: count() }).from(table).where(eq(table.userId, user.uid)))[0].n;
  return {
    contact: (key: string) => send('/api/contact', key, contact(`crash-${key}`)),
    reply: (threadId: string, key: string) => send(`/api/contact/${threadId}/replies`, key, { reply: { message: `reply ${key}` } }),
    refund: (processId: string, key: string) =>
      send('/api/refund', key, { refundRequest: { tool: 'WEB_INTELLIGENCE', processId, refundRequestType: 'FULL', reason: `refund ${key}` } }),
    purchase: async (key: string) => {
      const { payload, contentType } = await webIntelligenceOrder(`order-${key}`);
      return send('/api/webIntelligence', key, payload, { 'content-type': contentType });
    },
    upload: async (key: string) => {
      const { payload, contentType } = await twoFileUpload(`upload-${key}`);
      return send('/api/user/files', key, payload, { 'content-type': contentType });
    },
    /** Every row of the user's in the tables a command writes, and the files on disk. */
    stored: async () => ({
      contact: await rows(contactRequests),
      replies: await rows(contactReplies),
      refunds: await rows(refunds),
      requests: await rows(productRequests),
      files: await rows(files),
      // Where this backend keeps the bytes: files on disk (PGlite) or file_chunks (PostgreSQL).
      stored: await storedFileCount(t.services),
    }),
  };
}

describe.each(backends())('Idempotency-Key (%s)', (backend) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    [alice, bob] = await Promise.all([t.user(), t.user()]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (user: TestUser, key: string | undefined, payload: unknown, url = '/api/contact') =>
    t.app.inject({ method: 'POST', url, headers: { ...user.headers, ...(key === undefined ? {} : { 'idempotency-key': key }) }, payload: payload as object });

  const rowsWithSubject = async (subject: string) =>
    (await t.services.db.select().from(contactRequests).where(eq(contactRequests.subject, subject))).length;
  const claimOf = async (user: TestUser, key: string) =>
    (await t.services.db.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.userId, user.uid), eq(idempotencyKeys.commandId, key))))[0];

  it('same key, same body: the first answer is replayed and nothing new is stored', async () => {
    const key = randomUUID();
    const subject = `replay-${key}`;
    const first = await post(alice, key, contact(subject));
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    for (let i = 0; i < 3; i++) {
      const again = await post(alice, key, contact(subject));
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(first.json());
    }
    expect(await rowsWithSubject(subject)).toBe(1);
    expect(await claimOf(alice, key)).toMatchObject({ state: 'done', responseStatus: 201, path: '/api/contact', method: 'POST' });
  });

  it('the body is compared by value, not by key order or spacing', async () => {
    const key = randomUUID();
    const subject = `order-${key}`;
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { ...alice.headers, 'idempotency-key': key, 'content-type': 'application/json' },
      payload: `{"contactRequest":{"subject":"${subject}","message":"m"}}`,
    });
    expect(first.statusCode).toBe(201);
    const reordered = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { ...alice.headers, 'idempotency-key': key, 'content-type': 'application/json' },
      payload: `{ "contactRequest": { "message": "m", "subject": "${subject}" } }`,
    });
    expect(reordered.statusCode).toBe(201);
    expect(reordered.headers['idempotent-replayed']).toBe('true');
    expect(await rowsWithSubject(subject)).toBe(1);
  });

  it('same key, different body: 422 and nothing stored', async () => {
    const key = randomUUID();
    const first = await post(alice, key, contact(`a-${key}`));
    expect(first.statusCode).toBe(201);
    const other = await post(alice, key, contact(`b-${key}`));
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ error: { code: 'IDEMPOTENCY_KEY_REUSED', message: expect.any(String) } });
    expect(await rowsWithSubject(`b-${key}`)).toBe(0);
    // The stored answer is still the first one.
    const again = await post(alice, key, contact(`a-${key}`));
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('same key on another route: 422', async () => {
    const key = randomUUID();
    expect((await post(alice, key, contact(`route-${key}`))).statusCode).toBe(201);
    const other = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/active-status',
      headers: { ...alice.headers, 'idempotency-key': key },
      payload: { status: 'ACTIVE' },
    });
    expect(other.statusCode).toBe(422);
  });

  it('the same key and body to another thread is not a replay: 422, and nothing stored there', async () => {
    const [a, b] = await Promise.all([post(alice, undefined, contact('thread A')), post(alice, undefined, contact('thread B'))]);
    const [threadA, threadB] = [a.json().data.id as string, b.json().data.id as string];
    const key = randomUUID();
    const body = { reply: { message: 'Any news?' } };
    const first = await post(alice, key, body, `/api/contact/${threadA}/replies`);
    expect(first.statusCode).toBe(201);
    expect((await claimOf(alice, key)).path).toBe(`/api/contact/${threadA}/replies`);
    const other = await post(alice, key, body, `/api/contact/${threadB}/replies`);
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await t.services.db.select().from(contactReplies).where(eq(contactReplies.threadId, threadB))).toEqual([]);
    // The query string is not part of the path: the same request with one is still a replay.
    const again = await post(alice, key, body, `/api/contact/${threadA}/replies?from=outbox`);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
  });

  it('the first still running: 409, and nothing stored', async () => {
    const key = randomUUID();
    const subject = `running-${key}`;
    expect((await post(alice, key, contact(subject))).statusCode).toBe(201);
    // Put the claim back to how it looks while the first attempt is still inside its handler.
    await t.services.db
      .update(idempotencyKeys)
      .set({ state: 'running', responseStatus: null, responseBody: null, createdAt: sql`now()` })
      .where(and(eq(idempotencyKeys.userId, alice.uid), eq(idempotencyKeys.commandId, key)));
    const res = await post(alice, key, contact(subject));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: { code: 'IDEMPOTENCY_IN_PROGRESS', message: expect.any(String) } });
    expect(await rowsWithSubject(subject)).toBe(1);
    expect((await claimOf(alice, key)).state).toBe('running');
  });

  it('a running claim abandoned long ago (a crashed attempt) is taken over once', async () => {
    const key = randomUUID();
    const subject = `stale-${key}`;
    // A 409 reveals the stored hash matches; then age the claim past the stale limit.
    expect((await post(alice, key, contact(subject))).statusCode).toBe(201);
    await t.services.db.delete(contactRequests).where(eq(contactRequests.subject, subject));
    await t.services.db
      .update(idempotencyKeys)
      .set({ state: 'running', responseStatus: null, responseBody: null, createdAt: sql`now() - interval '10 minutes'` })
      .where(and(eq(idempotencyKeys.userId, alice.uid), eq(idempotencyKeys.commandId, key)));
    const res = await post(alice, key, contact(subject));
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await rowsWithSubject(subject)).toBe(1);
    const replay = await post(alice, key, contact(subject));
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await rowsWithSubject(subject)).toBe(1);
  });

  /**
   * What a crash between the change and its record used to leave: the row committed, the claim still
   * "running" and older than the takeover limit. The attempt that takes it over finds the row by its
   * key (the unique (user, client_key) index) and answers it instead of storing another.
   */
  describe('a taken-over claim whose first attempt stored its row answers that row', () => {
    let carol: TestUser;
    let commands: ReturnType<typeof commandsOf>;
    beforeAll(async () => {
      carol = await t.user({ client: true });
      commands = commandsOf(t, carol);
    });

    const crashedLongAgo = (user: TestUser, key: string) =>
      t.services.db
        .update(idempotencyKeys)
        .set({ state: 'running', responseStatus: null, responseBody: null, createdAt: sql`now() - interval '3 minutes'` })
        .where(and(eq(idempotencyKeys.userId, user.uid), eq(idempotencyKeys.commandId, key)));

    async function expectRerunAnswersFirst(send: (key: string) => Promise<{ statusCode: number; json(): { data: { id: string } }; headers: Record<string, unknown> }>) {
      const key = randomUUID();
      const first = await send(key);
      expect(first.statusCode, JSON.stringify(first.json())).toBe(201);
      await crashedLongAgo(carol, key);
      const before = await commands.stored();
      const rerun = await send(key);
      expect(rerun.statusCode, JSON.stringify(rerun.json())).toBe(201);
      expect(rerun.headers['idempotent-replayed']).toBeUndefined();
      expect(rerun.json().data.id).toBe(first.json().data.id);
      expect(await commands.stored()).toEqual(before);
      expect(await claimOf(carol, key)).toMatchObject({ state: 'done', responseStatus: 201 });
      const replay = await send(key);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json().data.id).toBe(first.json().data.id);
    }

    it('a contact message', () => expectRerunAnswersFirst(commands.contact));

    it('a reply in a thread', async () => {
      const thread = (await commands.contact(randomUUID())).json().data.id as string;
      await expectRerunAnswersFirst((key) => commands.reply(thread, key));
    });

    it('a refund request (whose pending refund would otherwise refuse the rerun)', async () => {
      const order = (await commands.purchase(randomUUID())).json().data.id as string;
      await t.services.db.update(productRequests).set({ status: 'In Progress' }).where(eq(productRequests.id, order));
      await expectRerunAnswersFirst((key) => commands.refund(order, key));
    });

    it('a purchase with a file: no second request, file row or file on disk', () => expectRerunAnswersFirst(commands.purchase));

    it('an upload of two files: no second file row or stored file, and the first rows in their order', async () => {
      const key = randomUUID();
      const first = await commands.upload(key);
      expect(first.statusCode, first.body).toBe(201);
      await crashedLongAgo(carol, key);
      const before = await commands.stored();
      const rerun = await commands.upload(key);
      expect(rerun.statusCode, rerun.body).toBe(201);
      expect(rerun.headers['idempotent-replayed']).toBeUndefined();
      expect(rerun.json()).toEqual(first.json());
      expect(await commands.stored()).toEqual(before);
      expect(await claimOf(carol, key)).toMatchObject({ state: 'done', responseStatus: 201 });
    });
  });

  it('20 parallel identical requests with one key store exactly one row', async () => {
    const key = randomUUID();
    const subject = `parallel-${key}`;
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(alice, key, contact(subject))));
    const statuses = answers.map((a) => a.statusCode);
    for (const s of statuses) expect([201, 409]).toContain(s);
    const fresh = answers.filter((a) => a.statusCode === 201 && a.headers['idempotent-replayed'] === undefined);
    expect(fresh).toHaveLength(1);
    for (const a of answers.filter((x) => x.statusCode === 201)) expect(a.json()).toEqual(fresh[0].json());
    expect(await rowsWithSubject(subject)).toBe(1);
    // Whoever got 409 retries and gets the first answer.
    const retry = await post(alice, key, contact(subject));
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(fresh[0].json());
    expect(await rowsWithSubject(subject)).toBe(1);
  });

  it('20 parallel requests through a real socket store exactly one row', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const key = randomUUID();
      const subject = `socket-${key}`;
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          fetch(`${address}/api/contact`, {
            method: 'POST',
            headers: { ...alice.headers, 'idempotency-key': key, 'content-type': 'application/json' },
            body: JSON.stringify(contact(subject)),
          }).then(async (r) => ({ status: r.status, replayed: r.headers.get('idempotent-replayed'), body: await r.text() })),
        ),
      );
      expect(answers.filter((a) => a.status === 201 && !a.replayed)).toHaveLength(1);
      expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
      expect(await rowsWithSubject(subject)).toBe(1);
    } finally {
      t.app.server.closeAllConnections();
    }
  });

  it('the same key from two users is two different claims', async () => {
    const key = randomUUID();
    const subject = `two-users-${key}`;
    const a = await post(alice, key, contact(subject));
    const b = await post(bob, key, contact(subject));
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(a.json().data.id).not.toBe(b.json().data.id);
    expect(await rowsWithSubject(subject)).toBe(2);
    // And one user's different body does not collide with the other's claim.
    expect((await post(bob, key, contact(`other-${key}`))).statusCode).toBe(422);
  });

  it('a 5xx frees the key, so the retry runs again', async () => {
    const key = randomUUID();
    const subject = `boom-${key}`;
    // A real failure inside the handler: the insert violates a constraint added for this test.
    await t.services.db.execute(sql.raw(`ALTER TABLE contact_requests ADD CONSTRAINT test_no_boom CHECK (subject NOT LIKE 'boom-%')`));
    let failed;
    try {
      failed = await post(alice, key, contact(subject));
    } finally {
      await t.services.db.execute(sql.raw(`ALTER TABLE contact_requests DROP CONSTRAINT test_no_boom`));
    }
    expect(failed.statusCode).toBe(500);
    expect(failed.json().error.code).toBe('INTERNAL');
    expect(await claimOf(alice, key)).toBeUndefined();
    const retry = await post(alice, key, contact(subject));
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await rowsWithSubject(subject)).toBe(1);
  });

  it('a transaction that settled its claim and then failed at COMMIT frees the key: the retry runs again', async () => {
    const key = randomUUID();
    const subject = `late-${key}`;
    // A deferred check runs at COMMIT, after the handler's settleInTransaction: the answer stored with the claim is
    // rolled back with the row, and the 500 that follows must not be taken for the settled 201.
    await t.services.db.execute(
      sql.raw(`CREATE FUNCTION test_refuse_late() RETURNS trigger AS $$ BEGIN IF NEW.subject LIKE 'late-%' THEN RAISE EXCEPTION 'late refusal'; END IF; RETURN NULL; END; $$ LANGUAGE plpgsql`),
    );
    await t.services.db.execute(sql.raw(`CREATE CONSTRAINT TRIGGER test_late AFTER INSERT ON contact_requests DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_refuse_late()`));
    let failed;
    try {
      failed = await post(alice, key, contact(subject));
    } finally {
      await t.services.db.execute(sql.raw(`DROP TRIGGER test_late ON contact_requests`));
      await t.services.db.execute(sql.raw(`DROP FUNCTION test_refuse_late()`));
    }
    expect(failed.statusCode).toBe(500);
    expect(await claimOf(alice, key)).toBeUndefined();
    expect(await rowsWithSubject(subject)).toBe(0);
    const retry = await post(alice, key, contact(subject));
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await rowsWithSubject(subject)).toBe(1);
    // Settled in the transaction and not touched after: the replay is the stored first answer.
    expect(await claimOf(alice, key)).toMatchObject({ state: 'done', responseStatus: 201, responseBody: retry.json() });
    const replay = await post(alice, key, contact(subject));
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(retry.json());
  });

  it('a 4xx from validation claims nothing: the corrected body may use the same key', async () => {
    const key = randomUUID();
    const bad = await post(alice, key, { contactRequest: { subject: '', message: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect(await claimOf(alice, key)).toBeUndefined();
    const good = await post(alice, key, contact(`fixed-${key}`));
    expect(good.statusCode).toBe(201);
  });

  it('without a key, every request runs', async () => {
    const subject = `nokey-${randomUUID()}`;
    expect((await post(alice, undefined, contact(subject))).statusCode).toBe(201);
    expect((await post(alice, undefined, contact(subject))).statusCode).toBe(201);
    expect(await rowsWithSubject(subject)).toBe(2);
  });

  it('a malformed key is 400 and runs nothing', async () => {
    const subject = `badkey-${randomUUID()}`;
    for (const key of ['short', 'has spaces in it', 'x'.repeat(129), 'semi;colon-key']) {
      const res = await post(alice, key, contact(subject));
      expect(res.statusCode, key).toBe(400);
      expect(res.json().error.code).toBe('BAD_IDEMPOTENCY_KEY');
    }
    expect(await rowsWithSubject(subject)).toBe(0);
  });

  it('an unauthenticated request with a key is 401 and claims nothing', async () => {
    const key = randomUUID();
    const res = await t.app.inject({ method: 'POST', url: '/api/contact', headers: { 'idempotency-key': key }, payload: contact() });
    expect(res.statusCode).toBe(401);
    expect((await t.services.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.commandId, key))).length).toBe(0);
  });

  it(`keys are kept ${KEY_TTL_DAYS} days: pruning deletes older ones and keeps younger ones`, async () => {
    const base = { userId: alice.uid, method: 'POST', path: '/api/contact', bodyHash: 'h', state: 'done', responseStatus: 201, responseBody: { data: null } };
    const old = `old-${randomUUID()}`;
    const young = `young-${randomUUID()}`;
    const fresh = `fresh-${randomUUID()}`;
    await t.services.db.insert(idempotencyKeys).values([
      { ...base, commandId: old, createdAt: sql`now() - interval '31 days'` as unknown as string },
      { ...base, commandId: young, createdAt: sql`now() - interval '29 days'` as unknown as string },
      { ...base, commandId: fresh },
    ]);
    await pruneIdempotencyKeys(t.services.db);
    expect(await claimOf(alice, old)).toBeUndefined();
    expect(await claimOf(alice, young)).toBeDefined();
    expect(await claimOf(alice, fresh)).toBeDefined();
  });

  it('a key younger than 30 days still replays after pruning', async () => {
    const key = randomUUID();
    const subject = `kept-${key}`;
    const first = await post(alice, key, contact(subject));
    await t.services.db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '29 days'` })
      .where(and(eq(idempotencyKeys.userId, alice.uid), eq(idempotencyKeys.commandId, key)));
    await pruneIdempotencyKeys(t.services.db);
    const again = await post(alice, key, contact(subject));
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await rowsWithSubject(subject)).toBe(1);
  });
});

/**
 * A process killed after the handler committed, simulated by the crashAfterCommit fault: nothing runs
 * after the handler (onSend never settles the claim) and the answer is lost. The claim is then aged
 * past the takeover limit, as a retry two minutes later would find it.
 */
describe.each(backends())('Idempotency-Key: a crash after commit (%s)', (backend) => {
  let t: TestApp;
  let dave: TestUser;
  let commands: ReturnType<typeof commandsOf>;
  beforeAll(async () => {
    t = await createFaultyApp(backend);
    dave = await t.user({ client: true });
    commands = commandsOf(t, dave);
  });
  afterAll(async () => {
    await t?.close();
  });

  const setFaults = async (faults: object) => expect((await t.app.inject({ method: 'POST', url: '/api/__test/faults', payload: faults })).statusCode).toBe(200);

  async function crashThenRetry(pathPrefix: string, send: (key: string) => Promise<{ statusCode: number; json(): { data: { id: string } } }>, table: typeof contactRequests | typeof productRequests) {
    const key = randomUUID();
    await setFaults({ crashAfterCommitRate: 1, pathPrefix });
    try {
      await send(key);
    } finally {
      await setFaults({});
    }
    // The client never saw that answer: the first result is what the database holds under the key.
    const [first] = await t.services.db
      .select({ id: table.id })
      .from(table)
      .where(and(eq(table.userId, dave.uid), eq(table.commandId, key)));
    expect(first).toBeDefined();
    await t.services.db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '3 minutes'` })
      .where(and(eq(idempotencyKeys.userId, dave.uid), eq(idempotencyKeys.commandId, key)));
    const before = await commands.stored();
    const retry = await send(key);
    expect(retry.statusCode, JSON.stringify(retry.json())).toBe(201);
    expect(retry.json().data.id).toBe(first.id);
    expect(await commands.stored()).toEqual(before);
  }

  it('the retry of a contact message answers the first one and stores nothing twice', () =>
    crashThenRetry('/api/contact', commands.contact, contactRequests));

  it('the retry of a purchase with a file answers the first one and stores nothing twice', () =>
    crashThenRetry('/api/webIntelligence', commands.purchase, productRequests));

  /**
   * Routes that store no row under a client key settle their claim in their own transaction too: after a
   * crash the claim is already done with the answer, and the retry is that answer, changing nothing.
   */
  describe('every other write route: the claim is settled with the change', () => {
    let admin: TestUser;
    beforeAll(async () => {
      admin = await t.user({ admin: true });
    });
    const rowCount = async (table: typeof notifications | typeof userAttachments) => Number((await t.services.db.select({ n: count() }).from(table))[0].n);
    const cases: [string, () => TestUser, string, () => string, object, (typeof notifications | typeof userAttachments)?][] = [
      ['a notification to one user (admin)', () => admin, 'POST', () => `/api/notification/${dave.uid}`, { notification: { message: 'Your report is ready' } }, notifications],
      ['a notification to everyone (admin)', () => admin, 'POST', () => '/api/notification', { notification: { message: 'Maintenance tonight' } }, notifications],
      ['attachments', () => dave, 'PATCH', () => '/api/user/attachments', { attachments: [] }, userAttachments],
      ['presence', () => dave, 'PATCH', () => '/api/user/active-status', { status: 'ACTIVE' }],
    ];
    it.each(cases)('%s', async (_name, who, method, url, payload, table) => {
      const user = who();
      const key = randomUUID();
      const sendIt = () => t.app.inject({ method: method as 'POST' | 'PATCH', url: url(), headers: { ...user.headers, 'idempotency-key': key }, payload });
      await setFaults({ crashAfterCommitRate: 1, pathPrefix: url() });
      let crashed;
      try {
        crashed = await sendIt();
      } finally {
        await setFaults({});
      }
      expect(crashed.statusCode, crashed.body).toBeLessThan(300);
      // Nothing ran after the handler, yet the claim holds the answer: it committed with the change.
      const claim = (await t.services.db.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.userId, user.uid), eq(idempotencyKeys.commandId, key))))[0];
      expect(claim).toMatchObject({ state: 'done', responseStatus: crashed.statusCode, responseBody: crashed.json() });
      await t.services.db
        .update(idempotencyKeys)
        .set({ createdAt: sql`now() - interval '3 minutes'` })
        .where(and(eq(idempotencyKeys.userId, user.uid), eq(idempotencyKeys.commandId, key)));
      const before = table ? await rowCount(table) : 0;
      const retry = await sendIt();
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.json()).toEqual(crashed.json());
      if (table) expect(await rowCount(table)).toBe(before);
    });
  });

  it('the retry of an upload answers the first one: its file rows and stored files once', async () => {
    const key = randomUUID();
    const before = await commands.stored();
    await setFaults({ crashAfterCommitRate: 1, pathPrefix: '/api/user/files' });
    try {
      await commands.upload(key);
    } finally {
      await setFaults({});
    }
    // The process "died" after the commit: the rows and their bytes are there, the client saw no answer.
    const firstRows = await t.services.db
      .select({ id: files.id, sha256: files.sha256 })
      .from(files)
      .where(and(eq(files.userId, dave.uid), sql`${files.createdAt} >= now() - interval '1 minute'`, eq(files.kind, 'general')))
      .orderBy(files.createdAt);
    const afterCrash = await commands.stored();
    expect(afterCrash).toEqual({ ...before, files: before.files + 2, stored: before.stored + 2 });
    // The outbox retries once the claim is older than the takeover limit.
    await t.services.db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '3 minutes'` })
      .where(and(eq(idempotencyKeys.userId, dave.uid), eq(idempotencyKeys.commandId, key)));
    const retry = await commands.upload(key);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.json().data.files.map((f: { id: string }) => f.id).sort()).toEqual(firstRows.map((r) => r.id).sort());
    expect(await commands.stored()).toEqual(afterCrash);
    // And each is downloadable with the hash its row records.
    for (const row of firstRows) {
      const download = await t.app.inject({ method: 'GET', url: `/api/user/files/${row.id}`, headers: dave.headers });
      expect(download.statusCode).toBe(200);
      expect(createHash('sha256').update(download.rawPayload).digest('hex')).toBe(row.sha256);
    }
  });
});

describe('Idempotency-Key: answers the outbox retries are not replayed', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The test-only fault plugin (server/plugins/faults.ts) answers 401 for an expired token before any key is claimed.
    t = await createFaultyApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('isRetryable: 5xx, 401, 408 and 429 free the key; other answers are final', () => {
    for (const s of [500, 502, 503, 401, 408, 429]) expect(isRetryable(s), String(s)).toBe(true);
    for (const s of [200, 201, 400, 403, 404, 409, 413, 422]) expect(isRetryable(s), String(s)).toBe(false);
  });

  it('a 401 for an expired token claims nothing: the retry with a fresh token runs once', async () => {
    const password = 'Secret#123';
    const u = await t.user({ password });
    const key = randomUUID();
    const subject = `expired-${key}`;
    const expire = await t.app.inject({ method: 'POST', url: '/api/__test/expire-tokens', payload: { email: u.email } });
    expect(expire.statusCode).toBe(200);
    const rejected = await t.app.inject({ method: 'POST', url: '/api/contact', headers: { ...u.headers, 'idempotency-key': key }, payload: contact(subject) });
    expect(rejected.statusCode).toBe(401);
    expect((await t.services.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.commandId, key))).length).toBe(0);

    // Token issue times are in whole seconds: a fresh one must be issued after the cut-off second.
    await new Promise((r) => setTimeout(r, 1100));
    const fresh = await signIn(u.email, password);
    const ok = await t.app.inject({ method: 'POST', url: '/api/contact', headers: { authorization: `Bearer ${fresh}`, 'idempotency-key': key }, payload: contact(subject) });
    expect(ok.statusCode).toBe(201);
    expect(ok.headers['idempotent-replayed']).toBeUndefined();
    const replay = await t.app.inject({ method: 'POST', url: '/api/contact', headers: { authorization: `Bearer ${fresh}`, 'idempotency-key': key }, payload: contact(subject) });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await t.services.db.select().from(contactRequests).where(eq(contactRequests.subject, subject))).length).toBe(1);
  });
});

async function signIn(email: string, password: string): Promise<string> {
  const res = await fetch(`http://${process.env.FIREBASE_AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { idToken: string }).idToken;
}
