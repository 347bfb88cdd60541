import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isOutOfSpace } from './platform/service-faults.ts';

/** At least 32 characters and 12 different ones: "aaaa…" or a short word is refused. */
const MIN_SECRET_LENGTH = 32;
const MIN_SECRET_VARIETY = 12;

export function weakSecretReason(secret: string): string | null {
  if (secret.length < MIN_SECRET_LENGTH) return `must be at least ${MIN_SECRET_LENGTH} characters`;
  if (new Set(secret).size < MIN_SECRET_VARIETY) return `must mix at least ${MIN_SECRET_VARIETY} different characters (use a random value)`;
  return null;
}

/** Environment, validated once at start-up, as epic-stack does: bad config fails loudly. */
const Env = z
  .object({
    /** Required unless the Auth emulator is configured: the server never guesses whether it runs in production. */
    NODE_ENV: z.enum(['development', 'production', 'test']).optional(),
    PORT: z.coerce.number().int().min(1).max(65535).default(8080),
    HOST: z.string().default('0.0.0.0'),
    DATA_DIR: z.string().default('data'),
    DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL').optional(),
    /**
     * PostgreSQL only: how long to wait for a connection (a new one, or a free one of the pool) and for one
     * statement, so a paused or unreachable database answers 503 instead of hanging (docs/decisions/023).
     */
    DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
    DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
    STATIC_DIR: z.string().default('dist'),
    FIREBASE_PROJECT_ID: z.string().min(1).default('demo-portal'),
    FIREBASE_AUTH_EMULATOR_HOST: z.string().optional(),
    /** The Firebase web API key the browser SDK and the set-password email call use; any value works with the emulator. */
    FIREBASE_WEB_API_KEY: z.string().min(1).default('emulator-key'),
    /**
     * Secret for signed download links. Required unless the Auth emulator is configured; locally, a random
     * one is made once and kept in DATA_DIR (never derived from anything public).
     */
    DOWNLOAD_SECRET: z.string().optional(),
    /**
     * Web Push's VAPID key pair (RFC 8292): the uncompressed P-256 public key (65 bytes) and the private scalar
     * (32 bytes), base64url. Required unless the Auth emulator is configured; locally, a pair is made once and kept
     * in DATA_DIR. Browsers bind a subscription to the public key, so changing it orphans every subscription.
     */
    VAPID_PUBLIC_KEY: z.string().refine((k) => base64urlBytes(k)?.length === 65 && base64urlBytes(k)?.[0] === 4, 'VAPID_PUBLIC_KEY must be an uncompressed P-256 public key (65 bytes, base64url)').optional(),
    VAPID_PRIVATE_KEY: z.string().refine((k) => base64urlBytes(k)?.length === 32, 'VAPID_PRIVATE_KEY must be a P-256 private key (32 bytes, base64url)').optional(),
    /** Who push services contact about our pushes: Apple refuses anything but a mailto: or https: URL. */
    VAPID_SUBJECT: z.string().regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/[^\s/]+\S*)$/, 'VAPID_SUBJECT must be a mailto: or https: URL').optional(),
    /**
     * The push services' hosts an endpoint may name outside the local stack (a host or any subdomain of one,
     * comma-separated): browsers' subscriptions point at these, and the server never POSTs to any other address
     * a caller hands it. Defaults: Chrome/Edge (FCM), Firefox (Mozilla autopush), Safari (Apple), Windows (WNS).
     */
    PUSH_ENDPOINT_HOSTS: z
      .string()
      .default('fcm.googleapis.com,updates.push.services.mozilla.com,web.push.apple.com,notify.windows.com')
      .transform((v) => v.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean))
      .refine((hosts) => hosts.length > 0 && hosts.every((h) => /^[a-z0-9.-]+$/.test(h)), 'PUSH_ENDPOINT_HOSTS must be a comma-separated list of host names'),
    /** Whether this instance runs a delivery worker (pushes and email); API-only instances say off. Several may run on one PostgreSQL. */
    DELIVERY_WORKER: z.enum(['on', 'off']).default('on'),
    /**
     * Seconds a claimed delivery is its worker's: longer than any send's timeout (push 10 s, SMTP 20 s), so a live
     * worker always records in time; a row still claimed after it was abandoned by a dead one (decision 029).
     */
    DELIVERY_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
    UPLOAD_MAX_BYTES: z.coerce.number().int().positive().default(10 * 1024 * 1024),
    /**
     * The portal's own address as people reach it (`https://portal.example`): the links in emails point there (the
     * screen an email is about, one-click unsubscribe). Required unless local while email is on; locally
     * http://localhost:<PORT>.
     */
    PUBLIC_URL: z
      .string()
      .refine((v) => URL.canParse(v) && ['http:', 'https:'].includes(new URL(v).protocol), 'PUBLIC_URL must be an http: or https: URL')
      .transform((v) => v.replace(/\/+$/, ''))
      .optional(),
    /**
     * Email (server/notify/mailer.ts): the SMTP server mail goes through, as `smtp://user:pass@host:587` (STARTTLS when
     * the server offers it) or `smtps://…:465` (TLS from the start). Required unless local while email is on;
     * `npm start` runs a local inbox and sets it. Without it locally, no mail is sent.
     */
    SMTP_URL: z.string().regex(/^smtps?:\/\/[^\s]+$/, 'SMTP_URL must be an smtp:// or smtps:// URL').optional(),
    /** The sender of every mail, as `"Name" <address>` or a bare address; locally `"Recovery" <no-reply@localhost>`. */
    MAIL_FROM: z
      .string()
      .regex(/^(?:"[^"\r\n]*"\s*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>"]+@[^\s@<>"]+)$/, 'MAIL_FROM must be an address, or "Name" <address>')
      .optional(),
    /** `off` turns email off on purpose (no mail is written or sent); push and the in-app notifications go on. */
    EMAIL: z.enum(['on', 'off']).default('on'),
    /** How long a client's email waits for them to see the event in the app first (then it is not sent). */
    EMAIL_DELAY_SECONDS: z.coerce
      .number()
      .int('EMAIL_DELAY_SECONDS must be a whole number of seconds')
      .min(0, 'EMAIL_DELAY_SECONDS must be at least 0')
      .max(7 * 24 * 3600, 'EMAIL_DELAY_SECONDS must be at most a week')
      .default(600),
    /** Proxy addresses whose X-Forwarded-For is believed (comma-separated); none by default, so rate limits can't be dodged. */
    TRUST_PROXY: z.string().optional(),
    /** Days a Track Master request's visits are kept after it is Done or Rejected (server/tracking/retention.ts). */
    VISIT_RETENTION_DAYS: z.coerce.number().int().min(1, 'VISIT_RETENTION_DAYS must be at least 1').max(3650, 'VISIT_RETENTION_DAYS must be at most 3650').default(90),
    /**
     * Write limits per user, counted in the database so they hold across instances
     * (server/plugins/write-limits.ts, docs/decisions/012-write-limits.md): approved clients and staff
     * per minute; accounts awaiting approval (leads) per minute and per day, and their daily upload quota.
     */
    WRITE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(60),
    LEAD_WRITE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(10),
    LEAD_WRITE_LIMIT_PER_DAY: z.coerce.number().int().positive().default(30),
    LEAD_UPLOAD_FILES_PER_DAY: z.coerce.number().int().positive().default(20),
    LEAD_UPLOAD_MB_PER_DAY: z.coerce.number().int().positive().default(50),
    /** Uploads (multipart requests) one user may have in flight on one instance: each holds a connection and a stream into storage. */
    UPLOADS_IN_FLIGHT_PER_USER: z.coerce.number().int().positive().default(2),
    /**
     * Which requests the log records: every one, or only those answered 4xx/5xx (each with its request
     * id). Unset: errors only in production, where a line per request would cost every request a fixed
     * share; every request elsewhere.
     */
    LOG_REQUESTS: z.enum(['all', 'errors']).optional(),
    /** Test-only fault injection (server/plugins/faults.ts) for the offline and chaos tests. */
    TEST_FAULTS: z.enum(['0', '1']).default('0'),
  })
  .superRefine((env, ctx) => {
    // Fail closed: either clearly local (the Auth emulator, not production) or configured on purpose.
    const local = isLocal(env);
    if (!local && !env.NODE_ENV) {
      ctx.addIssue({ code: 'custom', path: ['NODE_ENV'], message: 'set NODE_ENV (production, or development/test) when FIREBASE_AUTH_EMULATOR_HOST is not set' });
    }
    if (!local && !env.DOWNLOAD_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['DOWNLOAD_SECRET'], message: 'DOWNLOAD_SECRET is required unless the Auth emulator is used' });
    }
    if (!local) {
      for (const key of ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'] as const) {
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: `${key} is required unless the Auth emulator is used (web-push generate-vapid-keys makes a pair)` });
      }
    }
    if (!local && env.EMAIL === 'on') {
      if (!env.SMTP_URL) ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: 'SMTP_URL is required unless the Auth emulator is used: set it, or EMAIL=off to run without email on purpose' });
      if (!env.PUBLIC_URL) ctx.addIssue({ code: 'custom', path: ['PUBLIC_URL'], message: "PUBLIC_URL is required while email is on (the links in mail point there), e.g. https://portal.example" });
      if (!env.MAIL_FROM) ctx.addIssue({ code: 'custom', path: ['MAIL_FROM'], message: 'MAIL_FROM is required while email is on, e.g. "Recovery" <no-reply@portal.example>' });
    }
    if (!env.VAPID_PUBLIC_KEY !== !env.VAPID_PRIVATE_KEY) {
      ctx.addIssue({ code: 'custom', path: ['VAPID_PRIVATE_KEY'], message: 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together or not at all' });
    }
    const weak = env.DOWNLOAD_SECRET === undefined ? null : weakSecretReason(env.DOWNLOAD_SECRET);
    if (weak) ctx.addIssue({ code: 'custom', path: ['DOWNLOAD_SECRET'], message: `DOWNLOAD_SECRET ${weak}` });
    if (env.NODE_ENV !== 'production') return;
    if (env.FIREBASE_AUTH_EMULATOR_HOST) {
      ctx.addIssue({ code: 'custom', path: ['FIREBASE_AUTH_EMULATOR_HOST'], message: 'emulator settings are not allowed in production' });
    }
    if (env.FIREBASE_WEB_API_KEY === 'emulator-key') {
      ctx.addIssue({ code: 'custom', path: ['FIREBASE_WEB_API_KEY'], message: 'the Firebase web API key of the project is required in production' });
    }
    if (env.FIREBASE_PROJECT_ID.startsWith('demo-')) {
      ctx.addIssue({ code: 'custom', path: ['FIREBASE_PROJECT_ID'], message: 'a demo- project is emulator-only and not allowed in production' });
    }
    if (env.VAPID_SUBJECT && /^(mailto:[^@]*@|https:\/\/)(localhost|127\.0\.0\.1|\[::1\])([:/]|$)/i.test(env.VAPID_SUBJECT)) {
      ctx.addIssue({ code: 'custom', path: ['VAPID_SUBJECT'], message: 'VAPID_SUBJECT must not name localhost in production (Apple refuses it)' });
    }
    if (env.EMAIL === 'on' && env.PUBLIC_URL && !env.PUBLIC_URL.startsWith('https://')) {
      // RFC 8058: a one-click unsubscribe link is an HTTPS URI; mail providers ignore any other.
      ctx.addIssue({ code: 'custom', path: ['PUBLIC_URL'], message: 'PUBLIC_URL must be an https: URL in production while email is on' });
    }
    if (env.TEST_FAULTS === '1') {
      ctx.addIssue({ code: 'custom', path: ['TEST_FAULTS'], message: 'fault injection is not allowed in production' });
    }
  });

