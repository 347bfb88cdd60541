// `node bench/sync.ts`: an authenticated pull with nothing new (GET /api/sync?cursor=<latest>) under load,
// next to the bare GET /api/health in the same run, with autocannon against a running `npm start` stack
// (its own ports and data directory, as the other benches). Prints requests per second, p50 and p99 of
// each and the ratio, on PGlite and then on PostgreSQL (a throwaway server; skipped with a note when none
// can be started). Asserts nothing about speed.
//
// The pull is the cost of an authenticated request with nothing to send: token check, role lookup, the
// one "anything above my cursor?" query, serialization. BENCH_SECONDS (10) and BENCH_CONNECTIONS (50)
// change the load; BENCH_BACKENDS=pglite or =postgres runs only one.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { SyncPage } from '../domain/sync.ts';
import { ROOT } from '../scripts/emulator.ts';
import { startStackProcess } from '../scripts/stack-process.ts';
import { startThrowawayPostgres } from '../tests/support/postgres.ts';

export interface SyncBenchOptions {
  seconds: number;
  connections: number;
  backends: string[];
  /** The stack's ports (API, Auth emulator): the report runs each bench on its own. */
  port: number;
  authPort: number;
}

export const SYNC_BENCH_DEFAULTS: SyncBenchOptions = {
  seconds: Number(process.env.BENCH_SECONDS ?? 10),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  backends: (process.env.BENCH_BACKENDS ?? 'pglite,postgres').split(','),
  port: Number(process.env.BENCH_PORT ?? 8483),
  authPort: Number(process.env.BENCH_AUTH_PORT ?? 9483),
};

interface Figures {
  health: Result;
  sync: Result;
}

/** One backend's figures: both routes' results, the ratio of throughputs and the load average after the run. */
export interface SyncBackendFigures extends Figures {
  backend: string;
  ratio: number;
  loadavg: number;
}

/** Each asked backend measured in turn; a backend that cannot start (no PostgreSQL installed) is skipped with its reason. */
export async function benchSync(opts: Partial<SyncBenchOptions> = {}): Promise<{ results: SyncBackendFigures[]; skipped: { backend: string; reason: string }[] }> {
  const o = { ...SYNC_BENCH_DEFAULTS, ...opts };
  const results: SyncBackendFigures[] = [];
  const skipped: { backend: string; reason: string }[] = [];
  const done = (backend: string, f: Figures) => results.push({ backend, ...f, ratio: f.sync.requests.average / f.health.requests.average, loadavg: loadavg()[0] });
  if (o.backends.includes('pglite')) done('pglite', await measure(o, 'pglite', {}));
  if (o.backends.includes('postgres')) {
    const pg = await startThrowawayPostgres();
    if (!('url' in pg)) skipped.push({ backend: 'postgres', reason: pg.skipReason });
    else {
      try {
        done('postgres', await measure(o, 'postgres', { DATABASE_URL: pg.url }));
      } finally {
        await pg.stop();
      }
    }
  }
  return { results, skipped };
}

/** One stack on one database: sign in as the demo client, find the latest cursor, measure both routes. */
async function measure(o: SyncBenchOptions, backend: string, env: NodeJS.ProcessEnv): Promise<Figures> {
  // Neither route serves the PWA: a stand-in page instead of dist/ spares the stack a `vite build`.
  const staticDir = mkdtempSync(join(tmpdir(), 'bench-sync-static-'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><meta name="portal-config" content="{}" /><title>bench</title>');
  const stack = await startStackProcess({
    port: o.port,
    authPort: o.authPort,
    logPath: join(ROOT, 'tests', 'output', `bench-sync-${backend}-stack.log`),
    // Request logging as in production (LOG_REQUESTS=errors is its default; the dev stack logs every request),
    // for both routes alike. BENCH_LOG_REQUESTS=all measures the development setting.
    env: { STATIC_DIR: staticDir, LOG_REQUESTS: process.env.BENCH_LOG_REQUESTS ?? 'errors', ...env },
    label: `bench ${backend}`,
  });
  try {
    const { idToken } = await fetch(`http://${stack.authHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=bench`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'client@demo.test', password: 'Client#2026', returnSecureToken: true }),
    }).then((r) => r.json() as Promise<{ idToken: string }>);
    const headers = { authorization: `Bearer ${idToken}` };
    const cursor = await latestCursor(stack.baseUrl, headers);
    const syncPath = `/api/sync?cursor=${cursor}`;

    const run = (path: string, extra: Record<string, string> = {}) =>
      autocannon({ url: `${stack.baseUrl}${path}`, connections: o.connections, duration: o.seconds, headers: extra });
    // Warm up both paths (JIT, connection pools, caches), then measure.
    await run('/api/health');
    await run(syncPath, headers);
    const health = await run('/api/health');
    const sync = await run(syncPath, headers);
    if (sync['2xx'] !== sync.requests.total) console.warn(`[bench ${backend}] ${sync.requests.total - sync['2xx']} pulls did not answer 2xx`);
    return { health, sync };
  } finally {
    await stack.stop();
    rmSync(staticDir, { recursive: true, force: true });
  }
}

/** Pulls the client's whole feed once, so the measured pulls find nothing new above the cursor. */
async function latestCursor(baseUrl: string, headers: Record<string, string>): Promise<string> {
  let cursor = '0';
  for (;;) {
    const res = await fetch(`${baseUrl}/api/sync?cursor=${cursor}`, { headers });
    if (!res.ok) throw new Error(`pull failed: ${res.status} ${await res.text()}`);
    const page = SyncPage.parse(((await res.json()) as { data: unknown }).data);
    cursor = page.cursor;
    if (!page.hasMore) return cursor;
  }
}

function report({ backend, health, sync, ratio, loadavg: load }: SyncBackendFigures, o: SyncBenchOptions) {
  const row = (name: string, r: Result) =>
    `  ${name.padEnd(34)} ${String(Math.round(r.requests.average)).padStart(7)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   ` +
    `(${r.requests.total} requests, non-2xx ${r.non2xx}, errors ${r.errors})`;
  console.log(`\n${backend}: ${o.connections} connections, ${o.seconds} s each, load average ${load.toFixed(2)}`);
  console.log(row('GET /api/health', health));
  console.log(row('GET /api/sync?cursor=<latest>', sync));
  console.log(`  sync / health: ratio ${ratio.toFixed(2)} of its throughput, p99 ${sync.latency.p99} ms vs ${health.latency.p99} ms`);
}

if (import.meta.main) {
  console.log(`sync vs health bench: ${availableParallelism()} CPUs, load average ${loadavg()[0].toFixed(2)}`);
  const { results, skipped } = await benchSync();
  for (const r of results) report(r, SYNC_BENCH_DEFAULTS);
  for (const s of skipped) console.log(`\n${s.backend}: skipped (${s.reason})`);
}
