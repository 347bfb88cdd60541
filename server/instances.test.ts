// The real server process, spawned as an operator runs it. Uploads stream into storage, so
// memory stays bounded whatever arrives; and two instances on one PostgreSQL behave as one service:
// files, Idempotency-Keys, pokes and write limits all cross from one to the other.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from './server-process.ts';
import { backends, emulatorHost, freshPostgresUrl, postgresSkipReason, signUp } from './test-helper.ts';

const MB = 1024 * 1024;
const DOWNLOAD_SECRET = randomBytes(32).toString('base64url');

/** A new account with its profile made on `server`; an account awaiting approval, as anyone who signs up. */
async function newUser(server: ServerProcess): Promise<{ uid: string; headers: Record<string, string> }> {
  const token = await signUp(emulatorHost(), `i${Date.now()}-${randomUUID().slice(0, 8)}@test.example`, 'Secret#123');
  const headers = { authorization: `Bearer ${token.idToken}` };
  const me = await fetch(`${server.url}/api/user`, { headers });
  if (me.status !== 200) throw new Error(`profile bootstrap failed: ${me.status} ${await me.text()}`);
  return { uid: token.localId, headers };
}

/** One multipart body with one file part named `files`. */
function uploadBody(name: string, bytes: Buffer): { body: Buffer; contentType: string } {
  const boundary = `----portal-${randomUUID()}`;
  const head = `--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="${name}"\r\ncontent-type: application/pdf\r\n\r\n`;
  return { body: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

function upload(server: ServerProcess, headers: Record<string, string>, form: { body: Buffer; contentType: string }) {
  return fetch(`${server.url}/api/user/files`, { method: 'POST', headers: { ...headers, 'content-type': form.contentType }, body: new Uint8Array(form.body.buffer as ArrayBuffer, form.body.byteOffset, form.body.length) });
}

/** A PDF by its first bytes, random after them: what a scanned bank statement costs to store. */
function pdfOf(bytes: number): Buffer {
  const file = randomBytes(bytes);
  file.write('%PDF-1.4\n', 0, 'latin1');
  return file;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('bounded memory', () => {
  it.each(backends())('20 parallel 10 MB uploads raise the server RSS by less than 64 MB (%s)', async (backend) => {
    const env: Record<string, string> = { UPLOAD_MAX_BYTES: String(11 * MB), UPLOADS_IN_FLIGHT_PER_USER: '100', LEAD_UPLOAD_FILES_PER_DAY: '100', LEAD_UPLOAD_MB_PER_DAY: '1000', LEAD_WRITE_LIMIT_PER_MINUTE: '100', LEAD_WRITE_LIMIT_PER_DAY: '100' };
    if (backend === 'postgres') env.DATABASE_URL = await freshPostgresUrl();
    const server = await startServerProcess(env);
    try {
      // The IP data loads once after listening; measure from when it is in.
      await server.waitFor(/IP data loaded/);
      const user = await newUser(server);
      const form = uploadBody('statement.pdf', pdfOf(10 * MB));
      const twenty = () => Promise.all(Array.from({ length: 20 }, () => upload(server, user.headers, form)));
      /** RSS before, and its peak while `run` runs (sampled every 20 ms). */
      const measured = async (run: () => Promise<Response[]>) => {
        const before = server.rssBytes();
        let peak = before;
        const sampler = setInterval(() => (peak = Math.max(peak, server.rssBytes())), 20);
        const answers = await run();
        clearInterval(sampler);
        expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
        return { before, rise: (Math.max(peak, server.rssBytes()) - before) / MB };
      };
      // The first round at this concurrency also pays one-time costs (the database pool's connections,
      // compiled code, the allocator's arenas); the second shows what uploads themselves hold.
      const first = await measured(twenty);
      // A pause between the rounds so that the first round's garbage can be collected before the second is
      // measured: memory going back down has no event to wait for.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const second = await measured(twenty);
      const listed = (await (await fetch(`${server.url}/api/user/files`, { headers: user.headers })).json()) as { data: { size: number }[] };
      expect(listed.data).toHaveLength(40);
      expect(listed.data.every((f) => f.size === 10 * MB)).toBe(true);
      console.log(
        `[memory] ${backend}: 20 parallel 10 MB uploads raised RSS by ${first.rise.toFixed(1)} MB from ${(first.before / MB).toFixed(0)} MB the first time (one-time costs included) and by ${second.rise.toFixed(1)} MB the second time`,
      );
      expect(first.rise).toBeLessThan(150); // buffering the files whole would take 200 MB
      expect(second.rise).toBeLessThan(64);
    } finally {
      await server.stop();
    }
  }, 240_000);
});

describe.skipIf(postgresSkipReason())('two instances on one PostgreSQL', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let db: pg.Client;

  beforeAll(async () => {
    const url = await freshPostgresUrl();
    // One after the other: the first applies the migrations, the second finds them applied.
    a = await startServerProcess({ DATABASE_URL: url, DOWNLOAD_SECRET });
    b = await startServerProcess({ DATABASE_URL: url, DOWNLOAD_SECRET });
    db = new pg.Client({ connectionString: url });
    await db.connect();
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await Promise.all([a?.stop(), b?.stop()]);
  });

  const contact = (server: ServerProcess, headers: Record<string, string>, key = randomUUID()) =>
    fetch(`${server.url}/api/contact`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ contactRequest: { subject: 'Where is my money', message: 'Please call me back.' } }),
    });
  const contactRows = async (uid: string) => Number((await db.query('select count(*) as n from contact_requests where user_id = $1', [uid])).rows[0].n);

  it('serves through one instance a file uploaded through the other', async () => {
    const user = await newUser(a);
    const bytes = pdfOf(700 * 1024); // several chunks
    const created = await upload(a, user.headers, uploadBody('receipt.pdf', bytes));
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as { data: { files: { id: string }[] } };
    const download = await fetch(`${b.url}/api/user/files/${data.files[0].id}`, { headers: user.headers });
    expect(download.status).toBe(200);
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(bytes));
  });

  it('stores one row for the same Idempotency-Key sent to both at once', async () => {
    const user = await newUser(a);
    const key = randomUUID();
    const first = await Promise.all([contact(a, user.headers, key), contact(b, user.headers, key)]);
    // The loser of the race is told to retry (409) or gets the stored answer; a retry gets the answer.
    for (const answer of first) expect([201, 409]).toContain(answer.status);
    const retried = await Promise.all([contact(a, user.headers, key), contact(b, user.headers, key)]);
    const ids = await Promise.all(retried.map(async (r) => ((await r.json()) as { data: { id: string } }).data.id));
    expect(retried.map((r) => r.status)).toEqual([201, 201]);
    expect(ids[0]).toBe(ids[1]);
    expect(await contactRows(user.uid)).toBe(1);
  });

  it('pokes a client streaming from one instance when it writes through the other', async () => {
    const user = await newUser(a);
    const controller = new AbortController();
    const stream = await fetch(`${b.url}/api/events`, { headers: user.headers, signal: controller.signal });
    expect(stream.status).toBe(200);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const until = async (needle: string) => {
      const deadline = Date.now() + 15_000;
      while (!text.includes(needle)) {
        if (Date.now() > deadline) throw new Error(`no "${needle}" on the stream; got: ${text}`);
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended; got: ${text}`);
        text += value;
      }
    };
    try {
      await until('event: ready');
      expect((await contact(a, user.headers)).status).toBe(201);
      await until('event: poke');
    } finally {
      controller.abort();
    }
  });

  it('counts the write limit across both instances', async () => {
    // An account awaiting approval may make 10 changes a minute (server/config.ts), wherever it sends them.
    const user = await newUser(a);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await contact(i % 2 === 0 ? a : b, user.headers)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(201));
    expect(statuses[10]).toBe(429);
    expect(await contactRows(user.uid)).toBe(10);
  });
});
