import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../platform/errors.ts';

export interface EventStreamOptions {
  /** A comment line this often keeps proxies and load balancers from closing an idle stream. */
  heartbeatMs: number;
  /** Pokes arriving within this window become one: a burst of writes costs the client one pull. */
  coalesceMs: number;
  /**
   * Open streams one user may hold on this instance (tabs, windows, devices): each holds a socket and
   * subscriptions for as long as it stays open, so an unbounded number is unbounded memory.
   */
  maxStreamsPerUser: number;
}

const DEFAULTS: EventStreamOptions = { heartbeatMs: 25_000, coalesceMs: 100, maxStreamsPerUser: 5 };

/**
 * GET /api/events: a Server-Sent Events stream of data-free pokes ("something of yours changed,
 * pull"; a staff member's stream also hears every client's change). The client reads it with fetch
 * streaming so it can send the Authorization header, which EventSource cannot. The data itself always
 * travels through GET /api/sync (and GET /api/staff/sync), so a lost or duplicated poke costs at most
 * one extra pull and never a wrong replica (docs/decisions/001-delta-sync-and-idempotency.md).
 * The timings are plugin options, so a test can shorten them.
 */
export async function eventRoutes(app: FastifyInstance, options: Partial<EventStreamOptions> = {}) {
  const { heartbeatMs, coalesceMs, maxStreamsPerUser } = { ...DEFAULTS, ...options };
  const open = new Set<ServerResponse>();
  // Per instance: a stream lives on the instance it connected to, and so does what it costs.
  const perUser = new Map<string, number>();
  // app.close() waits for open connections; a stream never ends by itself, so end them first.
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });

  app.get('/events', { onRequest: app.authenticateFresh, schema: { hide: true } }, (request, reply) => {
    const uid = request.user.uid;
    const held = perUser.get(uid) ?? 0;
    if (held >= maxStreamsPerUser) {
      reply.header('retry-after', '30');
      throw new HttpError(429, 'RATE_LIMITED', `Too many live connections: at most ${maxStreamsPerUser} can be open at once for one account. Close the portal in another tab or window and try again.`);
    }
    perUser.set(uid, held + 1);
    reply.hijack();
    const res = reply.raw;
    // Headers already set on the reply (helmet's) are not sent after hijack: copy them over.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) res.setHeader(name, value as string | string[] | number);
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    res.flushHeaders();
    open.add(res);

    let pending: NodeJS.Timeout | null = null;
    const write = (chunk: string) => {
      if (!res.writableEnded && !res.destroyed) res.write(chunk);
    };
    const onPoke = () => {
      pending ??= setTimeout(() => {
        pending = null;
        write('event: poke\ndata: {}\n\n');
      }, coalesceMs);
    };
    const unsubscribes = [app.events.subscribe(uid, onPoke)];
    // A staff member's stream also hears every client's change, so the workspace pulls the staff feed
    // (docs/decisions/008-staff-feed.md). The role is read from the database at connect; if it is revoked
    // while the stream is open, the stream keeps hearing data-free pokes only, and the feed itself answers 403.
    if (request.user.isStaff) unsubscribes.push(app.events.subscribeStaff(onPoke));
    const heartbeat = setInterval(() => write(': ping\n\n'), heartbeatMs);

    let closed = false;
    const cleanup = () => {
      if (closed) return;
      closed = true;
      for (const off of unsubscribes) off();
      clearInterval(heartbeat);
      if (pending) clearTimeout(pending);
      open.delete(res);
      const left = (perUser.get(uid) ?? 1) - 1;
      if (left > 0) perUser.set(uid, left);
      else perUser.delete(uid);
    };
    // The response's 'close' fires when the client goes away or we end the stream (not the
    // request's: that one fires as soon as the request body has been read).
    res.on('close', cleanup);

    // retry: how long EventSource-like clients wait before reconnecting after a drop.
    write('retry: 3000\nevent: ready\ndata: {}\n\n');
  });
}
