import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../tests/support/postgres.ts';
import { openDatabase } from './db/client.ts';
import { DATABASE_UNAVAILABLE_MESSAGE } from './platform/service-faults.ts';
import { createTestApp, postgresSkipReason, type TestApp, type TestUser, waitUntil } from './test-helper.ts';

/**
 * A PostgreSQL of this file's own, terminated, stopped, restarted and paused under a running app: the
 * process lives on, writes answer 503 with Retry-After while the database is gone, and everything
 * works again once it is back, with no restart of the app.
 */
const skip = postgresSkipReason();
if (skip) console.warn(`[database-faults.test] skipped: ${skip}`);

describe.skipIf(!!skip)('the app on a PostgreSQL that fails under it', () => {
  let server: ThrowawayPostgres;
  let t: TestApp;
  let alice: TestUser;
  let pokes = 0;
  let unsubscribe: () => void = () => undefined;

  const warnings: string[] = [];
  let stopWatching = () => undefined as void;
  beforeAll(async () => {
    // What the database layer reports (console.warn): read by the test of the listener's check.
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      warnings.push(args.map(String).join(' '));
      warn(...args);
    };
    stopWatching = () => void (console.warn = warn);
    const started = await startThrowawayPostgres();
    if ('skipReason' in started) throw new Error(`no PostgreSQL of the test's own: ${started.skipReason}`);
    server = started;
    // Short timeouts, so the paused database's 503 comes within the test's time.
    t = await createTestApp({ databaseUrl: server.url, env: { DATABASE_CONNECT_TIMEOUT_MS: '2000', DATABASE_STATEMENT_TIMEOUT_MS: '3000' } });
    alice = await t.user({ client: true });
    unsubscribe = t.services.events.subscribe(alice.uid, () => pokes++);
  });
  afterAll(async () => {
    stopWatching();
    unsubscribe();
    await t?.close();
    await server?.stop();
  });

  let n = 0;
  const contact = (key = `contact-key-${++n}-${Date.now()}`) =>
    t.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { ...alice.headers, 'idempotency-key': key },
      payload: { contactRequest: { subject: `Faults ${key}`, message: 'Still there?' } },
    });
  const profile = () => t.app.inject({ method: 'GET', url: '/api/user', headers: alice.headers });
  const health = () => t.app.inject({ method: 'GET', url: '/api/health' });

  /** Sends the same keyed write until it is answered 201, as the outbox does; its answer. */
  async function sendUntilStored(key: string) {
    for (;;) {
      const res = await contact(key);
      if (res.statusCode === 201) return res;
      expect(res.statusCode).toBe(503);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('survives pg_terminate_backend of every connection, a transaction in flight included, and listens again', async () => {
    // Several pooled connections, and one held by a transaction when the connections are terminated.
    await Promise.all([profile(), profile(), profile()]);
    let terminated!: () => void;
    const afterTermination = new Promise<void>((resolve) => (terminated = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const inFlight = t.services.db.transaction(async (tx) => {
      await tx.execute('select 1');
      holding();
      await afterTermination;
      await tx.execute('select 1');
    });
    // Its failure is read below; caught at once, it is never an unhandled rejection while the test awaits the rest.
    const outcome = inFlight.then(
      () => null,
      (err: unknown) => err,
    );
    // The transaction holds its connection when the connections are terminated.
    await held;
    const before = pokes;

    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ n: number }>(
        `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where pid <> pg_backend_pid() and backend_type = 'client backend'`,
      );
      // The pool's connections, the transaction's and the listener's.
      expect(rows[0].n).toBeGreaterThanOrEqual(3);
    } finally {
      await admin.end();
    }
    terminated();
    expect(await outcome).toBeInstanceOf(Error);

    // The listener is back: its return pokes every open stream, since pokes may have been missed.
    await waitUntil(() => pokes > before);
    expect((await profile()).statusCode).toBe(200);
    const afterReconnect = pokes;
    expect((await contact()).statusCode).toBe(201);
    // A NOTIFY sent after the reconnection reaches the listener: the write's own poke.
    await waitUntil(() => pokes > afterReconnect);
  });

  for (const mode of ['fast', 'immediate'] as const) {
    it(`while PostgreSQL is stopped (-m ${mode}), writes, reads and health answer 503; once restarted, the same write succeeds`, async () => {
      await server.halt(mode);
      const refused = await contact(`stopped-${mode}`);
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.json()).toEqual({ error: { code: 'DATABASE_UNAVAILABLE', message: DATABASE_UNAVAILABLE_MESSAGE } });
      const read = await profile();
      expect(read.statusCode).toBe(503);
      expect(read.json().error.code).toBe('DATABASE_UNAVAILABLE');
      const down = await health();
      expect(down.statusCode).toBe(503);
      expect(down.headers['retry-after']).toBeDefined();
      expect(down.json().error).toMatchObject({ code: 'UNAVAILABLE', message: 'Not ready: the database cannot be reached.' });
      expect(down.json().error.details.checks.database).toEqual({ reachable: false, writable: false });

      const before = pokes;
      await server.resume();
      const stored = await sendUntilStored(`stopped-${mode}`);
      expect(stored.json().data.subject).toBe(`Faults stopped-${mode}`);
      await waitUntil(async () => (await health()).statusCode === 200);
      expect((await health()).json().data).toMatchObject({ status: 'ok', database: 'postgres', checks: { database: { reachable: true, writable: true } } });
      // The listener came back by itself too.
      await waitUntil(() => pokes > before);
    });
  }

  it('a paused PostgreSQL gets 503 after the timeouts instead of a request that never ends, and recovers when it resumes', async () => {
    const pids = server.pids();
    for (const pid of pids) process.kill(pid, 'SIGSTOP');
    try {
      const refused = await contact('paused-key');
      expect(refused.statusCode).toBe(503);
      expect(refused.json().error.code).toBe('DATABASE_UNAVAILABLE');
      const down = await health();
      expect(down.statusCode).toBe(503);
      expect(down.json().error.details.checks.database.reachable).toBe(false);
    } finally {
      for (const pid of pids) process.kill(pid, 'SIGCONT');
    }
    await sendUntilStored('paused-key');
    expect((await profile()).statusCode).toBe(200);
  });

  it('a listening connection that stops answering is noticed by its check, opened again once the database answers, and its subscribers told', async () => {
    const database = await openDatabase({ url: server.url, timeouts: { connectMs: 500, statementMs: 1000, listenerCheckMs: 200 } });
    try {
      const got: string[] = [];
      let reconnects = 0;
      await database.listen('check_channel', (p) => got.push(p), () => reconnects++);
      // Paused, the server closes nothing: only the check can tell that the connection no longer answers.
      const pids = server.pids();
      for (const pid of pids) process.kill(pid, 'SIGSTOP');
      try {
        await waitUntil(() => warnings.some((w) => w.includes('the listening connection does not answer')));
      } finally {
        for (const pid of pids) process.kill(pid, 'SIGCONT');
      }
      await waitUntil(() => reconnects > 0);
      await database.notify('check_channel', 'after');
      await waitUntil(() => got.includes('after'));
    } finally {
      await database.close();
    }
  });
});
