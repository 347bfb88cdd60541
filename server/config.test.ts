import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

const production = {
  NODE_ENV: 'production',
  FIREBASE_PROJECT_ID: 'acme-portal',
  DOWNLOAD_SECRET: 'a-long-enough-download-secret',
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
    expect(cfg.downloadSecret).toBe('a-long-enough-download-secret');
  });

  it('refuses production while the Auth emulator is configured', () => {
    expect(() => loadConfig({ ...production, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' })).toThrow(/FIREBASE_AUTH_EMULATOR_HOST/);
  });

  it('refuses a demo- (emulator-only) project and a missing download secret in production', () => {
    expect(() => loadConfig({ ...production, FIREBASE_PROJECT_ID: 'demo-portal' })).toThrow(/FIREBASE_PROJECT_ID/);
    expect(() => loadConfig({ ...production, DOWNLOAD_SECRET: undefined })).toThrow(/DOWNLOAD_SECRET/);
  });

  it('allows the emulator outside production', () => {
    const cfg = loadConfig({ NODE_ENV: 'development', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' });
    expect(cfg.FIREBASE_AUTH_EMULATOR_HOST).toBe('127.0.0.1:9099');
    expect(cfg.FIREBASE_PROJECT_ID).toBe('demo-portal');
  });

  it('accepts postgres:// and postgresql:// database URLs and nothing else', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).DATABASE_URL).toBe('postgres://u@h/db');
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@h:5432/db' }).DATABASE_URL).toBe('postgresql://u@h:5432/db');
    for (const url of ['mysql://u@h/db', 'file:data/db', 'data/pglite', 'http://postgres/']) {
      expect(() => loadConfig({ DATABASE_URL: url }), url).toThrow(/DATABASE_URL must be a postgres:\/\/ URL/);
    }
  });

  it('defaults to PGlite under DATA_DIR when DATABASE_URL is unset', () => {
    const cfg = loadConfig({ DATA_DIR: '/tmp/portal-x' });
    expect(cfg.DATABASE_URL).toBeUndefined();
    expect(cfg.pgliteDir).toBe('/tmp/portal-x/pglite');
    expect(cfg.filesDir).toBe('/tmp/portal-x/files');
  });

  it('rejects a bad port and lists every problem at once', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
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
