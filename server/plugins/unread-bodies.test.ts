// A refusal answered before the body was read must leave the kept-alive connection usable: the next
// request on the same socket is answered (the rest of a bounded body is drained), or the refusal says
// `Connection: close` and the connection closes (an unbounded body). Raw sockets, so nothing hides a
// wedged connection behind a reconnect; every wait is bounded and fails with what the socket got.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../test-helper.ts';
import { DRAIN_MAX_BYTES } from './unread-bodies.ts';

const WAIT_MS = 15_000;
const BOUNDARY = 'portal-unread-body';

/** A socket and what it received: answers seen so far (status and headers), and whether it closed. */
function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  let closed = false;
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((w) => w());
  socket.on('data', (chunk) => {
    received += chunk.toString('latin1');
    notify();
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    closed = true;
    notify();
  });
  const answers = () => [...received.matchAll(/HTTP\/1\.1 (\d{3})[^\r]*\r\n([\s\S]*?)\r\n\r\n/g)].map((m) => ({ status: Number(m[1]), head: m[2].toLowerCase() }));
  /** Resolves once `done` holds, or fails after WAIT_MS saying what the socket got (a wedged connection). */
  const until = (what: string, done: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no ${what} within ${WAIT_MS} ms on a kept-alive connection; got ${JSON.stringify(answers())}, closed: ${closed}`));
      }, WAIT_MS);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  return { socket, answers, closed: () => closed, until };
}

const multipartFile = (bytes: Buffer) =>
  Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="files"; filename="x.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
/** An executable by its first bytes: refused (415) from its first 4 kB, long before its end arrives. */
const executable = (size: number) => Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), randomBytes(size)]);

const request = (method: string, url: string, headers: Record<string, string | number>, body?: Buffer) =>
  Buffer.concat([
    Buffer.from(`${method} ${url} HTTP/1.1\r\nhost: portal.test\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`),
    body ?? Buffer.alloc(0),
  ]);
const health = request('GET', '/api/health', {});

describe('a refused request never wedges its connection', () => {
  let t: TestApp;
  let user: TestUser;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp();
    user = await t.user();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    t?.app.server.closeAllConnections();
    await t?.close();
  });

  /** Sends `first` whole, then a second request on the same socket, and expects both answered. */
  async function secondIsAnswered(first: Buffer, status: number) {
    const c = connect(port);
    try {
      c.socket.write(first);
      await c.until(`answer ${status} to the refused request`, () => c.answers().length >= 1);
      expect(c.answers()[0].status).toBe(status);
      expect(c.answers()[0].head).not.toContain('connection: close');
      c.socket.write(health);
      await c.until('answer to the second request', () => c.answers().length >= 2);
      expect(c.answers()[1].status).toBe(200);
      expect(c.closed()).toBe(false);
    } finally {
      c.socket.destroy();
    }
  }

  it('a file refused by its type mid-upload (415): the next request on the socket is answered', async () => {
    const body = multipartFile(executable(3 * 1024 * 1024));
    await secondIsAnswered(
      request('POST', '/api/user/files', { ...user.headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': body.length }, body),
      415,
    );
  });

  it('multipart sent to a JSON route (415 before a byte is read): the next request is answered', async () => {
    const body = multipartFile(randomBytes(512 * 1024));
    await secondIsAnswered(
      request('POST', '/api/contact', { ...user.headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': body.length }, body),
      415,
    );
  });

  it('a JSON body over the size limit (413) says Connection: close and closes; a new connection is answered', async () => {
    const body = Buffer.from(JSON.stringify({ contactRequest: { subject: 'x', message: 'y'.repeat(3 * 1024 * 1024) } }));
    const c = connect(port);
    try {
      c.socket.write(request('POST', '/api/contact', { ...user.headers, 'content-type': 'application/json', 'content-length': body.length }, body));
      // Fastify's own answer to a body over its limit closes the connection.
      await c.until('413 with the connection closed', () => c.answers().length >= 1 && c.closed());
      expect(c.answers()[0]).toMatchObject({ status: 413, head: expect.stringContaining('connection: close') });
    } finally {
      c.socket.destroy();
    }
    const again = connect(port);
    try {
      again.socket.write(health);
      await again.until('answer on a new connection', () => again.answers().length >= 1);
      expect(again.answers()[0].status).toBe(200);
    } finally {
      again.socket.destroy();
    }
  });

  it('an upload without a valid token (401): the next request is answered', async () => {
    const body = multipartFile(Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(2 * 1024 * 1024)]));
    await secondIsAnswered(
      request('POST', '/api/user/files', { authorization: 'Bearer not-a-token', 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': body.length }, body),
      401,
    );
  });

  it(`a refused body larger than ${DRAIN_MAX_BYTES / 1024 / 1024} MB is answered with Connection: close, and the connection closes`, async () => {
    const c = connect(port);
    try {
      // Only its first megabyte is sent: the answer must not wait for the rest.
      const head = multipartFile(executable(1024 * 1024)).subarray(0, 1024 * 1024);
      c.socket.write(request('POST', '/api/user/files', { ...user.headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': DRAIN_MAX_BYTES + 1 }, head));
      await c.until('415 with the connection closed', () => c.answers().length >= 1 && c.closed());
      expect(c.answers()[0].status).toBe(415);
      expect(c.answers()[0].head).toContain('connection: close');
    } finally {
      c.socket.destroy();
    }
  });

  it('a refused chunked body (no length to drain) is answered with Connection: close, and the connection closes', async () => {
    const c = connect(port);
    try {
      const chunk = multipartFile(executable(256 * 1024));
      c.socket.write(
        Buffer.concat([
          request('POST', '/api/user/files', { ...user.headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'transfer-encoding': 'chunked' }),
          Buffer.from(`${chunk.length.toString(16)}\r\n`),
          chunk,
          Buffer.from('\r\n'),
        ]),
      );
      // An account awaiting approval must say how much it uploads: 411, before a byte of the body is read.
      await c.until('411 with the connection closed', () => c.answers().length >= 1 && c.closed());
      expect(c.answers()[0].status).toBe(411);
      expect(c.answers()[0].head).toContain('connection: close');
    } finally {
      c.socket.destroy();
    }
  });
});
