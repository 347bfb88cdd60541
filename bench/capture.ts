// `node bench/capture.ts`: Track Master's capture route (GET /t/{slug}) under load, next to the bare
// GET /api/health in the same run, with autocannon against a running `npm start` stack (its own ports and
// data directory, as the other benches). Prints requests per second and latency p50/p99 of each, and the
// ratio. Asserts nothing about speed.
//
// The stack trusts loopback as a proxy (TRUST_PROXY=loopback, as the e2e stack does), so every request can
// carry its own public address in X-Forwarded-For. Two capture runs:
//   - one address: the rate limits (server/tracking/rate-limit.ts) record the first 5 and skip the rest,
//     so this is the answer path alone (slug cache, limiter, redirect);
//   - a new address per request: recorded until the link's hourly cap (300), so the first part of the run
//     also writes visits behind the answers; the link's counts at the end say how many were written.
// BENCH_SECONDS (10) and BENCH_CONNECTIONS (10) change the load.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { SyncPage } from '../domain/sync.ts';
import { ROOT } from '../scripts/emulator.ts';
import { startStackProcess } from '../scripts/stack-process.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

// Neither route serves the PWA: a stand-in page instead of dist/ spares the stack a `vite build`.
const staticDir = mkdtempSync(join(tmpdir(), 'bench-capture-static-'));
writeFileSync(join(staticDir, 'index.html'), '<!doctype html><meta name="portal-config" content="{}" /><title>bench</title>');

const stack = await startStackProcess({
  port: 8482,
  authPort: 9482,
  logPath: join(ROOT, 'tests', 'output', 'bench-capture-stack.log'),
  env: { TRUST_PROXY: 'loopback', STATIC_DIR: staticDir },
  label: 'bench',
});

try {
  // The demo client's seeded link on its In Progress Track Master request: its slug is in the client's feed.
  const signIn = await fetch(`http://${stack.authHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=bench`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'client@demo.test', password: 'Client#2026', returnSecureToken: true }),
  }).then((r) => r.json() as Promise<{ idToken: string }>);
  const feed = async () => {
    const res = await fetch(`${stack.baseUrl}/api/sync?cursor=0&limit=500`, { headers: { authorization: `Bearer ${signIn.idToken}` } });
    return SyncPage.parse(((await res.json()) as { data: unknown }).data);
  };
  const links = (await feed()).trackingLinks;
  const link = links.find((l) => !l.disabled);
  if (!link) throw new Error('no seeded tracking link found in the demo client\'s feed');
  const capturePath = `/t/${link.slug}`;

  const run = (path: string, perRequestIp: boolean): Promise<Result> => {
    let n = 0;
    return autocannon({
      url: `${stack.baseUrl}${path}`,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36' },
      requests: [
        {
          method: 'GET',
          path,
          // 102.89.x.y: public addresses (MTN Nigeria) the shipped data locates; one per request, or always the first.
          setupRequest: (req) => ({ ...req, headers: { ...(req.headers ?? {}), 'x-forwarded-for': perRequestIp ? `102.89.${(++n >> 8) & 255}.${n & 255}` : '102.89.0.1' } }),
        },
      ],
    });
  };

  // Warm up both paths (JIT, the slug cache, the IP data load), then measure.
  await run('/api/health', false);
  await run(capturePath, false);
  const before = links.find((l) => l.id === link.id);
  const health = await run('/api/health', false);
  const oneIp = await run(capturePath, false);
  const manyIps = await run(capturePath, true);
  await new Promise((r) => setTimeout(r, 2000)); // the queue drains behind the answers
  const after = (await feed()).trackingLinks.find((l) => l.id === link.id);

  const row = (name: string, r: Result) =>
    `${name.padEnd(40)} ${String(Math.round(r.requests.average)).padStart(8)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   ` +
    `(${r.requests.total} requests, 2xx ${r['2xx']}, 3xx ${r['3xx']}, 4xx ${r['4xx']}, 5xx ${r['5xx']}, errors ${r.errors})`;
  const ratio = (r: Result) => `${((r.requests.average / health.requests.average) * 100).toFixed(0)} % of health's throughput, p99 ×${(r.latency.p99 / Math.max(health.latency.p99, 1)).toFixed(2)}`;
  console.log(`\n${CONNECTIONS} connections, ${SECONDS} s each, load average ${loadavg()[0].toFixed(2)}:`);
  console.log(row('GET /api/health', health));
  console.log(row('GET /t/{slug}, one address', oneIp));
  console.log(row('GET /t/{slug}, an address per request', manyIps));
  console.log(`\ncapture / health: one address ${ratio(oneIp)}; an address per request ${ratio(manyIps)}`);
  console.log(`visits recorded during the runs: ${(after?.visits ?? 0) - (before?.visits ?? 0)} (the rate limits cap the rest; the answers never wait for them)`);
} finally {
  await stack.stop();
  rmSync(staticDir, { recursive: true, force: true });
}
