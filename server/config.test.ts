import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPublicKey } from 'node:crypto';
import { loadConfig, newVapidKeys, weakSecretReason } from './config.ts';

/** The local stack: the Auth emulator, and a data dir of its own for the generated secret. */
const local = () => ({ FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'portal-config-')) });

const production = {
  NODE_ENV: 'production',
  FIREBASE_PROJECT_ID: 'acme-portal',
  DOWNLOAD_SECRET: 'Zq8vL2mX9rT4wK7pN3bF6hJ1cD5gS0aY',
  DATABASE_URL: 'postgres://portal@db.internal/portal',
  FIREBASE_WEB_API_KEY: 'AIza-real-project-key',
  VAPID_PUBLIC_KEY: 'BNbQ4Fp3_OmQb6SbEZlQXkL9DYBsB-j0ZyW7cH4rL8n1Xc6yVb3hKj2oT0vZ9sQeR1uW5xY7aZ3cD6fG8hJ0kLm',
  VAPID_PRIVATE_KEY: 'Zq8vL2mX9rT4wK7pN3bF6hJ1cD5gS0aYZq8vL2mX9rQ',
  VAPID_SUBJECT: 'mailto:security@acme.example',
  SMTP_URL: 'smtp://mailer:Zq8vL2mX9rT4@smtp.acme.example:587',
  MAIL_FROM: '"Recovery" <no-reply@acme.example>',
  PUBLIC_URL: 'https://portal.acme.example/',
};