type Env = z.infer<typeof Env>;

/** The local stack (npm start, the tests): the Auth emulator and not production. Only here may pushes go to plain http on loopback. */
function isLocal(env: Pick<Env, 'FIREBASE_AUTH_EMULATOR_HOST' | 'NODE_ENV'>): boolean {
  return !!env.FIREBASE_AUTH_EMULATOR_HOST && env.NODE_ENV !== 'production';
}
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}
/**
 * Email as the server uses it. `enabled`: EMAIL=on and an SMTP server to send through (locally, `npm start` sets
 * SMTP_URL to its inbox; a local server without one, like the tests' default, sends no mail). `publicUrl` has no
 * trailing slash.
 */
export interface EmailConfig {
  enabled: boolean;
  smtpUrl: string | null;
  from: string;
  delaySeconds: number;
  publicUrl: string;
}
export type Config = Omit<Env, 'NODE_ENV'> & {
  NODE_ENV: NonNullable<Env['NODE_ENV']>;
  downloadSecret: string;
  vapid: VapidKeys;
  email: EmailConfig;
  local: boolean;
  pgliteDir: string;
  filesDir: string;
};

/** The local stack's sender: production names its own (checked above). */
const LOCAL_MAIL_FROM = '"Recovery" <no-reply@localhost>';

