import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { HttpError } from '../errors.ts';

/**
 * Test-only fault injection (TEST_FAULTS=1; refused in production by config.ts). It lets the
 * offline and chaos tests lose answers after commit, inject 5xx before commit, expire a user's
 * tokens, and count what really reached the database.
 */
const Faults = z.strictObject({
  dropAfterCommitRate: z.number().min(0).max(1).default(0),
  fail5xxRate: z.number().min(0).max(1).default(0),
  /** Only requests to paths starting with this are affected (e.g. "/api/contact"). */
  pathPrefix: z.string().default('/api/'),
});
type Faults = z.infer<typeof Faults>;

/**
 * Call before registerIdempotency, so injected failures and expired tokens are decided before a key is
 * claimed (and replays can be dropped too); then call the returned function after it, so an answer is
 * stored before its connection is cut.
 */
export function registerFaults(app: FastifyInstance, db: Db): () => void {
  let faults: Faults = Faults.parse({});
  const tokensNotBefore = new Map<string, number>();
  const dropped = new WeakSet<object>();
  const affects = (method: string, url: string) => method !== 'GET' && url.startsWith(faults.pathPrefix) && !url.startsWith('/api/__test');

  app.addHook('preHandler', async (request) => {
    if (!request.user || !affects(request.method, request.url)) return;
    const notBefore = tokensNotBefore.get(request.user.uid);
    if (notBefore !== undefined && request.tokenIssuedAt <= notBefore) throw new HttpError(401, 'TOKEN_EXPIRED', 'The identity token has expired');
    if (Math.random() < faults.fail5xxRate) throw new HttpError(503, 'INJECTED', 'Injected failure before commit');
    if (Math.random() < faults.dropAfterCommitRate) dropped.add(request);
  });


  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post('/api/__test/faults', { schema: { hide: true, body: Faults } }, async (request) => {
    faults = request.body;
    return { data: faults };
  });
  api.post('/api/__test/expire-tokens', { schema: { hide: true, body: z.strictObject({ email: z.string() }) } }, async (request) => {
    const rows = await db.execute<{ uid: string }>(sql`select uid from users where email = ${request.body.email}`);
    const uid = rowsOf<{ uid: string }>(rows)[0]?.uid;
    if (!uid) throw new HttpError(404, 'NOT_FOUND', 'No such user');
    tokensNotBefore.set(uid, Math.floor(Date.now() / 1000));
    return { data: { uid } };
  });
  /** Bulk-inserts requests for the pull benchmark, in batches of 1000. */
  api.post('/api/__test/seed-requests', { schema: { hide: true, body: z.strictObject({ email: z.string(), count: z.number().int().min(1).max(100_000) }) } }, async (request) => {
    const rows = await db.execute(sql`select uid from users where email = ${request.body.email}`);
    const uid = rowsOf<{ uid: string }>(rows)[0]?.uid;
    if (!uid) throw new HttpError(404, 'NOT_FOUND', 'No such user');
    for (let done = 0; done < request.body.count; done += 1000) {
      const n = Math.min(1000, request.body.count - done);
      await db.execute(sql`
        insert into product_requests (user_id, tool_id, product_request_type, status, total_amount, paid, request_details)
        select ${uid}, 'blockchain-analysis', 'BLOCKCHAIN_ANALYSIS', 'In Progress', 1500, 500,
               jsonb_build_object('BLOCKCHAIN_ANALYSIS_cryptoNetwork', 'ETH', 'BLOCKCHAIN_ANALYSIS_cryptoWallet', '0x' || md5(g::text),
                                  'BLOCKCHAIN_ANALYSIS_cryptoAmount', g, 'BLOCKCHAIN_ANALYSIS_exchangeUsed', 'Binance')
        from generate_series(1, ${n}) as g`);
    }
    return { data: { uid, inserted: request.body.count } };
  });

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

  return () =>
    app.addHook('onSend', async (request, _reply, payload) => {
      if (dropped.has(request)) request.raw.socket?.destroy();
      return payload;
    });
}

function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}