describe('loadConfig', () => {
  it('refuses production without the project\'s Firebase web API key', () => {
    const { FIREBASE_WEB_API_KEY: _key, ...withoutKey } = production;
    expect(() => loadConfig(withoutKey)).toThrow(/FIREBASE_WEB_API_KEY/);
  });

  it('accepts a complete production configuration', () => {
    const cfg = loadConfig(production);
    expect(cfg.NODE_ENV).toBe('production');
    expect(cfg.downloadSecret).toBe('Zq8vL2mX9rT4wK7pN3bF6hJ1cD5gS0aY');
    expect(cfg.vapid).toEqual({ publicKey: production.VAPID_PUBLIC_KEY, privateKey: production.VAPID_PRIVATE_KEY, subject: 'mailto:security@acme.example' });
  });

  it('refuses production while the Auth emulator is configured', () => {
    expect(() => loadConfig({ ...production, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' })).toThrow(/FIREBASE_AUTH_EMULATOR_HOST/);
  });

  it('refuses a demo- (emulator-only) project and a missing download secret in production', () => {
    expect(() => loadConfig({ ...production, FIREBASE_PROJECT_ID: 'demo-portal' })).toThrow(/FIREBASE_PROJECT_ID/);
    expect(() => loadConfig({ ...production, DOWNLOAD_SECRET: undefined })).toThrow(/DOWNLOAD_SECRET/);
  });

  it('allows the emulator outside production', () => {
    const cfg = loadConfig({ ...local(), NODE_ENV: 'development' });
    expect(cfg.FIREBASE_AUTH_EMULATOR_HOST).toBe('127.0.0.1:9099');
    expect(cfg.FIREBASE_PROJECT_ID).toBe('demo-portal');
  });

  it('accepts postgres:// and postgresql:// database URLs and nothing else', () => {
    expect(loadConfig({ ...local(), DATABASE_URL: 'postgres://u@h/db' }).DATABASE_URL).toBe('postgres://u@h/db');
    expect(loadConfig({ ...local(), DATABASE_URL: 'postgresql://u@h:5432/db' }).DATABASE_URL).toBe('postgresql://u@h:5432/db');
    for (const url of ['mysql://u@h/db', 'file:data/db', 'data/pglite', 'http://postgres/']) {
      expect(() => loadConfig({ ...local(), DATABASE_URL: url }), url).toThrow(/DATABASE_URL must be a postgres:\/\/ URL/);
    }
  });

  it('defaults to PGlite under DATA_DIR when DATABASE_URL is unset', () => {
    const env = local();
    const cfg = loadConfig(env);
    expect(cfg.DATABASE_URL).toBeUndefined();
    expect(cfg.pgliteDir).toBe(path.join(env.DATA_DIR, 'pglite'));
    expect(cfg.filesDir).toBe(path.join(env.DATA_DIR, 'files'));
  });

  it('rejects a bad port and lists every problem at once', () => {
    expect(() => loadConfig({ ...local(), PORT: 'eighty' })).toThrow(/PORT/);
    let message = '';
    try {
      loadConfig({ ...production, FIREBASE_AUTH_EMULATOR_HOST: 'localhost:9099', FIREBASE_PROJECT_ID: 'demo-x', DOWNLOAD_SECRET: undefined });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/FIREBASE_AUTH_EMULATOR_HOST/);
    expect(message).toMatch(/FIREBASE_PROJECT_ID/);
    expect(message).toMatch(/DOWNLOAD_SECRET/);
  });
});

describe('VISIT_RETENTION_DAYS', () => {
  it('defaults to 90 days and takes a whole number of days from 1', () => {
    expect(loadConfig(local()).VISIT_RETENTION_DAYS).toBe(90);
    expect(loadConfig({ ...local(), VISIT_RETENTION_DAYS: '30' }).VISIT_RETENTION_DAYS).toBe(30);
    expect(() => loadConfig({ ...local(), VISIT_RETENTION_DAYS: '0' })).toThrow(/VISIT_RETENTION_DAYS: VISIT_RETENTION_DAYS must be at least 1/);
    expect(() => loadConfig({ ...local(), VISIT_RETENTION_DAYS: 'soon' })).toThrow(/VISIT_RETENTION_DAYS/);
  });
});

describe('fails closed', () => {
  it('refuses to start without the emulator unless NODE_ENV is set on purpose', () => {
    expect(() => loadConfig({ DOWNLOAD_SECRET: production.DOWNLOAD_SECRET })).toThrow(/NODE_ENV: set NODE_ENV/);
    const { NODE_ENV: _production, FIREBASE_PROJECT_ID: _project, ...configured } = production;
    expect(loadConfig({ ...configured, NODE_ENV: 'development' }).NODE_ENV).toBe('development');
  });

  it('has no default download secret outside the local stack', () => {
    expect(() => loadConfig({ NODE_ENV: 'development' })).toThrow(/DOWNLOAD_SECRET is required unless the Auth emulator is used/);
    expect(() => loadConfig({ ...production, DOWNLOAD_SECRET: undefined })).toThrow(/DOWNLOAD_SECRET/);
  });

  it('refuses short or repetitive secrets, wherever they are given', () => {
    expect(weakSecretReason('a'.repeat(64))).toMatch(/different characters/);
    expect(weakSecretReason('short-Secret-1')).toMatch(/at least 32/);
    expect(() => loadConfig({ ...production, DOWNLOAD_SECRET: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' })).toThrow(/DOWNLOAD_SECRET must mix/);
    expect(() => loadConfig({ ...local(), DOWNLOAD_SECRET: 'dev-only-secret-demo-portal' })).toThrow(/DOWNLOAD_SECRET must be at least 32/);
  });

  it('locally, makes a random secret once, keeps it owner-only in DATA_DIR, and never derives it from the project id', () => {
    const env = local();
    const first = loadConfig(env).downloadSecret;
    expect(weakSecretReason(first)).toBeNull();
    expect(first).not.toContain('demo-portal');
    expect(loadConfig(env).downloadSecret).toBe(first);
    const file = path.join(env.DATA_DIR, 'download-secret');
    expect(readFileSync(file, 'utf8')).toBe(first);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(loadConfig(local()).downloadSecret).not.toBe(first);
  });
});

describe('VAPID keys', () => {
  it('refuses production without the key pair or the subject', () => {
    for (const key of ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'] as const) {
      expect(() => loadConfig({ ...production, [key]: undefined }), key).toThrow(new RegExp(`${key}: ${key} is required unless the Auth emulator is used`));
    }
    expect(() => loadConfig({ NODE_ENV: 'development', DOWNLOAD_SECRET: production.DOWNLOAD_SECRET })).toThrow(/VAPID_PUBLIC_KEY is required/);
  });

  it('takes only a mailto: or https: subject, and no localhost one in production (Apple refuses it)', () => {
    for (const subject of ['http://acme.example', 'acme.example', 'mailto:nobody', 'https://']) {
      expect(() => loadConfig({ ...production, VAPID_SUBJECT: subject }), subject).toThrow(/VAPID_SUBJECT must be a mailto: or https: URL/);
    }
    expect(loadConfig({ ...production, VAPID_SUBJECT: 'https://portal.acme.example/contact' }).vapid.subject).toBe('https://portal.acme.example/contact');
    for (const subject of ['https://localhost', 'mailto:me@localhost', 'https://127.0.0.1:8443/']) {
      expect(() => loadConfig({ ...production, VAPID_SUBJECT: subject }), subject).toThrow(/VAPID_SUBJECT must not name localhost in production/);
    }
  });

  it('refuses keys that are not P-256 keys, or one half of a pair', () => {
    expect(() => loadConfig({ ...production, VAPID_PUBLIC_KEY: 'not-a-key' })).toThrow(/VAPID_PUBLIC_KEY must be an uncompressed P-256 public key/);
    expect(() => loadConfig({ ...production, VAPID_PRIVATE_KEY: Buffer.alloc(31, 7).toString('base64url') })).toThrow(/VAPID_PRIVATE_KEY must be a P-256 private key/);
    expect(() => loadConfig({ ...local(), VAPID_PUBLIC_KEY: production.VAPID_PUBLIC_KEY })).toThrow(/set together or not at all/);
  });

  it('locally, makes a real P-256 pair once and keeps it owner-only in DATA_DIR', () => {
    const env = local();
    const first = loadConfig(env).vapid;
    expect(first.subject).toMatch(/^mailto:/);
    // A real curve point: node parses it as a P-256 public key.
    const point = Buffer.from(first.publicKey, 'base64url');
    const jwk = { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') };
    expect(createPublicKey({ key: jwk, format: 'jwk' }).asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(loadConfig(env).vapid).toEqual(first);
    const file = path.join(env.DATA_DIR, 'vapid-keys.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ publicKey: first.publicKey, privateKey: first.privateKey });
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(loadConfig(local()).vapid.publicKey).not.toBe(first.publicKey);
    const given = newVapidKeys();
    expect(loadConfig({ ...local(), VAPID_PUBLIC_KEY: given.publicKey, VAPID_PRIVATE_KEY: given.privateKey }).vapid.publicKey).toBe(given.publicKey);
  });
});

describe('PUSH_ENDPOINT_HOSTS', () => {
  it("defaults to the browsers' push services and takes a list of host names", () => {
    expect(loadConfig(production).PUSH_ENDPOINT_HOSTS).toEqual(['fcm.googleapis.com', 'updates.push.services.mozilla.com', 'web.push.apple.com', 'notify.windows.com']);
    expect(loadConfig({ ...production, PUSH_ENDPOINT_HOSTS: ' Push.Example.net , fcm.googleapis.com' }).PUSH_ENDPOINT_HOSTS).toEqual(['push.example.net', 'fcm.googleapis.com']);
    for (const bad of [',', 'https://push.example.net', 'push example']) {
      expect(() => loadConfig({ ...production, PUSH_ENDPOINT_HOSTS: bad }), bad).toThrow(/PUSH_ENDPOINT_HOSTS must be a comma-separated list of host names/);
    }
  });
});

describe('email', () => {
  it('refuses production without an SMTP server, a public address and a sender, unless EMAIL=off is set on purpose', () => {
    expect(() => loadConfig({ ...production, SMTP_URL: undefined })).toThrow(/SMTP_URL: SMTP_URL is required unless the Auth emulator is used: set it, or EMAIL=off/);
    expect(() => loadConfig({ ...production, PUBLIC_URL: undefined })).toThrow(/PUBLIC_URL: PUBLIC_URL is required while email is on/);
    expect(() => loadConfig({ ...production, MAIL_FROM: undefined })).toThrow(/MAIL_FROM: MAIL_FROM is required while email is on/);
    const off = loadConfig({ ...production, EMAIL: 'off', SMTP_URL: undefined, PUBLIC_URL: undefined, MAIL_FROM: undefined });
    expect(off.email).toMatchObject({ enabled: false, smtpUrl: null });
  });

  it('takes its settings in production: the SMTP URL, the sender, the delay, and the public address without its trailing slash', () => {
    expect(loadConfig(production).email).toEqual({
      enabled: true,
      smtpUrl: production.SMTP_URL,
      from: production.MAIL_FROM,
      delaySeconds: 600,
      publicUrl: 'https://portal.acme.example',
    });
    expect(loadConfig({ ...production, EMAIL_DELAY_SECONDS: '0' }).email.delaySeconds).toBe(0);
    expect(loadConfig({ ...production, MAIL_FROM: 'alerts@acme.example' }).email.from).toBe('alerts@acme.example');
  });

  it('refuses a bad SMTP URL, sender, delay or switch, and a plain-http public address in production', () => {
    for (const url of ['http://smtp.acme.example', 'smtp.acme.example:587', 'smtp://']) {
      expect(() => loadConfig({ ...production, SMTP_URL: url }), url).toThrow(/SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
    }
    expect(loadConfig({ ...production, SMTP_URL: 'smtps://smtp.acme.example:465' }).email.smtpUrl).toBe('smtps://smtp.acme.example:465');
    for (const from of ['Recovery', '"Recovery" no-reply@acme.example', 'a@b\r\nBcc: x@y']) {
      expect(() => loadConfig({ ...production, MAIL_FROM: from }), from).toThrow(/MAIL_FROM must be an address/);
    }
    for (const delay of ['-1', '1.5', 'soon']) expect(() => loadConfig({ ...production, EMAIL_DELAY_SECONDS: delay }), delay).toThrow(/EMAIL_DELAY_SECONDS/);
    expect(() => loadConfig({ ...production, EMAIL: 'yes' })).toThrow(/EMAIL/);
    expect(() => loadConfig({ ...production, PUBLIC_URL: 'ftp://portal.acme.example' })).toThrow(/PUBLIC_URL must be an http: or https: URL/);
    expect(() => loadConfig({ ...production, PUBLIC_URL: 'http://portal.acme.example' })).toThrow(/PUBLIC_URL must be an https: URL in production while email is on/);
  });

  it('locally, sends only when given an SMTP server, from a local sender, with links to this server', () => {
    expect(loadConfig({ ...local(), PORT: '8123' }).email).toEqual({
      enabled: false,
      smtpUrl: null,
      from: '"Recovery" <no-reply@localhost>',
      delaySeconds: 600,
      publicUrl: 'http://localhost:8123',
    });
    const inbox = loadConfig({ ...local(), SMTP_URL: 'smtp://127.0.0.1:1025', EMAIL_DELAY_SECONDS: '3' }).email;
    expect(inbox).toMatchObject({ enabled: true, smtpUrl: 'smtp://127.0.0.1:1025', delaySeconds: 3, publicUrl: 'http://localhost:8080' });
    expect(loadConfig({ ...local(), SMTP_URL: 'smtp://127.0.0.1:1025', EMAIL: 'off' }).email).toMatchObject({ enabled: false, smtpUrl: null });
  });
});