/** The subject of the local stack's pushes; production names a real address (checked above). */
const LOCAL_VAPID_SUBJECT = 'mailto:portal@localhost';

function base64urlBytes(value: string): Buffer | null {
  return /^[A-Za-z0-9_-]+$/.test(value) ? Buffer.from(value, 'base64url') : null;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const cfg = parsed.data;
  return {
    ...cfg,
    NODE_ENV: cfg.NODE_ENV ?? 'development',
    local: isLocal(cfg),
    // Without DOWNLOAD_SECRET the config is local (checked above).
    downloadSecret: cfg.DOWNLOAD_SECRET ?? localSecret(cfg.DATA_DIR),
    // Without the keys the config is local (checked above).
    vapid: {
      ...(cfg.VAPID_PUBLIC_KEY && cfg.VAPID_PRIVATE_KEY ? { publicKey: cfg.VAPID_PUBLIC_KEY, privateKey: cfg.VAPID_PRIVATE_KEY } : localVapidKeys(cfg.DATA_DIR)),
      subject: cfg.VAPID_SUBJECT ?? LOCAL_VAPID_SUBJECT,
    },
    // Without SMTP_URL, PUBLIC_URL or MAIL_FROM the config is local or email is off (checked above).
    email: {
      enabled: cfg.EMAIL === 'on' && !!cfg.SMTP_URL,
      smtpUrl: cfg.EMAIL === 'on' ? (cfg.SMTP_URL ?? null) : null,
      from: cfg.MAIL_FROM ?? LOCAL_MAIL_FROM,
      delaySeconds: cfg.EMAIL_DELAY_SECONDS,
      publicUrl: cfg.PUBLIC_URL ?? `http://localhost:${cfg.PORT}`,
    },
    pgliteDir: path.resolve(cfg.DATA_DIR, 'pglite'),
    filesDir: path.resolve(cfg.DATA_DIR, 'files'),
  };
}

