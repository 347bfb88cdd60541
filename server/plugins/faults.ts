import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Db, rowsOf } from '../db/client.ts';
import { HttpError } from '../platform/errors.ts';

/**
 * Test-only fault injection (TEST_FAULTS=1; refused in production by config.ts). It lets the
 * offline and chaos tests lose answers after commit, crash after commit, inject 5xx before commit,
 * expire a user's tokens, and count what really reached the database.
 */
const Faults = z.strictObject({
  dropAfterCommitRate: z.number().min(0).max(1).default(0),
  /**
   * The process "dies" once the handler is done: nothing after it runs for that request (the
   * Idempotency-Key claim is left as the handler's transaction left it) and the connection is cut.
   */
  crashAfterCommitRate: z.number().min(0).max(1).default(0),
  fail5xxRate: z.number().min(0).max(1).default(0),
  /**
   * The delivery worker's process dies (SIGKILL) right after a push service or the SMTP server accepted a
   * message, before the worker records it: what at most once must survive (server/notify/run.ts).
   */
  crashAfterSendRate: z.number().min(0).max(1).default(0),
  /** Only requests to paths starting with this are affected (e.g. "/api/contact"). */
  pathPrefix: z.string().default('/api/'),
});
type Faults = z.infer<typeof Faults>;

/** How many faults of each kind this process has injected since it started (GET /api/__test/faults). */
interface Injected {
  fail5xx: number;
  dropAfterCommit: number;
  crashAfterCommit: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by faultsPlugin only (TEST_FAULTS=1): whether the delivery worker dies after this send. */
    deliveryFaults?: { crashAfterSend(): boolean };
  }
  interface FastifyRequest {
    /** Set by faultsPlugin when this request's answer is to be lost after commit; acted on by dropAnswersPlugin. */
    dropAnswer: boolean;
    /** Set by faultsPlugin when the process is to "die" after this request's handler. */
    crashAfterCommit: boolean;
  }
}

/**
 * Register before idempotencyPlugin, so injected failures and expired tokens are decided before a key
 * is claimed (and replays can be dropped too), and a crash's onSend runs before the claim would be
 * settled; register dropAnswersPlugin after it, so an answer is stored before its connection is cut.
 */
export const faultsPlugin = fp(
  async (app) => {
    // config.ts refuses TEST_FAULTS=1 in production; this refuses the plugin itself, whoever registers it.
    if (app.config.NODE_ENV === 'production') throw new Error('Fault injection is not allowed in production');
    let faults: Faults = Faults.parse({});
    const injected: Injected = { fail5xx: 0, dropAfterCommit: 0, crashAfterCommit: 0 };
    const tokensNotBefore = new Map<string, number>();
    const affects = (method: string, url: string) => method !== 'GET' && url.startsWith(faults.pathPrefix) && !url.startsWith('/api/__test');

    app.decorate('deliveryFaults', { crashAfterSend: () => Math.random() < faults.crashAfterSendRate });
    app.decorateRequest('dropAnswer', false);
    app.decorateRequest('crashAfterCommit', false);
    app.addHook('preHandler', async (request) => {
      const user = request.userOrNull;
      if (!user || !affects(request.method, request.url)) return;
      const notBefore = tokensNotBefore.get(user.uid);
      if (notBefore !== undefined && request.tokenIssuedAt <= notBefore) throw new HttpError(401, 'TOKEN_EXPIRED', 'The identity token has expired');
      if (Math.random() < faults.fail5xxRate) {
        injected.fail5xx++;
        throw new HttpError(503, 'INJECTED', 'Injected failure before commit');
      }
      // dropAnswersPlugin always acts on the flag, so it is counted here.
      if (Math.random() < faults.dropAfterCommitRate) {
        request.dropAnswer = true;
        injected.dropAfterCommit++;
      }
      if (Math.random() < faults.crashAfterCommitRate) request.crashAfterCommit = true;
    });
    // What a process killed after commit leaves: whatever the handler committed, and no answer.
    app.addHook('onSend', async (request, _reply, payload) => {
      if (!request.crashAfterCommit) return payload;
      injected.crashAfterCommit++;
      request.commandClaim = null;
      cutConnection(request);
      return payload;
    });

    testRoutes(app, {
      set: (next) => (faults = next),
      get: () => ({ faults, injected: { ...injected } }),
      expireTokens: (uid) => tokensNotBefore.set(uid, Math.floor(Date.now() / 1000)),
    });
  },
  { name: 'faults', dependencies: ['config', 'database', 'auth'] },
);

/** Cuts the connection instead of sending the answer faultsPlugin chose to lose; idempotency has stored it by then. */
export const dropAnswersPlugin = fp(
  async (app) => {
    app.addHook('onSend', async (request, _reply, payload) => {
      if (request.dropAnswer) cutConnection(request);
      return payload;
    });
  },
  { name: 'drop-answers', dependencies: ['faults', 'idempotency'] },
);

/** Cuts a real connection; app.inject's stand-in socket cannot be cut, so an injected request gets its answer. */
function cutConnection(request: FastifyRequest) {
  const socket = request.raw.socket as { destroy?: unknown } | undefined;
  if (typeof socket?.destroy === 'function') request.raw.socket.destroy();
}

interface FaultControls {
  set(faults: Faults): void;
  /** The faults in force and the running totals of those injected (never reset: callers take differences). */
  get(): { faults: Faults; injected: Injected };
  expireTokens(uid: string): void;
}

