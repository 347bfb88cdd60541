// `node bench/push.ts`: how fast pushes leave, against a running `npm start` stack on a throwaway PostgreSQL
// (its own ports and data directory; the bench writes the crowd straight into the database). Prints the machine,
//   (a) commit-to-push latency: 500 single notifications to one subscribed client, each timed from the API's
//       answer (the commit) to the local push receiver having it decrypted; p50 / p95 / max;
//   (b) fan-out: one general notification to BENCH_PUSH_USERS (20,000) users with a push subscription each: the time
//       until the receiver has every push, pushes per second, and GET /api/sync's p99 under autocannon during the
//       fan-out against the same load without it (the fan-out must not starve normal requests).
// Asserts nothing about speed. Email is off in this stack: it measures the push path alone.
import { cpus, availableParallelism, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Secret, TOTP } from 'otpauth';
import pg from 'pg';
import { SyncPage } from '../domain/sync.ts';
import { ROOT } from '../scripts/emulator.ts';
import { startStackProcess, type StackProcess } from '../scripts/stack-process.ts';
import { startThrowawayPostgres } from '../tests/support/postgres.ts';
import { type PushReceiver, startPushReceiver } from '../server/notify/test-support/push-receiver.ts';
import { DEMO_TOTP_SECRETS } from '../server/seed/seed-data.ts';

export interface PushBenchOptions {
  port: number;
  authPort: number;
  singles: number;
  users: number;
  connections: number;
}

export const PUSH_BENCH_DEFAULTS: PushBenchOptions = {
  port: Number(process.env.BENCH_PORT ?? 8485),
  authPort: Number(process.env.BENCH_AUTH_PORT ?? 9485),
  singles: Number(process.env.BENCH_PUSH_SINGLES ?? 500),
  users: Number(process.env.BENCH_PUSH_USERS ?? 20_000),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 20),
};

