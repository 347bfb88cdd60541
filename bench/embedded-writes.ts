// `node_modules/.bin/node bench/embedded-writes.ts`: what durable commits cost the embedded database
// (docs/decisions/021-embedded-durability.md). On PGlite on disk, in a fresh directory next to the
// project's data/ (same file system as the stack's DATA_DIR; BENCH_DIR to choose another), two layers:
//  - commits: single-row INSERTs one after the other, on PGlite as it opens by default (fsync off, what
//    the server ran before) and with the server's durable options (fsync on, one WAL fsync per commit);
//  - writes: POST /api/contact through the built app (app.inject), one after the other and 8 at a time,
//    with the same two databases under the real routes (token check stubbed, so the figure is the route
//    and the database, not the Auth emulator).
// BENCH_WRITES (400) per case after 40 to warm up; prints the machine, writes per second and ms per write,
// the fsync calls per commit or write and the mean time one took. Asserts nothing.
import { randomUUID } from 'node:crypto';
import fs, { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { buildApp } from '../server/app.ts';
import type { Services } from '../server/compose.ts';
import { openServices } from '../server/compose.ts';
import { openDatabase } from '../server/db/client.ts';
import { durablePgliteOptions } from '../server/db/durable-pglite.ts';
import { createEvents } from '../server/platform/events.ts';
import type { IdentityProvider } from '../server/auth/firebase.ts';
import { createDiskStorage } from '../server/files/storage.ts';
import { testConfig } from '../server/test-helper.ts';

const N = Number(process.env.BENCH_WRITES ?? 400);
const WARM = 40;
const root = path.resolve(process.env.BENCH_DIR ?? path.join(import.meta.dirname, '..', 'data'));
mkdirSync(root, { recursive: true });

// Counts fsync(2) calls made through node:fs (the durable file system's hook uses fsyncSync).
let fsyncs = 0;
let fsyncMs = 0;
const realFsync = fs.fsyncSync;
fs.fsyncSync = (fd) => {
  fsyncs++;
  const t = performance.now();
  realFsync(fd);
  fsyncMs += performance.now() - t;
};
/** fsync calls per operation and the mean time one took, since `from`. */
function syncs(from: { n: number; ms: number }, ops: number): string {
  const n = fsyncs - from.n;
  return `fsync ${(n / ops).toFixed(2)} each${n ? `, ${((fsyncMs - from.ms) / n).toFixed(2)} ms mean` : ''}`;
}
const mark = () => ({ n: fsyncs, ms: fsyncMs });
syncBuiltinESMExports();

function device(dir: string): string {
  const mounts = fs.readFileSync('/proc/mounts', 'utf8').split('\n').map((line) => line.split(' '));
  const found = mounts.filter((m) => m[1] && (dir === m[1] || dir.startsWith(m[1].endsWith('/') ? m[1] : `${m[1]}/`))).sort((a, b) => b[1].length - a[1].length)[0];
  return found ? `${found[0]} (${found[2]}) mounted on ${found[1]}` : 'unknown';
}

const rate = (n: number, ms: number) => `${((n / ms) * 1000).toFixed(0).padStart(6)} /s  ${(ms / n).toFixed(2).padStart(6)} ms each`;

async function commits(label: string, open: (dir: string) => PGlite) {
  const dir = mkdtempSync(path.join(root, 'bench-commits-'));
  const pg = open(dir);
  await pg.waitReady;
  await pg.exec('CREATE TABLE t (id serial PRIMARY KEY, v text NOT NULL)');
  for (let i = 0; i < WARM; i++) await pg.query('INSERT INTO t (v) VALUES ($1)', [`warm ${i}`]);
  const before = mark();
  const t = performance.now();
  for (let i = 0; i < N; i++) await pg.query('INSERT INTO t (v) VALUES ($1)', [`row ${i}`]);
  const ms = performance.now() - t;
  const synced = syncs(before, N);
  await pg.close();
  rmSync(dir, { recursive: true, force: true });
  console.log(`commits  ${label.padEnd(48)} ${rate(N, ms)}   ${synced}`);
}

const TOKEN = 'bench-token';
/** The one sign-in every stub token belongs to: one session, as one device signed in once. */
const SIGNED_IN_AT = Math.floor(Date.now() / 1000);

function stubIdentity(): IdentityProvider {
  const refuse = async (): Promise<never> => {
    throw new Error('not used by the bench');
  };
  return {
    async verifyIdToken(token) {
      if (token !== TOKEN) throw new Error('bad token');
      const now = Math.floor(Date.now() / 1000);
      return { uid: 'bench-writer', email: 'writer@bench.example', issuedAt: now, expiresAt: now + 3600, authTime: SIGNED_IN_AT };
    },
    createUser: refuse,
    userExists: refuse,
    deleteUser: refuse,
    setDisabled: refuse,
    ensureUser: refuse,
    sendPasswordSetupEmail: refuse,
    close: async () => undefined,
  };
}

/** The server's services as they were before durable commits: PGlite's own defaults under DATA_DIR. */
async function servicesOnDefaultPglite(dataDir: string): Promise<Services> {
  const config = testConfig(dataDir);
  const database = await openDatabase({ pgliteDir: config.pgliteDir, pgliteFsync: false });
  const db = database.db;
  const events = await createEvents(database);
  const identity = stubIdentity();
  return {
    config,
    database,
    db,
    identity,
    events,
    storage: createDiskStorage(config.filesDir, config.UPLOAD_MAX_BYTES),
    async close() {
      await events.close();
      await database.close();
    },
  };
}

async function writes(label: string, open: (dataDir: string) => Promise<Services>) {
  const dataDir = mkdtempSync(path.join(root, 'bench-writes-'));
  const services = await open(dataDir);
  const app = await buildApp(services, {});
  await app.ready();
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const me = await app.inject({ method: 'GET', url: '/api/user', headers });
  if (me.statusCode !== 200) throw new Error(`profile: ${me.statusCode} ${me.body}`);
  let i = 0;
  const write = async () => {
    const n = i++;
    const res = await app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { ...headers, 'idempotency-key': randomUUID() },
      payload: { contactRequest: { subject: `bench ${n}`, message: `write ${n}` } },
    });
    if (res.statusCode !== 201) throw new Error(`write: ${res.statusCode} ${res.body}`);
  };
  for (let w = 0; w < WARM; w++) await write();
  for (const parallel of [1, 8]) {
    const before = mark();
    const t = performance.now();
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        for (let w = 0; w < N / parallel; w++) await write();
      }),
    );
    const ms = performance.now() - t;
    console.log(`writes   ${`${label}, ${parallel} at a time`.padEnd(48)} ${rate(N, ms)}   ${syncs(before, N)}`);
  }
  await app.close();
  await services.close();
  rmSync(dataDir, { recursive: true, force: true });
}

const cpu = cpus()[0]?.model ?? 'unknown CPU';
console.log(`${new Date().toISOString()}  node ${process.version}  ${cpu}, ${availableParallelism()} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GB`);
console.log(`directory ${root} on ${device(root)}`);
console.log(`load average before: ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${N} per case after ${WARM} to warm up\n`);

await commits('PGlite defaults (fsync off)', (dir) => new PGlite(dir));
await commits('durable (fsync on)', (dir) => new PGlite(durablePgliteOptions(dir)));
await writes('PGlite defaults (fsync off)', servicesOnDefaultPglite);
await writes('durable (server as shipped)', (dataDir) => openServices(testConfig(dataDir), { identity: stubIdentity() }));

console.log(`\nload average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
