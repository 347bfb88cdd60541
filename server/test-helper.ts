import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { countDistinct, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { openServices, type Services } from './compose.ts';
import { type Config, loadConfig, newVapidKeys } from './config.ts';
import { fileChunks, sessions, users } from './db/schema.ts';
import type { Storage } from './files/storage.ts';

/**
 * A real app for server tests: the real Firebase Auth emulator (started by scripts/with-emulator.ts),
 * and PGlite in memory, or the throwaway PostgreSQL when `backend` is 'postgres'.
 */
export interface TestApp {
  app: FastifyInstance;
  services: Services;
  close(): Promise<void>;
  /** Creates an emulator account (and so, on first call, a lead profile) and returns a signed-in user. */
  user(opts?: { admin?: boolean; staff?: boolean; client?: boolean; email?: string; password?: string }): Promise<TestUser>;
}

export interface TestUser {
  uid: string;
  email: string;
  token: string;
  headers: { authorization: string };
}

export type Backend = 'pglite' | 'postgres';

export function backends(): Backend[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export function postgresSkipReason(): string | null {
  return process.env.TEST_DATABASE_URL ? null : (process.env.TEST_PG_SKIP_REASON ?? 'TEST_DATABASE_URL not set');
}

/** The Auth emulator's host; server tests run under scripts/with-emulator.ts, which sets it. */
export function emulatorHost(): string {
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  if (!host) throw new Error('Server tests need the Auth emulator: run them with `npm run test:server`.');
  return host;
}

/**
 * Suites write in bursts no person makes (a hundred staff actions a second, one lead through every
 * route), so tests run with the per-user write limits raised out of the way; write-limits.test.ts
 * passes the real ones (server/config.ts) through `env`. The per-address limit of calls without a
 * token is not raised.
 */
export const TEST_WRITE_LIMITS: Record<string, string> = {
  WRITE_LIMIT_PER_MINUTE: '1000000',
  LEAD_WRITE_LIMIT_PER_MINUTE: '1000000',
  LEAD_WRITE_LIMIT_PER_DAY: '1000000',
  LEAD_UPLOAD_FILES_PER_DAY: '1000000',
  LEAD_UPLOAD_MB_PER_DAY: '1000000',
  UPLOADS_IN_FLIGHT_PER_USER: '1000',
};

/** The test environment: files under dataDir, no built PWA, the emulator from the environment. */
export function testConfig(dataDir: string, env: Record<string, string> = {}): Config {
  // Benches run without the emulator (a stub identity): they are then not local, and need a secret and VAPID keys of
  // their own; email is off unless their `env` names an SMTP server (EMAIL, SMTP_URL, PUBLIC_URL, MAIL_FROM).
  const vapid = (keys: { publicKey: string; privateKey: string }) => ({ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey, VAPID_SUBJECT: 'mailto:bench@example.com' });
  const secret = process.env.FIREBASE_AUTH_EMULATOR_HOST ? {} : { DOWNLOAD_SECRET: randomBytes(32).toString('base64url'), ...vapid(newVapidKeys()), EMAIL: 'off' };
  return loadConfig({ ...TEST_WRITE_LIMITS, ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, STATIC_DIR: path.join(dataDir, 'no-build'), ...secret, ...env });
}

/** A test's stand-in for a non-null assertion: the value, or a failure that says what was missing. */
export function defined<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`expected ${what}`);
  return value;
}