function testRoutes(app: FastifyInstance, controls: FaultControls) {
  const db = app.db;
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post('/api/__test/faults', { schema: { hide: true, body: Faults } }, async (request) => {
    controls.set(request.body);
    return { data: request.body };
  });
  api.get('/api/__test/faults', { schema: { hide: true } }, async () => ({ data: controls.get() }));
  api.post('/api/__test/expire-tokens', { schema: { hide: true, body: z.strictObject({ email: z.string() }) } }, async (request) => {
    const uid = await uidOf(db, request.body.email);
    controls.expireTokens(uid);
    return { data: { uid } };
  });
  /**
   * Forgets which authenticator step the account used last, so the same 30-second code is taken again: the staff
   * specs sign the demo accounts in many times a minute through the real code screen, and would otherwise wait for
   * the clock's next step each time (a code is accepted once per account). Only the replay check is relaxed; the
   * code itself is checked as ever.
   */
  api.post('/api/__test/forget-totp-step', { schema: { hide: true, body: z.strictObject({ email: z.string() }) } }, async (request) => {
    const uid = await uidOf(db, request.body.email);
    await db.execute(sql`UPDATE totp_factors SET last_step = NULL WHERE uid = ${uid}`);
    return { data: { uid } };
  });
  /**
   * Bulk-inserts requests for the pull benchmark, in batches of 1000. `withCommandIds`: each with the command id
   * (client_key) a request made through the app's outbox carries, which the client's pull reads (docs/decisions/017).
   */
  api.post(
    '/api/__test/seed-requests',
    { schema: { hide: true, body: z.strictObject({ email: z.string(), count: z.number().int().min(1).max(100_000), withCommandIds: z.boolean().default(false) }) } },
    async (request) => {
      const uid = await uidOf(db, request.body.email);
      for (let done = 0; done < request.body.count; done += 1000) {
        await insertBenchRequests(db, uid, Math.min(1000, request.body.count - done), request.body.withCommandIds);
      }
      return { data: { uid, inserted: request.body.count } };
    },
  );
  /** A user's deliveries (pushes and emails) by email address, oldest first: what the worker made of them. */
  api.get('/api/__test/deliveries', { schema: { hide: true, querystring: z.object({ email: z.string() }) } }, async (request) => {
    const uid = await uidOf(db, request.query.email);
    const rows = rowsOf(
      await db.execute(sql`select id, event_kind as "eventKind", channel, state, skip_reason as "skipReason", attempts from deliveries where recipient_uid = ${uid} order by created_at, id`),
    );
    return { data: rows };
  });
  /** A delivery that gave up (as after its last attempt), for the admins' page. */
  api.post(
    '/api/__test/deliveries/failed',
    { schema: { hide: true, body: z.strictObject({ email: z.string(), channel: z.enum(['push', 'email']), state: z.enum(['failed', 'unknown']).default('failed') }) } },
    async (request) => {
      const uid = await uidOf(db, request.body.email);
      const [row] = rowsOf<{ id: string }>(
        await db.execute(sql`
          insert into deliveries (event_kind, event_key, recipient_uid, channel, facts, state, attempts, last_status, last_error, finished_at)
          values ('reply', ${`test:${randomUUID()}`}, ${uid}, ${request.body.channel}, '{}'::jsonb, ${request.body.state}, 6, 503,
                  'push service answered 503: Service Unavailable', now())
          returning id`),
      );
      return { data: row };
    },
  );
  /** Counts rows whose text contains a marker: total and how many distinct, per table. */
  api.get('/api/__test/counts', { schema: { hide: true, querystring: z.object({ prefix: z.string().min(3) }) } }, async (request) => {
    const like = `%${request.query.prefix}%`;
    const one = async (query: ReturnType<typeof sql>) => {
      const [row] = rowsOf<{ total: string; distinct: string }>(await db.execute(query));
      return { total: Number(row.total), distinct: Number(row.distinct) };
    };
    return {
      data: {
        contact: await one(sql`select count(*) as total, count(distinct subject) as distinct from contact_requests where subject like ${like}`),
        refunds: await one(sql`select count(*) as total, count(distinct reason) as distinct from refunds where reason like ${like}`),
        requests: await one(
          sql`select count(*) as total, count(distinct request_details::text) as distinct from product_requests where request_details::text like ${like}`,
        ),
      },
    };
  });
}

async function uidOf(db: Db, email: string): Promise<string> {
  const rows = await db.execute(sql`select uid from users where email = ${email}`);
  const uid = rowsOf<{ uid: string }>(rows)[0]?.uid;
  if (!uid) throw new HttpError(404, 'NOT_FOUND', 'No such user');
  return uid;
}

async function insertBenchRequests(db: Db, uid: string, n: number, withCommandIds: boolean) {
  await db.execute(sql`
    insert into product_requests (user_id, tool_id, product_request_type, status, total_cents, paid_cents, request_details, client_key)
    select ${uid}, 'blockchain-analysis', 'BLOCKCHAIN_ANALYSIS', 'In Progress', 150000, 50000,
           jsonb_build_object('BLOCKCHAIN_ANALYSIS_cryptoNetwork', 'ETH', 'BLOCKCHAIN_ANALYSIS_cryptoWallet', '0x' || md5(g::text),
                              'BLOCKCHAIN_ANALYSIS_cryptoAmount', g, 'BLOCKCHAIN_ANALYSIS_exchangeUsed', 'Binance'),
           CASE WHEN ${withCommandIds} THEN gen_random_uuid()::text END
    from generate_series(1, ${n}) as g`);
}

