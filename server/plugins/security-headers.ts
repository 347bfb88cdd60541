import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Headers every answer has anyway: what is left of the probe's answer is what helmet adds. */
const BASE_HEADERS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * The headers @fastify/helmet puts on an answer with these options, read once from a throwaway app. They depend
 * only on the options (no CSP nonces here), so they are the same for every request.
 */
export async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify();
  try {
    await probe.register(helmet, options);
    probe.get('/', async () => '');
    const res = await probe.inject({ method: 'GET', url: '/' });
    return Object.fromEntries(Object.entries(res.headers).flatMap(([name, value]) => (BASE_HEADERS.has(name) || typeof value !== 'string' ? [] : [[name, value]])));
  } finally {
    await probe.close();
  }
}

/**
 * helmet's security headers on every answer, as @fastify/helmet sets them, without its cost per request:
 * @fastify/helmet builds helmet's middlewares anew for every request (a CPU profile of empty pulls showed it
 * as a fixed share of each, docs/decisions/018-light-sync-and-writes.md). The header set is computed once with
 * helmet itself and copied onto each reply in onRequest; a route that sets one of them (a download's stricter
 * policy) still overrides it, as it did with helmet.
 */
export const securityHeadersPlugin = fp<{ helmet: FastifyHelmetOptions }>(
  async (app: FastifyInstance, options) => {
    const headers = await helmetHeaders(options.helmet);
    if (!headers['content-security-policy'] || !headers['x-content-type-options']) throw new Error('helmet set no security headers');
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
  { name: 'security-headers' },
);
