// kill -9 of the real server process (PGlite under a DATA_DIR) in the middle of keyed writes and uploads,
// then a restart on the same data and the client's retries with the same keys: every acknowledged write
// is there, no key stored twice, every upload downloads with its SHA-256, and no stored file lacks a row.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { migratedDataDir, type ServerProcess, startServerProcess } from './server-process.ts';
import { emulatorHost, signUp, TEST_WRITE_LIMITS } from './test-helper.ts';

const WRITES = 240;
const UPLOADS = 24;
const IN_FLIGHT = 12;
/** The process is killed once this many commands were acknowledged: about a third of the way through. */
const KILL_AFTER_ACKS = 90;

interface Command {
  key: string;
  kind: 'contact' | 'upload';
  body: Buffer;
  contentType: string;
  /** The uploaded file's SHA-256. */
  sha256?: string;
  /** The answer the client got (2xx): the command is acknowledged. */
  answer?: { status: number; data: { id?: string; files?: { id: string; sha256: string }[] } };
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

function contactCommand(): Command {
  const key = randomUUID();
  return { key, kind: 'contact', contentType: 'application/json', body: Buffer.from(JSON.stringify({ contactRequest: { subject: `kill-${key}`, message: 'Still there?' } })) };
}

/** A PDF by its first bytes, random after them, of 128 kB to 640 kB, in one multipart part named `files`. */
function uploadCommand(): Command {
  const file = randomBytes(128 * 1024 + Math.floor(Math.random() * 512 * 1024));
  file.write('%PDF-1.4\n', 0, 'latin1');
  const boundary = `----portal-${randomUUID()}`;
  const head = `--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="statement.pdf"\r\ncontent-type: application/pdf\r\n\r\n`;
  return {
    key: randomUUID(),
    kind: 'upload',
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    sha256: sha256(file),
  };
}

async function send(server: ServerProcess, headers: Record<string, string>, command: Command): Promise<Response> {
  return fetch(`${server.url}/api/${command.kind === 'contact' ? 'contact' : 'user/files'}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': command.contentType, 'idempotency-key': command.key },
    body: new Uint8Array(command.body.buffer as ArrayBuffer, command.body.byteOffset, command.body.length),
  });
}

/** The database the server left, opened by the test while no server runs on it. */
async function withDatabase<T>(dataDir: string, use: (db: PGlite) => Promise<T>): Promise<T> {
  const db = new PGlite(path.join(dataDir, 'pglite'));
  try {
    await db.waitReady;
    return await use(db);
  } finally {
    await db.close();
  }
}

describe('kill -9 during writes and uploads (PGlite)', () => {
  const dataDir = migratedDataDir('portal-kill-');
  const env = { ...TEST_WRITE_LIMITS };
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('every acknowledged write is there once, every upload downloads with its SHA-256, no stored file lacks a row', async () => {
    server = await startServerProcess(env, { dataDir });
    const token = await signUp(emulatorHost(), `kill-${randomUUID().slice(0, 8)}@test.example`, 'Secret#123');
    const headers = { authorization: `Bearer ${token.idToken}` };
    expect((await fetch(`${server.url}/api/user`, { headers })).status).toBe(200);

    // Uploads spread through the writes, so some are on the wire when the process dies.
    const commands: Command[] = [];
    for (let i = 0; i < WRITES; i++) {
      commands.push(contactCommand());
      if (i % (WRITES / UPLOADS) === 0) commands.push(uploadCommand());
    }

    // ---- traffic, and kill -9 once KILL_AFTER_ACKS are acknowledged ----
    const first = server;
    let next = 0;
    let acks = 0;
    let inFlight = 0;
    let killed: Promise<void> | undefined;
    let inFlightAtKill = { total: 0, uploads: 0 };
    const uploadsInFlight = new Set<Command>();
    const refusedBeforeKill: string[] = [];
    const worker = async () => {
      while (!killed && next < commands.length) {
        const command = commands[next++];
        inFlight++;
        if (command.kind === 'upload') uploadsInFlight.add(command);
        try {
          const response = await send(first, headers, command);
          const body = (await response.json()) as { data: NonNullable<Command['answer']>['data'] };
          if (response.ok) {
            command.answer = { status: response.status, data: body.data };
            if (++acks === KILL_AFTER_ACKS && !killed) {
              inFlightAtKill = { total: inFlight - 1, uploads: uploadsInFlight.size - (command.kind === 'upload' ? 1 : 0) };
              killed = first.kill();
            }
          } else if (!killed) refusedBeforeKill.push(`${response.status} ${JSON.stringify(body)}`);
        } catch {
          // The connection died with the process: not acknowledged, the client will retry it.
        } finally {
          inFlight--;
          uploadsInFlight.delete(command);
        }
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    await killed;
    expect(refusedBeforeKill).toEqual([]);
    const acknowledged = commands.filter((c) => c.answer);
    const unacknowledged = commands.filter((c) => !c.answer);
    // The kill landed mid-traffic: requests on the wire, and commands never sent.
    expect(inFlightAtKill.total).toBeGreaterThan(0);
    expect(unacknowledged.length).toBeGreaterThan(inFlightAtKill.total);

    // What the kill left: stored files no row names yet (the start-up sweep's work). Claims of attempts cut
    // short are still "running"; the client's retry comes after the takeover time, which is aged here.
    const leftover = await withDatabase(dataDir, async (db) => {
      const named = new Set((await db.query<{ stored_name: string }>('select stored_name from files')).rows.map((r) => r.stored_name));
      await db.query(`update idempotency_keys set created_at = created_at - interval '3 minutes' where state = 'running'`);
      return readdirSync(path.join(dataDir, 'files')).filter((name) => !named.has(name)).length;
    });

    // ---- restart on the same data; the client retries every unacknowledged command with its key ----
    server = await startServerProcess(env, { dataDir });
    const second = server;
    const retried = async (command: Command) => {
      for (let attempt = 1; ; attempt++) {
        try {
          const response = await send(second, headers, command);
          const body = (await response.json()) as { data: NonNullable<Command['answer']>['data'] };
          expect(response.status, `${command.kind} ${command.key}: ${JSON.stringify(body)}`).toBe(201);
          command.answer = { status: response.status, data: body.data };
          return;
        } catch (err) {
          if (attempt >= 3 || !(err instanceof TypeError)) throw err;
        }
      }
    };
    for (let at = 0; at < unacknowledged.length; at += 4) await Promise.all(unacknowledged.slice(at, at + 4).map(retried));

    // Every upload, acknowledged before the kill or after the retry, downloads with its SHA-256.
    for (const upload of commands.filter((c) => c.kind === 'upload')) {
      const [file] = upload.answer?.data.files ?? [];
      expect(file, upload.key).toBeDefined();
      const download = await fetch(`${second.url}/api/user/files/${file.id}`, { headers });
      expect(download.status).toBe(200);
      expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(upload.sha256);
    }
    await second.stop();
    server = undefined;

    // ---- the database, counted per key, and the store ----
    await withDatabase(dataDir, async (db) => {
      const contactRows = (await db.query<{ id: string; client_key: string }>('select id, client_key from contact_requests where user_id = $1', [token.localId])).rows;
      const fileRows = (
        await db.query<{ id: string; client_key: string; stored_name: string; sha256: string }>('select id, client_key, stored_name, sha256 from files where user_id = $1', [token.localId])
      ).rows;
      const perKey = (rows: { client_key: string }[]) => rows.reduce((m, r) => m.set(r.client_key, (m.get(r.client_key) ?? 0) + 1), new Map<string, number>());
      const contactKeys = perKey(contactRows);
      const fileKeys = perKey(fileRows);
      const contacts = commands.filter((c) => c.kind === 'contact');
      const uploads = commands.filter((c) => c.kind === 'upload');
      // Present, and once: one row per key, and nothing else.
      expect(contactRows).toHaveLength(contacts.length);
      expect(contacts.filter((c) => contactKeys.get(c.key) !== 1).map((c) => c.key)).toEqual([]);
      expect(fileRows).toHaveLength(uploads.length);
      expect(uploads.filter((c) => fileKeys.get(c.key) !== 1).map((c) => c.key)).toEqual([]);
      // Every acknowledged answer names the row stored under its key.
      const contactIds = new Set(contactRows.map((r) => r.id));
      expect(acknowledged.filter((c) => c.kind === 'contact' && !contactIds.has(c.answer?.data.id ?? '')).map((c) => c.key)).toEqual([]);
      const fileIds = new Set(fileRows.map((r) => r.id));
      expect(acknowledged.filter((c) => c.kind === 'upload' && !fileIds.has(c.answer?.data.files?.[0]?.id ?? '')).map((c) => c.key)).toEqual([]);
      // No stored file without a row, and no cut-off temporary file.
      const allNamed = (await db.query<{ stored_name: string }>('select stored_name from files')).rows.map((r) => r.stored_name).sort();
      expect(readdirSync(path.join(dataDir, 'files')).sort()).toEqual(allNamed);
    });
    console.log(
      `[kill -9] ${acknowledged.length} of ${commands.length} commands acknowledged before the kill (${inFlightAtKill.total} on the wire, ${inFlightAtKill.uploads} of them uploads); ` +
        `${leftover} stored file(s) without a row left by the kill; ${unacknowledged.length} retried after the restart; none lost, none twice`,
    );
  }, 240_000);
});