/**
 * The local stack's download secret: random, made on the first start and kept in DATA_DIR (owner-only),
 * so links survive a restart and nothing a visitor can read (the project id) lets anyone sign one.
 */
function localSecret(dataDir: string): string {
  const file = path.resolve(dataDir, 'download-secret');
  if (existsSync(file)) {
    const kept = readFileSync(file, 'utf8').trim();
    if (!weakSecretReason(kept)) return kept;
  }
  const secret = randomBytes(32).toString('base64url');
  keepOwnerOnly(file, secret);
  return secret;
}

/**
 * The local stack's VAPID key pair, made on the first start and kept in DATA_DIR (owner-only) like the download
 * secret: a new pair on every start would orphan every browser's subscription.
 */
function localVapidKeys(dataDir: string): { publicKey: string; privateKey: string } {
  const file = path.resolve(dataDir, 'vapid-keys.json');
  if (existsSync(file)) {
    try {
      const kept = JSON.parse(readFileSync(file, 'utf8')) as { publicKey?: unknown; privateKey?: unknown };
      if (typeof kept.publicKey === 'string' && typeof kept.privateKey === 'string' && base64urlBytes(kept.publicKey)?.length === 65 && base64urlBytes(kept.privateKey)?.length === 32) {
        return { publicKey: kept.publicKey, privateKey: kept.privateKey };
      }
    } catch {
      // An unreadable file is replaced by a new pair, as a weak kept secret is.
    }
  }
  const keys = newVapidKeys();
  keepOwnerOnly(file, JSON.stringify(keys));
  return keys;
}

/** A new VAPID key pair in the form web-push takes (what `web-push generate-vapid-keys` prints). */
export function newVapidKeys(): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const pub = publicKey.export({ format: 'jwk' });
  const priv = privateKey.export({ format: 'jwk' });
  return {
    publicKey: Buffer.concat([Buffer.from([4]), Buffer.from(pub.x ?? '', 'base64url'), Buffer.from(pub.y ?? '', 'base64url')]).toString('base64url'),
    privateKey: priv.d ?? '',
  };
}

function keepOwnerOnly(file: string, content: string) {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content, { mode: 0o600 });
  } catch (err) {
    if (isOutOfSpace(err)) throw new Error(`The disk is full: ${file} cannot be written (no space left on device). Free some space and start the server again.`, { cause: err });
    throw err;
  }
}