export interface PushFigures {
  latency: { p50: number; p95: number; max: number; n: number };
  fanout: { users: number; ms: number; perSecond: number; syncP99: number; syncP99Alone: number; syncRps: number; syncRpsAlone: number };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function signIn(stack: StackProcess, email: string, password: string): Promise<Record<string, string>> {
  const res = await fetch(`http://${stack.authHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=bench`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  const { idToken } = (await res.json()) as { idToken: string };
  return { authorization: `Bearer ${idToken}`, 'content-type': 'application/json' };
}

async function api(stack: StackProcess, headers: Record<string, string>, method: string, path: string, body?: unknown) {
  const res = await fetch(`${stack.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: unknown }).data;
}

/** Waits until the receiver holds `n` pushes with a decrypted payload; returns when it did. */
async function received(receiver: PushReceiver, n: number, timeoutMs: number): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`only ${receiver.received.length} of ${n} pushes arrived within ${timeoutMs} ms`)), timeoutMs);
  });
  await Promise.race([receiver.waitFor(n), late]);
  clearTimeout(timer);
  return performance.now();
}

export async function benchPush(opts: Partial<PushBenchOptions> = {}): Promise<PushFigures> {
  const o = { ...PUSH_BENCH_DEFAULTS, ...opts };
  const database = await startThrowawayPostgres();
  if (!('url' in database)) throw new Error(`no PostgreSQL: ${database.skipReason}`);
  const stack = await startStackProcess({
    port: o.port,
    authPort: o.authPort,
    logPath: join(ROOT, 'tests', 'output', 'bench-push-stack.log'),
    env: { DATABASE_URL: database.url, EMAIL: 'off', LOG_REQUESTS: 'errors' },
    label: 'bench push',
  });
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  let receiver: PushReceiver | undefined;
  try {
    const { publicKey } = (await api(stack, {}, 'GET', '/api/push/public-key')) as { publicKey: string };
    receiver = await startPushReceiver({ vapidPublicKey: publicKey });
    const admin = await signIn(stack, 'admin@demo.test', 'Admin#2026');
    // Admin routes need the session's second factor: the demo admin's seeded authenticator code.
    const code = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(DEMO_TOTP_SECRETS.admin) }).generate();
    await api(stack, admin, 'POST', '/api/security/verify', { method: 'totp', code });
    const dana = await signIn(stack, 'client@demo.test', 'Client#2026');
    const { uid } = (await api(stack, dana, 'GET', '/api/user')) as { uid: string };
    await api(stack, dana, 'POST', '/api/push/subscriptions', receiver.subscribe());

    // (a) one event at a time: commit (the API's answer) → decrypted at the receiver.
    const latencies: number[] = [];
    for (let i = 0; i < o.singles; i++) {
      const before = receiver.received.length;
      await api(stack, admin, 'POST', `/api/notification/${uid}`, { notification: { message: `Update ${i}` } });
      const committed = performance.now();
      latencies.push((await received(receiver, before + 1, 30_000)) - committed);
    }
    latencies.sort((a, b) => a - b);

    // (b) the crowd, written straight into the database: users (their preferences and read markers come from the
    // triggers) and one subscription each, with keys the receiver can decrypt for.
    const devices = Array.from({ length: o.users }, () => receiver!.subscribe());
    for (let from = 0; from < o.users; from += 1000) {
      const page = devices.slice(from, from + 1000);
      const values = page.map((_, i) => `('bench-${from + i}', 'bench-${from + i}@bench.test', true)`).join(',');
      await client.query(`INSERT INTO users (uid, email, is_client) VALUES ${values}`);
      const params = page.flatMap((d, i) => [`bench-${from + i}`, d.endpoint, d.keys.p256dh, d.keys.auth]);
      const rows = page.map((_, i) => `($${i * 4 + 1}, $${i * 4 + 2}, $${i * 4 + 3}, $${i * 4 + 4})`).join(',');
      await client.query(`INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES ${rows}`, params);
    }
    const cursor = await latestCursor(stack.baseUrl, dana);
    const sync = () => autocannon({ url: `${stack.baseUrl}/api/sync?cursor=${cursor}`, connections: o.connections, duration: 8, headers: dana });
    await sync();
    const alone = await sync();

    const before = receiver.received.length;
    const started = performance.now();
    await api(stack, admin, 'POST', '/api/notification', { notification: { message: 'New office hours' } });
    // The pull is measured while the fan-out runs (the first seconds of it, when it sends the most).
    const load = sync();
    const done = await received(receiver, before + o.users + 1, 15 * 60_000);
    const during = await load;
    const ms = done - started;
    return {
      latency: { p50: quantile(latencies, 0.5), p95: quantile(latencies, 0.95), max: latencies.at(-1)!, n: latencies.length },
      fanout: { users: o.users, ms, perSecond: (o.users / ms) * 1000, syncP99: during.latency.p99, syncP99Alone: alone.latency.p99, syncRps: during.requests.average, syncRpsAlone: alone.requests.average },
    };
  } finally {
    await receiver?.close();
    await client.end();
    await stack.stop();
    await database.stop();
  }
}

async function latestCursor(baseUrl: string, headers: Record<string, string>): Promise<string> {
  let cursor = '0';
  for (;;) {
    const res = await fetch(`${baseUrl}/api/sync?cursor=${cursor}`, { headers });
    const page = SyncPage.parse(((await res.json()) as { data: unknown }).data);
    cursor = page.cursor;
    if (!page.hasMore) return cursor;
  }
}

export function machineLine(): string {
  return `${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown CPU'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;
}

if (import.meta.main) {
  console.log(`push bench: ${machineLine()}`);
  const f = await benchPush();
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  console.log(`(a) commit → push decrypted, ${f.latency.n} single events: p50 ${ms(f.latency.p50)}, p95 ${ms(f.latency.p95)}, max ${ms(f.latency.max)} (goal p95 ≤ 2 s)`);
  const fo = f.fanout;
  console.log(`(b) general notification to ${fo.users.toLocaleString('en')} subscribed users: every push in ${(fo.ms / 1000).toFixed(1)} s, ${fo.perSecond.toFixed(0)} pushes/s`);
  console.log(`    GET /api/sync during the fan-out: p99 ${fo.syncP99} ms, ${fo.syncRps.toFixed(0)} req/s; without it: p99 ${fo.syncP99Alone} ms, ${fo.syncRpsAlone.toFixed(0)} req/s`);
  console.log(`done: ${machineLine()}`);
}
