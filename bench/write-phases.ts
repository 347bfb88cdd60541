// `node scripts/with-emulator.ts node bench/write-phases.ts`: where one direct write's time goes on the server, in
// process: PROBE_WRITES (300, after 30 to warm up) sequential POST /api/contact of an account awaiting approval through
// app.inject, against the Auth emulator and PGlite on disk as the stack runs it (PROBE_BACKEND=pglite), in memory
// (memory) or the throwaway PostgreSQL (postgres). The identity provider's call and each statement are timed at the
// driver (PGlite's query and transaction, node-postgres' Client.query) and summed per write by kind.
// Prints milliseconds per write and the load; asserts nothing. docs/decisions/018.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { buildApp } from '../server/app.ts';
import { openServices } from '../server/compose.ts';
import { freshPostgresUrl, signUp, testConfig } from '../server/test-helper.ts';

const N = Number(process.env.PROBE_WRITES ?? 300);
const backend = process.env.PROBE_BACKEND ?? 'pglite';
type Ev = { what: string; ms: number };
let current: Ev[] | null = null;
const now = () => performance.now();
async function timed<T>(what: string, fn: () => Promise<T>): Promise<T> {
  const rec = current;
  const t = now();
  try {
    return await fn();
  } finally {
    rec?.push({ what, ms: now() - t });
  }
}
const label = (text: string) => {
  const t = text.replace(/\s+/g, ' ').trim();
  if (/^select .*"role|^select "uid", "email", "is_admin"/i.test(t)) return 'sql: role lookup';
  if (/rate_counters/.test(t)) return 'sql: rate counters upsert';
  if (/^insert into "idempotency_keys"/i.test(t)) return 'sql: claim';
  if (/^update "idempotency_keys"/i.test(t)) return 'sql: settle';
  if (/^select .* from "contact_requests"/i.test(t)) return 'sql: client-key lookup';
  if (/^insert into "contact_requests"/i.test(t)) return 'sql: insert row';
  if (/pg_notify/.test(t)) return 'sql: poke';
  return `sql: ${t.slice(0, 30)}`;
};

// Statement timing at the driver.
const origQuery = PGlite.prototype.query;
PGlite.prototype.query = function (this: PGlite, q: string, ...rest: unknown[]) {
  return timed(label(q), () => (origQuery as (...a: unknown[]) => Promise<unknown>).call(this, q, ...rest)) as never;
} as never;
const origTx = PGlite.prototype.transaction;
PGlite.prototype.transaction = function (this: PGlite, cb: (tx: { query: (...a: unknown[]) => Promise<unknown> }) => Promise<unknown>) {
  return timed('transaction (whole)', () =>
    origTx.call(this, ((tx: never) => {
      const t = tx as { query: (...a: unknown[]) => Promise<unknown> };
      const q = t.query.bind(t);
      t.query = (text: unknown, ...rest: unknown[]) => timed(label(String(text)), () => q(text, ...rest));
      return cb(t);
    }) as never),
  ) as never;
} as never;
const origPg = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0] as string | { text: string };
  const text = typeof first === 'string' ? first : first?.text ?? '';
  const r = (origPg as (...a: unknown[]) => unknown).apply(this, args);
  if (r && typeof (r as Promise<unknown>).then === 'function') {
    const what = /^(begin|commit|rollback)/i.test(text) ? `sql: ${text.toUpperCase()}` : label(text);
    return timed(what, () => r as Promise<unknown>);
  }
  return r;
} as never;

const dataDir = mkdtempSync(path.join(tmpdir(), 'write-probe-'));
const config = testConfig(dataDir);
const services = await openServices(config, backend === 'postgres' ? { database: { url: await freshPostgresUrl() } } : backend === 'memory' ? { database: 'memory' } : {});
const verify = services.identity.verifyIdToken.bind(services.identity);
services.identity.verifyIdToken = (t) => timed('provider verifyIdToken(checkRevoked)', () => verify(t));
const app = await buildApp(services, {});
await app.ready();
const token = await signUp(process.env.FIREBASE_AUTH_EMULATOR_HOST!, `probe-${Date.now()}@x.example`, 'Secret#123');
const headers = { authorization: `Bearer ${token.idToken}`, 'content-type': 'application/json' };
await app.inject({ method: 'GET', url: '/api/user', headers });
const totals = new Map<string, { ms: number; n: number }>();
let whole = 0;
const WARM = 30;
for (let i = 0; i < N + WARM; i++) {
  const rec: Ev[] = [];
  current = rec;
  const t = now();
  const res = await app.inject({ method: 'POST', url: '/api/contact', headers: { ...headers, 'idempotency-key': randomUUID() }, payload: { contactRequest: { subject: `p-${i}`, message: `probe ${i}` } } });
  const d = now() - t;
  current = null;
  if (res.statusCode !== 201) throw new Error(res.body);
  if (i < WARM) continue;
  whole += d;
  for (const e of rec) {
    const s = totals.get(e.what) ?? { ms: 0, n: 0 };
    s.ms += e.ms;
    s.n++;
    totals.set(e.what, s);
  }
}
const { loadavg } = await import('node:os');
console.log(`backend=${backend} writes=${N} per write ${(whole / N).toFixed(2)} ms (load ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
for (const [what, s] of [...totals].sort((a, b) => b[1].ms - a[1].ms)) console.log(`  ${what.padEnd(44)} ${(s.ms / N).toFixed(2)} ms/write  (${(s.n / N).toFixed(1)}×)`);
await app.close();
await services.close();
rmSync(dataDir, { recursive: true, force: true });
