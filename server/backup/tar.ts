import type { Readable, Writable } from 'node:stream';

/**
 * The little of POSIX tar (ustar) a backup needs, written and read with node alone
 * (docs/decisions/022-backup-and-restore.md): regular files only, names under 100 bytes
 * (`database/pglite.tar`, `files/<uuid>`, `manifest.json`), sizes up to 8 GiB. `tar -tzf` lists what
 * this writes and extracts it too.
 */

const BLOCK = 512;
const MAX_SIZE = 8 * 1024 ** 3 - 1; // 11 octal digits

function field(header: Buffer, offset: number, length: number, value: string): void {
  header.write(value, offset, length, 'latin1');
}

function octal(value: number, length: number): string {
  return `${value.toString(8).padStart(length - 1, '0')}\0`;
}

export function tarHeader(name: string, size: number, mtime = new Date()): Buffer {
  if (Buffer.byteLength(name) >= 100) throw new Error(`tar member name too long: ${name}`);
  if (size > MAX_SIZE) throw new Error(`tar member ${name} is larger than 8 GiB`);
  const header = Buffer.alloc(BLOCK);
  field(header, 0, 100, name);
  field(header, 100, 8, octal(0o600, 8));
  field(header, 108, 8, octal(0, 8));
  field(header, 116, 8, octal(0, 8));
  field(header, 124, 12, octal(size, 12));
  field(header, 136, 12, octal(Math.floor(mtime.getTime() / 1000), 12));
  field(header, 148, 8, '        '); // counted as spaces while the checksum is summed
  field(header, 156, 1, '0');
  field(header, 257, 6, 'ustar\0');
  field(header, 263, 2, '00');
  let sum = 0;
  for (const byte of header) sum += byte;
  field(header, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return header;
}

export const padding = (size: number): Buffer => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** The two zero blocks that end an archive. */
export const tarEnd = (): Buffer => Buffer.alloc(2 * BLOCK);

/** Writes with backpressure: resolves when `out` takes more; rejects when it fails or closes first (a reader gone). */
export function put(out: Writable, chunk: Buffer): Promise<void> | void {
  if (out.destroyed) throw new Error('the archive stream was closed');
  if (out.write(chunk)) return;
  return new Promise((resolve, reject) => {
    const settle = (err?: Error) => {
      out.off('drain', onDrain);
      out.off('error', onError);
      out.off('close', onClose);
      if (err) reject(err);
      else resolve();
    };
    const onDrain = () => settle();
    const onError = (err: Error) => settle(err);
    const onClose = () => settle(new Error('the archive stream was closed'));
    out.once('drain', onDrain);
    out.once('error', onError);
    out.once('close', onClose);
  });
}

/** One member: its header, exactly `size` bytes from `body`, its padding. */
export async function putMember(out: Writable, name: string, size: number, body: Buffer | AsyncIterable<Buffer>, mtime?: Date): Promise<void> {
  await put(out, tarHeader(name, size, mtime));
  let written = 0;
  for await (const chunk of Buffer.isBuffer(body) ? [body] : body) {
    written += chunk.length;
    if (written > size) throw new Error(`tar member ${name} grew past ${size} bytes while written`);
    await put(out, chunk);
  }
  if (written !== size) throw new Error(`tar member ${name} ended at ${written} of ${size} bytes`);
  await put(out, padding(size));
}

/** Reads exact byte counts from a stream of chunks. */
class ByteReader {
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private readonly chunks: AsyncIterator<Buffer>;
  constructor(source: AsyncIterable<Buffer>) {
    this.chunks = source[Symbol.asyncIterator]();
  }
  /** Up to `max` bytes (fewer only at the end), or null at the end. */
  async next(max: number): Promise<Buffer | null> {
    if (this.bufferedBytes === 0) {
      const { value, done } = await this.chunks.next();
      if (done) return null;
      this.buffered = [value];
      this.bufferedBytes = value.length;
    }
    const all = this.buffered.length === 1 ? this.buffered[0] : Buffer.concat(this.buffered);
    const taken = all.subarray(0, max);
    const rest = all.subarray(taken.length);
    this.buffered = rest.length ? [rest] : [];
    this.bufferedBytes = rest.length;
    return taken;
  }
  async exactly(n: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    let got = 0;
    while (got < n) {
      const part = await this.next(n - got);
      if (!part) throw new Error('the archive ends in the middle of a member (truncated?)');
      parts.push(part);
      got += part.length;
    }
    return Buffer.concat(parts);
  }
}

function parseOctal(buf: Buffer): number {
  const text = buf.toString('latin1').replace(/\0.*$/s, '').trim();
  return text ? parseInt(text, 8) : 0;
}

export interface TarMember {
  name: string;
  size: number;
  /** The member's bytes; must be read to the end before the next member. */
  body: AsyncIterable<Buffer>;
}

/** The members of a tar stream, in order; only regular files (anything else is refused). */
export async function* readTar(source: Readable | AsyncIterable<Buffer>): AsyncGenerator<TarMember> {
  const reader = new ByteReader(source as AsyncIterable<Buffer>);
  for (;;) {
    const header = await reader.exactly(BLOCK);
    if (header.every((byte) => byte === 0)) return;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : header[i];
    if (sum !== parseOctal(header.subarray(148, 156))) throw new Error('the archive is damaged (a tar header checksum does not match)');
    const type = String.fromCharCode(header[156]);
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    if (type !== '0' && type !== '\0') throw new Error(`unexpected tar member ${name} of type ${type}`);
    const size = parseOctal(header.subarray(124, 136));
    let left = size;
    let consumed = false;
    const body = (async function* () {
      while (left > 0) {
        const chunk = await reader.next(Math.min(left, 1024 * 1024));
        if (!chunk) throw new Error('the archive ends in the middle of a member (truncated?)');
        left -= chunk.length;
        yield chunk;
      }
      consumed = true;
    })();
    yield { name, size, body };
    if (!consumed) for await (const _ of body) void _;
    await reader.exactly(padding(size).length);
  }
}
