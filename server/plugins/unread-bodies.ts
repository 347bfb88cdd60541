import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';

/** A body whose unread rest is at most this big is read and discarded, so its connection stays usable. */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
/** A drain that takes longer than this (a sender stalling mid-body) ends with the connection. */
const DRAIN_MAX_MS = 60_000;

/**
 * An answer sent before its request's body was read to the end (a refused file type, a body over the
 * limit, a failed check, a full disk) must not wedge the kept-alive connection: Node parses the next
 * request on it only once this body has been read, and nothing reads it once the parser that was
 * reading it stopped. So, once such an answer is on its way:
 * - a body with a Content-Length of at most DRAIN_MAX_BYTES is read to its end and discarded (at most
 *   DRAIN_MAX_MS): the client, still sending, reads its answer and reuses the connection;
 * - a larger one, or one without a length (chunked), is answered with `Connection: close`, and the
 *   connection closes after the answer: reading an unbounded body for nothing is not worth a connection.
 * (docs/decisions/024-uploads-exactly-once.md)
 */
export const unreadBodiesPlugin = fp(
  async (app) => {
    app.addHook('onSend', async (request, reply, payload) => {
      const raw = request.raw;
      if (isRead(raw) || !hasBody(raw)) return payload;
      const length = Number(raw.headers['content-length']);
      if (raw.headers['transfer-encoding'] !== undefined || !Number.isFinite(length) || length > DRAIN_MAX_BYTES) {
        reply.header('connection', 'close');
        return payload;
      }
      reply.raw.once('finish', () => drain(raw));
      return payload;
    });
  },
  { name: 'unread-bodies' },
);

/** Received whole (the parser is past it) or read to its end. */
function isRead(raw: IncomingMessage): boolean {
  return raw.complete || raw.readableEnded;
}

function hasBody(raw: IncomingMessage): boolean {
  return raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0;
}

/** Reads the rest of the body into nothing: whoever was reading it (the multipart parser) is detached first. */
function drain(raw: IncomingMessage) {
  if (isRead(raw) || raw.destroyed) return;
  raw.unpipe();
  raw.removeAllListeners('data');
  // app.inject's stand-in socket has no destroy: only a real connection is cut.
  const timer = setTimeout(() => (typeof raw.socket?.destroy === 'function' ? raw.socket.destroy() : undefined), DRAIN_MAX_MS);
  timer.unref();
  raw.once('end', () => clearTimeout(timer));
  raw.once('close', () => clearTimeout(timer));
  raw.on('data', () => {});
  raw.resume();
}