export async function createTestApp(
  opts: {
    backend?: Backend;
    maxUploadBytes?: number;
    logStream?: { write(line: string): void };
    env?: Record<string, string>;
    /** A PostgreSQL of the test's own (one it stops and starts) instead of a fresh database on the shared one. */
    databaseUrl?: string;
    /** Puts another store in front of the real one, for the app only (a store that fails like a full disk). */
    storage?: (real: Storage) => Storage;
    /** Changes the loaded config, for what a test cannot reach through the environment alongside the emulator. */
    config?: (config: Config) => Config;
  } = {},
): Promise<TestApp> {
  const emulator = emulatorHost();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-test-'));
  const loaded = testConfig(dataDir, { ...(opts.maxUploadBytes ? { UPLOAD_MAX_BYTES: String(opts.maxUploadBytes) } : {}), ...opts.env });
  const config = opts.config ? opts.config(loaded) : loaded;
  const url = opts.databaseUrl ?? (opts.backend === 'postgres' ? await freshPostgresUrl() : undefined);
  const services = await openServices(config, { database: url ? { url } : 'memory' });
  const app = await buildApp(opts.storage ? { ...services, storage: opts.storage(services.storage) } : services, { logStream: opts.logStream });
  await app.ready();
  let n = 0;
  return {
    app,
    services,
    async close() {
      await app.close();
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
    async user(o = {}) {
      const email = o.email ?? `u${Date.now()}-${process.pid}-${++n}-${Math.random().toString(36).slice(2, 8)}@test.example`;
      const password = o.password ?? 'Secret#123';
      const token = await signUp(emulator, email, password);
      const me = await app.inject({ method: 'GET', url: '/api/user', headers: { authorization: `Bearer ${token.idToken}` } });
      const uid = token.localId;
      if (me.statusCode !== 200) throw new Error(`profile bootstrap failed: ${me.body}`);
      if (o.admin || o.client || o.staff) {
        await services.db
          .update(users)
          .set({ isAdmin: !!o.admin, isStaff: !!o.staff, isClient: !!o.client || !!o.admin })
          .where(eq(users.uid, uid));
      }
      if (o.admin || o.staff) await verifySecondFactor(services, uid);
      return { uid, email, token: token.idToken, headers: { authorization: `Bearer ${token.idToken}` } };
    },
  };
}

/**
 * Marks the user's sessions as having verified a second factor, as a staff member's does after the passkey or code
 * screen, so tests of staff and admin routes reach them. Dated a day ahead: a test file may run longer than the
 * step-up window (STEP_UP_SECONDS) on a loaded machine, and its role changes and Create User must not turn into
 * 403 STEP_UP_REQUIRED then; the tests of the second factor and step-up set this column themselves.
 */
export async function verifySecondFactor(services: Services, uid: string): Promise<void> {
  await services.db.update(sessions).set({ secondFactorAt: sql`now() + interval '1 day'` }).where(eq(sessions.uid, uid));
}

/** A general upload of one small text file, as the app sends it (multipart, keyed by its command id). */
export async function uploadText(t: TestApp, user: TestUser, key: string, text: string) {
  const form = new FormData();
  form.append('files', new Blob([text], { type: 'text/plain' }), 'evidence.txt');
  const res = new Response(form);
  return t.app.inject({
    method: 'POST',
    url: '/api/user/files',
    headers: { ...user.headers, 'idempotency-key': key, 'content-type': defined(res.headers.get('content-type'), 'a multipart type') },
    payload: Buffer.from(await res.arrayBuffer()),
  });
}

/**
 * A new account in the Auth emulator and an ID token for it. The token is a sign-in's, never the sign-up's own: the
 * emulator dates a sign-up's token (auth_time) from the moment the call starts and the account's "valid since" from
 * a moment later, after hashing the password, so when a second begins in between, the sign-up's token reads as
 * revoked and the server rightly refuses it (401). A sign-in dates its token after the account's "valid since".
 */
export async function signUp(emulatorHost: string, email: string, password: string): Promise<{ idToken: string; localId: string }> {
  const call = async (method: 'signUp' | 'signInWithPassword') => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fetch(`http://${emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=fake-api-key`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password, returnSecureToken: true }),
        });
      } catch (err) {
        // On a loaded machine the emulator may close a kept-alive connection just as it is reused
        // ("other side closed"): the call never arrived, so it is sent again on a new connection.
        if (attempt >= 3 || !isDroppedConnection(err)) throw err;
      }
    }
  };
  const made = await call('signUp');
  // A retried sign-up whose first attempt did arrive finds the account made: the sign-in below is all it needs.
  if (!made.ok && !(await made.clone().text()).includes('EMAIL_EXISTS')) throw new Error(`emulator sign-up failed: ${made.status} ${await made.text()}`);
  const signedIn = await call('signInWithPassword');
  if (!signedIn.ok) throw new Error(`emulator sign-in failed: ${signedIn.status} ${await signedIn.text()}`);
  return (await signedIn.json()) as { idToken: string; localId: string };
}

function isDroppedConnection(err: unknown): boolean {
  const code = (err as { cause?: { code?: string } } | null)?.cause?.code;
  return err instanceof TypeError && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET');
}

/**
 * Polls `predicate` every 50 ms until it holds, for at most `seconds`: for a state that raises no event a test could
 * wait on (a probe turning healthy, a database coming back, a connection re-opened).
 */
export async function waitUntil(predicate: () => boolean | Promise<boolean>, seconds = 30): Promise<void> {
  for (const deadline = Date.now() + seconds * 1000; !(await predicate()); ) {
    if (Date.now() > deadline) throw new Error(`not reached within ${seconds} s: ${predicate.toString()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A new, empty database on the throwaway PostgreSQL server, so test files can run in parallel. */
export async function freshPostgresUrl(): Promise<string> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('A PostgreSQL test needs TEST_DATABASE_URL (set by scripts/with-emulator.ts).');
  const pg = (await import('pg')).default;
  const name = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** How many files are stored on local disk or in file_chunks; by default where server/compose.ts keeps them. */
export async function storedFileCount(services: Services, where = services.database.kind === 'postgres' ? 'database' : 'disk'): Promise<number> {
  if (where === 'database') {
    const [row] = await services.db.select({ n: countDistinct(fileChunks.storedName) }).from(fileChunks);
    return Number(row.n);
  }
  return (await readdir(services.config.filesDir).catch(() => [])).length;
}
