// The real server process refuses to start when it is neither clearly local nor configured
// for production on purpose. Spawned as a child, as an operator would start it; its message is checked.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const main = path.resolve(import.meta.dirname, 'main.ts');
const strongSecret = 'Zq8vL2mX9rT4wK7pN3bF6hJ1cD5gS0aY';

/** Runs server/main.ts with only these settings (and PATH); returns its exit code and what it printed. */
function start(env: Record<string, string>): { status: number | null; output: string } {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-refusal-'));
  const run = spawnSync(process.execPath, [main], {
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: '0', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('the server refuses to start when misconfigured', () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    ['no emulator and no NODE_ENV', { DOWNLOAD_SECRET: strongSecret }, /NODE_ENV: set NODE_ENV/],
    ['no emulator and no download secret', { NODE_ENV: 'development' }, /DOWNLOAD_SECRET is required unless the Auth emulator is used/],
    ['a guessable download secret', { NODE_ENV: 'development', DOWNLOAD_SECRET: 'dev-only-secret-demo-portal' }, /DOWNLOAD_SECRET must be at least 32/],
    ['a one-letter download secret', { NODE_ENV: 'development', DOWNLOAD_SECRET: 'a'.repeat(40) }, /DOWNLOAD_SECRET must mix/],
    ['production with emulator settings', { NODE_ENV: 'production', DOWNLOAD_SECRET: strongSecret, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' }, /emulator settings are not allowed in production/],
    ['production without VAPID keys', { NODE_ENV: 'production', DOWNLOAD_SECRET: strongSecret, FIREBASE_PROJECT_ID: 'acme-portal', FIREBASE_WEB_API_KEY: 'AIza-key' }, /VAPID_PUBLIC_KEY: VAPID_PUBLIC_KEY is required unless the Auth emulator is used/],
    [
      'production without an SMTP server',
      { NODE_ENV: 'production', DOWNLOAD_SECRET: strongSecret, FIREBASE_PROJECT_ID: 'acme-portal', FIREBASE_WEB_API_KEY: 'AIza-key' },
      /SMTP_URL: SMTP_URL is required unless the Auth emulator is used: set it, or EMAIL=off to run without email on purpose/,
    ],
    [
      'production with email on and no public address',
      { NODE_ENV: 'production', DOWNLOAD_SECRET: strongSecret, FIREBASE_PROJECT_ID: 'acme-portal', FIREBASE_WEB_API_KEY: 'AIza-key', SMTP_URL: 'smtp://smtp.acme.example:587' },
      /PUBLIC_URL: PUBLIC_URL is required while email is on/,
    ],
    ['production with the demo project', { NODE_ENV: 'production', DOWNLOAD_SECRET: strongSecret, FIREBASE_WEB_API_KEY: 'AIza-key' }, /demo- project is emulator-only/],
  ];
  it.each(cases)('%s', (_name, env, message) => {
    const { status, output } = start(env);
    expect(status).not.toBe(0);
    expect(output).toMatch(/Invalid configuration/);
    expect(output).toMatch(message);
  });
});
