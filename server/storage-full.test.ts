import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_FULL_MESSAGE } from './platform/service-faults.ts';
import type { Storage } from './files/storage.ts';
import { backends, createTestApp, type TestApp, type TestUser, uploadText, waitUntil } from './test-helper.ts';

/** The error a file system gives a write on a full disk. */
function noSpaceLeft(): NodeJS.ErrnoException {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
}

/**
 * The real store of the backend, whose writes fail like a full disk's while `disk.full` is set: the
 * bytes are taken, then the write fails. Reads and removals go to the real store.
 */
function fillableStore(disk: { full: boolean }) {
  return (real: Storage): Storage => ({
    ...real,
    async save(source, originalName) {
      if (!disk.full) return real.save(source, originalName);
      for await (const _chunk of source instanceof Buffer ? [source] : source) {
        // taken, and lost: the disk has no room for it
      }
      throw noSpaceLeft();
    },
  });
}

describe.each(backends())('a full disk (%s)', (backend) => {
  let t: TestApp;
  let alice: TestUser;
  const disk = { full: false };

  beforeAll(async () => {
    t = await createTestApp({ backend, storage: fillableStore(disk) });
    alice = await t.user({ client: true });
  });
  afterAll(() => t?.close());

  const upload = (key: string, text: string) => uploadText(t, alice, key, text);
  const health = () => t.app.inject({ method: 'GET', url: '/api/health' });

  it('refuses an upload with 507 in words, health says storage is not writable, reads go on, and writes resume once space is freed', async () => {
    const before = await upload(`before-full-${backend}`, 'stored before the disk filled');
    expect(before.statusCode).toBe(201);
    const [kept] = before.json().data.files as { id: string }[];

    disk.full = true;
    const refused = await upload(`while-full-${backend}`, 'sent while the disk is full');
    expect(refused.statusCode).toBe(507);
    expect(refused.json()).toEqual({ error: { code: 'STORAGE_FULL', message: STORAGE_FULL_MESSAGE } });
    expect(refused.headers['retry-after']).toBe('60');

    await waitUntil(async () => (await health()).statusCode === 503);
    const down = (await health()).json().error;
    expect(down.message).toBe('Not ready: the file storage does not accept writes (is the disk full?).');
    expect(down.details.checks).toEqual({ database: { reachable: true, writable: true }, storage: { writable: false } });

    // Reads keep working: the profile, the file list, and the bytes of a file stored before.
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: alice.headers })).statusCode).toBe(200);
    const listed = await t.app.inject({ method: 'GET', url: '/api/user/files', headers: alice.headers });
    expect(listed.statusCode).toBe(200);
    expect((listed.json().data as { id: string }[]).map((f) => f.id)).toContain(kept.id);
    const download = await t.app.inject({ method: 'GET', url: `/api/user/files/${kept.id}`, headers: alice.headers });
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('stored before the disk filled');

    disk.full = false;
    // The outbox sends the refused command again with its key: the 507 freed it, so it is stored now.
    const resent = await upload(`while-full-${backend}`, 'sent while the disk is full');
    expect(resent.statusCode).toBe(201);
    await waitUntil(async () => (await health()).statusCode === 200);
  });

  it('a database write refused for lack of space (SQLSTATE 53100, disk_full) answers 507 too', async () => {
    // The database's own error, raised by a trigger as PostgreSQL and PGlite raise it when a file cannot grow.
    await t.services.db.execute(sql`
      create function refuse_for_space() returns trigger language plpgsql as $$
      begin raise exception 'could not extend file "base/1/2": No space left on device' using errcode = 'disk_full'; end $$`);
    await t.services.db.execute(sql`create trigger contact_disk_full before insert on contact_requests for each row execute function refuse_for_space()`);
    const send = () =>
      t.app.inject({ method: 'POST', url: '/api/contact', headers: { ...alice.headers, 'idempotency-key': `contact-full-${backend}` }, payload: { contactRequest: { subject: 'Full', message: 'No room' } } });
    try {
      const refused = await send();
      expect(refused.statusCode).toBe(507);
      expect(refused.json()).toEqual({ error: { code: 'STORAGE_FULL', message: STORAGE_FULL_MESSAGE } });
    } finally {
      await t.services.db.execute(sql`drop trigger contact_disk_full on contact_requests`);
      await t.services.db.execute(sql`drop function refuse_for_space()`);
    }
    expect((await send()).statusCode).toBe(201);
  });
});
