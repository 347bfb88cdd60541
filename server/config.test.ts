import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, weakSecretReason } from './config.ts';

/** The local stack: the Auth emulator, and a data dir of its own for the generated secret. */
const local = () => ({ FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'portal-config-')) });

const production = {
  NODE_ENV: 'production',
  FIREBASE_PROJECT_ID: 'acme-portal',
  DOWNLOAD_SECRET: 'Zq8vL2mX9rT4wK7pN3bF6hJ1cD5gS0aY',
  DATABASE_URL: 'postgres://portal@db.internal/portal',
  FIREBASE_WEB_API_KEY: 'AIza-real-project-key',
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
    expect(loadConfig({ NODE_ENV: 'development', DOWNLOAD_SECRET: production.DOWNLOAD_SECRET }).NODE_ENV).toBe('development');
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
