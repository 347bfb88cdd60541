import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_FULL_MESSAGE } from './platform/service-faults.ts';
import { createTestApp, type TestApp, type TestUser, uploadText, waitUntil } from './test-helper.ts';

/**
 * A real full disk: a small tmpfs, filled to the last byte. Mounting needs root (and a kernel that lets
 * this container mount); elsewhere this file is skipped and storage-full.test.ts, with a store that
 * fails as a full disk does, covers the same answers.
 */
function mountSmallDisk(size: string): { dir: string; unmount(): void } | { skipReason: string } {
  if (userInfo().uid !== 0) return { skipReason: 'mounting a tmpfs needs root' };
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return { skipReason: `mount -t tmpfs failed: ${(err as { stderr?: Buffer }).stderr?.toString().trim() || String(err)}` };
  }
  return {
    dir,
    unmount() {
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Writes a file until the disk refuses: from then on, the disk is full. */
function fillDisk(file: string) {
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, block);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

const disk = mountSmallDisk('2m');
const skip = 'skipReason' in disk ? disk.skipReason : null;
if (skip) console.warn(`[full-disk.test] skipped: ${skip}`);

describe.skipIf(!!skip)('a real full disk', () => {
  const root = 'dir' in disk ? disk.dir : '';
  let t: TestApp;
  let alice: TestUser;
  afterAll(() => {
    if ('unmount' in disk) disk.unmount();
  });

  describe('under a running server (files on disk, PGlite in memory)', () => {
    const filler = path.join(root, 'filler');
    beforeAll(async () => {
      t = await createTestApp({ env: { DATA_DIR: path.join(root, 'running') } });
      alice = await t.user({ client: true });
    });
    afterAll(() => t?.close());

    const upload = (key: string) => uploadText(t, alice, key, 'the evidence');
    const health = () => t.app.inject({ method: 'GET', url: '/api/health' });

    it('an upload gets 507 in words and health 503 while the disk is full; both recover once space is freed', async () => {
      fillDisk(filler);
      const refused = await upload('full-disk-upload');
      expect(refused.statusCode).toBe(507);
      expect(refused.json()).toEqual({ error: { code: 'STORAGE_FULL', message: STORAGE_FULL_MESSAGE } });
      await waitUntil(async () => (await health()).statusCode === 503);
      expect((await health()).json().error.details.checks.storage).toEqual({ writable: false });
      expect((await t.app.inject({ method: 'GET', url: '/api/user/files', headers: alice.headers })).statusCode).toBe(200);

      rmSync(filler);
      expect((await upload('full-disk-upload')).statusCode).toBe(201);
      await waitUntil(async () => (await health()).statusCode === 200);
    });
  });

  // The first file a start writes is the local download secret; with one kept from before, the first is PGlite's.
  it.each([
    ['with nothing written yet', false],
    ['with the download secret already kept (PGlite is the first to write)', true],
  ])('a first start on a full disk says that the disk is full, %s', async (_case, secretKept) => {
    const dataDir = path.join(root, `first-start-${secretKept}`);
    if (secretKept) {
      mkdirSync(dataDir);
      writeFileSync(path.join(dataDir, 'download-secret'), randomBytes(32).toString('base64url'));
    }
    const filler = path.join(root, 'filler-start');
    fillDisk(filler);
    const main = path.resolve(import.meta.dirname, 'main.ts');
    const { DATABASE_URL: _inherited, ...inherited } = process.env;
    // The port is never listened on: the start ends before.
    const env = { ...inherited, NODE_ENV: 'development', DATA_DIR: dataDir, STATIC_DIR: path.join(dataDir, 'no-build'), PORT: '65001', HOST: '127.0.0.1' };
    const failed = await promisify(execFile)(process.execPath, [main], { env, timeout: 60_000 }).then(
      () => null,
      (err: { code?: number; stderr?: string }) => err,
    );
    rmSync(filler);
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/The disk is full: .* Free some space and start the server again\./);
  });
});
