// `node bench/staff-queue.ts`: the staff queue (GET /api/staff/queue) at 5,000 users and 50,000
// requests, on an in-memory PGlite and on PostgreSQL (TEST_DATABASE_URL when set, as
// `node scripts/with-emulator.ts node bench/staff-queue.ts` does; otherwise a throwaway server it starts
// itself, skipped with a note when PostgreSQL is not installed). Both run the real migrations.
//
// Requests go through the built app (buildApp + app.inject) with a staff user's token, so each one
// pays the real role lookup; the token check itself is a stub that accepts one token, so the figures
// are the route and the database, not the Auth emulator's round trip.
// Prints p50/p95 per case and the seeding time; asserts nothing about speed.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { requestStatuses } from '../domain/enums.ts';
import { centsFromDollars } from '../domain/money.ts';
import { queueTabs } from '../domain/queue-tabs.ts';
import { tools } from '../domain/tools.ts';
import { buildApp } from '../server/app.ts';
import { openServices } from '../server/compose.ts';
import type { Database } from '../server/db/client.ts';
import { productRequests, sessions, users } from '../server/db/schema.ts';
import type { IdentityProvider } from '../server/auth/firebase.ts';
import { freshPostgresUrl, testConfig } from '../server/test-helper.ts';
import { startThrowawayPostgres } from '../tests/support/postgres.ts';

