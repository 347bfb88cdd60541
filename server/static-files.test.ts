// The built app's files as the `npm start` stack serves them: hashed assets come as the build compressed them
// (their .br and .gz beside them, vite.config.ts), anything else is compressed per request as before.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { createTestApp, type TestApp } from './test-helper.ts';

const script = `export const words = ${JSON.stringify('fraud recovery portal '.repeat(200))};\n`;
/** The build's copies say so, which tells them from the same file compressed per request. */
const built = `${script}// compressed by the build\n`;

describe('the built app’s files', () => {
  let t: TestApp;
  let served: Awaited<ReturnType<typeof buildApp>>;
  let dir: string;
  beforeAll(async () => {
    t = await createTestApp();
    dir = mkdtempSync(path.join(tmpdir(), 'portal-dist-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><meta name="portal-config" content="{}" /><div id="root"></div>');
    writeFileSync(path.join(dir, 'assets', 'app-1a2b.js'), script);
    writeFileSync(path.join(dir, 'assets', 'app-1a2b.js.br'), brotliCompressSync(built));
    writeFileSync(path.join(dir, 'assets', 'app-1a2b.js.gz'), gzipSync(built));
    writeFileSync(path.join(dir, 'assets', 'plain-3c4d.js'), script);
    served = await buildApp({ ...t.services, config: { ...t.services.config, STATIC_DIR: dir } });
  });
  afterAll(async () => {
    await served?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, encoding: string) => served.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding } });

  it('sends an asset’s brotli file to a browser that takes brotli, with the script’s type and a year of cache', async () => {
    const res = await get('/assets/app-1a2b.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(built);
  });

  it('sends the gzip file to a browser without brotli, and the file itself to one that takes neither', async () => {
    const zipped = await get('/assets/app-1a2b.js', 'gzip');
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(built);
    const plain = await get('/assets/app-1a2b.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('still compresses a file the build left without its compressed copies', async () => {
    const res = await get('/assets/plain-3c4d.js', 'br');
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });
});