const USERS = Number(process.env.BENCH_USERS ?? 5_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 50_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARM_UP = 20;
const BATCH = 1_000;
const STAFF_TOKEN = 'bench-staff-token';
const STAFF_UID = 'bench-staff';

const firstNames = ['Ada', 'Alan', 'Grace', 'Linus', 'Margaret', 'Dennis', 'Barbara', 'Ken', 'Frances', 'Edsger', 'Radia', 'Tim', 'Karen', 'Donald', 'Hedy', 'John', 'Katherine', 'Niklaus', 'Sophie', 'Yukihiro'];
const lastNames = ['Lovelace', 'Turing', 'Hopper', 'Torvalds', 'Hamilton', 'Ritchie', 'Liskov', 'Thompson', 'Allen', 'Dijkstra', 'Perlman', 'Berners-Lee', 'Jones', 'Knuth', 'Lamarr', 'McCarthy', 'Johnson', 'Wirth', 'Wilson', 'Matsumoto'];

/** Same data on every run and backend: a small linear congruential generator instead of Math.random. */
function seededRandom(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function userRow(i: number) {
  const first = firstNames[i % firstNames.length];
  const last = lastNames[Math.floor(i / firstNames.length) % lastNames.length];
  const email = `${first}.${last}${i}@mail.example`.toLowerCase();
  // One in ten is a lead still waiting for approval; the rest are clients.
  return { uid: `bench-user-${i}`, email, firstName: first, lastName: last, isClient: i % 10 !== 0, createdAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString() };
}

async function insertBatches<Row>(rows: Row[], insert: (batch: Row[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += BATCH) await insert(rows.slice(i, i + BATCH));
}

/** 5,000 users and 50,000 requests spread over the five statuses and the last year, then fresh planner statistics. */
async function seed(database: Database): Promise<number> {
  const started = performance.now();
  const random = seededRandom(42);
  const year = 365 * 24 * 60 * 60 * 1000;
  const userRows = Array.from({ length: USERS }, (_, i) => userRow(i));
  const requestRows = Array.from({ length: REQUESTS }, (_, i): typeof productRequests.$inferInsert => {
    const tool = tools[i % tools.length];
    const status = requestStatuses[Math.floor(random() * requestStatuses.length)];
    const priced = status !== 'Pending' && status !== 'Rejected';
    return {
      userId: userRows[Math.floor(random() * USERS)].uid,
      toolId: tool.id,
      productRequestType: tool.ToolNameBackend,
      status,
      totalCents: priced ? centsFromDollars(500) : null,
      paidCents: centsFromDollars(status === 'Done' ? 500 : 0),
      createdAt: new Date(Date.UTC(2025, 0, 1) + Math.floor(random() * year)).toISOString(),
    };
  });
  // An admin, so the team list can serve as the baseline.
  await database.db.insert(users).values({ uid: STAFF_UID, email: 'staff@bench.example', isStaff: true, isAdmin: true });
  // The staff member's one session, with its second factor verified, as after the passkey screen.
  await database.db.insert(sessions).values({ uid: STAFF_UID, authTime: SIGNED_IN_AT, browser: 'Bench', os: 'Bench', secondFactorAt: sql`now() + interval '1 day'` });
  await insertBatches(userRows, (batch) => database.db.insert(users).values(batch));
  await insertBatches(requestRows, (batch) => database.db.insert(productRequests).values(batch));
  // Autovacuum would do this in production; here the tables are minutes old.
  await database.db.execute(sql`VACUUM ANALYZE`);
  return performance.now() - started;
}

/** Accepts one token, for the staff user; everything else about auth (the role lookup) is the real code. */
/** The one sign-in every stub token belongs to: one session, as one device signed in once. */
const SIGNED_IN_AT = Math.floor(Date.now() / 1000);

function stubIdentity(): IdentityProvider {
  const refuse = async (): Promise<never> => {
    throw new Error('not used by the bench');
  };
  return {
    async verifyIdToken(token) {
      if (token !== STAFF_TOKEN) throw new Error('bad token');
      const now = Math.floor(Date.now() / 1000);
      return { uid: STAFF_UID, email: 'staff@bench.example', issuedAt: now, expiresAt: now + 3600, authTime: SIGNED_IN_AT };
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

interface Case {
  name: string;
  url: string;
}

async function cases(app: FastifyInstance): Promise<Case[]> {
  // The floor every case stands on: token stub, role lookup, a one-row query, serialization.
  const list: Case[] = [{ name: 'baseline: GET /api/staff/team (1 row)', url: '/api/staff/team' }];
  list.push(...queueTabs.map((tab) => ({ name: `first page, ${tab}`, url: `/api/staff/queue?tab=${tab}` })));
  // A deep page: the cursor after 5,000 pending rows costs what the first page costs (no OFFSET).
  let cursor = '';
  for (let i = 0; i < 25; i++) cursor = (await getData(app, `/api/staff/queue?tab=pending&limit=200${cursor ? `&cursor=${cursor}` : ''}`)).nextCursor ?? '';
  list.push({ name: 'page after 5,000 rows, pending', url: `/api/staff/queue?tab=pending&cursor=${cursor}` });
  const someone = userRow(1234);
  list.push({ name: `search email "${someone.email.split('@')[0]}", pending`, url: `/api/staff/queue?tab=pending&q=${encodeURIComponent(someone.email.split('@')[0])}` });
  list.push({ name: 'search email "hopper", pending', url: '/api/staff/queue?tab=pending&q=hopper' });
  list.push({ name: 'search name "Ada Lovelace", pending', url: `/api/staff/queue?tab=pending&q=${encodeURIComponent('Ada Lovelace')}` });
  list.push({ name: 'search name "Radia", leads', url: '/api/staff/queue?tab=leads&q=Radia' });
  return list;
}

async function getData(app: FastifyInstance, url: string): Promise<{ nextCursor: string | null; items: unknown[] }> {
  const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${STAFF_TOKEN}` } });
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  const data = res.json().data;
  return Array.isArray(data) ? { nextCursor: null, items: data } : data;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];
}

async function measure(app: FastifyInstance, item: Case) {
  for (let i = 0; i < WARM_UP; i++) await getData(app, item.url);
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    rows = (await getData(app, item.url)).items.length;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), rows };
}

async function runBackend(label: string, url: string | undefined) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-staff-'));
  const services = await openServices(testConfig(dataDir), { database: url ? { url } : 'memory', identity: stubIdentity() });
  try {
    const seedMs = await seed(services.database);
    console.log(`\n${label}: seeded ${USERS.toLocaleString('en')} users + ${REQUESTS.toLocaleString('en')} requests in ${(seedMs / 1000).toFixed(1)} s`);
    const app = await buildApp(services);
    await app.ready();
    console.log(`${'case'.padEnd(44)} ${'rows'.padStart(5)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}`);
    for (const item of await cases(app)) {
      const { p50, p95, rows } = await measure(app, item);
      console.log(`${item.name.padEnd(44)} ${String(rows).padStart(5)} ${p50.toFixed(2).padStart(8)} ${p95.toFixed(2).padStart(8)}`);
    }
    await app.close();
  } finally {
    await services.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** PostgreSQL: a fresh database on TEST_DATABASE_URL's server, or a throwaway server of our own. */
async function withPostgres(run: (url: string) => Promise<void>) {
  if (process.env.TEST_DATABASE_URL) return run(await freshPostgresUrl());
  const started = await startThrowawayPostgres();
  if (!('url' in started)) {
    console.log(`\npostgres: skipped (${started.skipReason})`);
    return;
  }
  try {
    await run(started.url);
  } finally {
    await started.stop();
  }
}

// The machine's load skews every figure: printed so a reader can tell a quiet run from a busy one.
console.log(`staff queue bench: ${RUNS} runs per case after ${WARM_UP} warm-up runs, 50 rows a page; ${availableParallelism()} CPUs, load average ${loadavg()[0].toFixed(1)}`);
await runBackend('pglite (in memory)', undefined);
await withPostgres((url) => runBackend('postgres', url));
