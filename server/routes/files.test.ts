import { createHash, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, userAttachments } from '../db/schema.ts';
import { createTestApp, defined, storedFileCount, type TestApp, type TestUser } from '../test-helper.ts';

const CAP = 1024;
let t: TestApp;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  t = await createTestApp({ maxUploadBytes: CAP });
  [alice, bob] = await Promise.all([t.user({ client: true }), t.user()]);
});
afterAll(() => t?.close());

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const text = (s: string) => Buffer.from(s, 'utf8');

/** Builds a real multipart body the way a browser's FormData would. */
async function multipart(parts: { name?: string; filename: string; data: Buffer; type?: string }[]) {
  const form = new FormData();
  for (const p of parts) form.append(p.name ?? 'files', new Blob([new Uint8Array(p.data)], { type: p.type ?? 'application/octet-stream' }), p.filename);
  const res = new Response(form);
  return { payload: Buffer.from(await res.arrayBuffer()), contentType: defined(res.headers.get('content-type'), 'a multipart content type') };
}

async function upload(user: TestUser | null, parts: Parameters<typeof multipart>[0]) {
  const { payload, contentType } = await multipart(parts);
  return t.app.inject({ method: 'POST', url: '/api/user/files', headers: { ...(user?.headers ?? {}), 'content-type': contentType }, payload });
}
const list = async (user: TestUser) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/user/files', headers: user.headers });
  expect(res.statusCode).toBe(200);
  return res.json().data as { id: string; name: string; size: number; contentType: string; sha256: string }[];
};
const download = (user: TestUser | null, id: string) =>
  t.app.inject({ method: 'GET', url: `/api/user/files/${id}`, headers: user?.headers ?? {} });
const storedCount = () => storedFileCount(t.services);

describe('POST /api/user/files', () => {
  it('needs a token', async () => {
    expect((await upload(null, [{ filename: 'a.txt', data: text('hi') }])).statusCode).toBe(401);
  });

  it('stores one file and answers SUCCESS with its description', async () => {
    const res = await upload(alice, [{ filename: 'C:\\Users\\me\\note.txt', data: text('my evidence') }]);
    expect(res.statusCode).toBe(201);
    const body = res.json().data;
    expect(body).toMatchObject({ code: 'SUCCESS', message: 'Files uploaded successfully' });
    expect(body.files).toHaveLength(1);
    expect(body.files[0]).toMatchObject({
      name: 'note.txt',
      size: 11,
      contentType: 'text/plain',
      sha256: createHash('sha256').update('my evidence').digest('hex'),
    });
    const [row] = await t.services.db.select().from(files).where(eq(files.id, body.files[0].id));
    expect(row).toMatchObject({ userId: alice.uid, kind: 'general' });
  });

  it('stores two files sent in one request', async () => {
    const res = await upload(alice, [
      { filename: 'screenshot.png', data: PNG, type: 'image/png' },
      { filename: 'story.txt', data: text('what happened') },
    ]);
    expect(res.statusCode).toBe(201);
    const uploaded = res.json().data.files as { id: string; name: string; contentType: string }[];
    expect(uploaded.map((f) => [f.name, f.contentType])).toEqual([
      ['screenshot.png', 'image/png'],
      ['story.txt', 'text/plain'],
    ]);
    const names = (await list(alice)).map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['screenshot.png', 'story.txt', 'note.txt']));
  });

  it('answers 413 in the error shape for a file over the cap, and stores nothing', async () => {
    const before = (await list(alice)).length;
    const files0 = await storedCount();
    const res = await upload(alice, [
      { filename: 'ok.txt', data: text('small') },
      { filename: 'big.txt', data: Buffer.alloc(CAP + 1, 'a') },
    ]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: { code: 'FILE_TOO_LARGE', message: 'Each file must be at most 1 KB' } });
    expect((await list(alice)).length).toBe(before);
    expect(await storedCount()).toBe(files0);
    // Exactly at the cap is fine.
    expect((await upload(alice, [{ filename: 'edge.txt', data: Buffer.alloc(CAP, 'b') }])).statusCode).toBe(201);
  });

  it('answers 415 for a disallowed type, judged by content not name, and keeps none of the batch', async () => {
    const files0 = await storedCount();
    const before = (await list(alice)).length;
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0)]);
    const res = await upload(alice, [
      { filename: 'fine.txt', data: text('fine') },
      { filename: 'invoice.pdf', data: exe, type: 'application/pdf' },
    ]);
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toMatchObject({ code: 'UNSUPPORTED_FILE_TYPE', message: expect.stringContaining('invoice.pdf') });
    expect(await storedCount()).toBe(files0);
    expect((await list(alice)).length).toBe(before);
  });

  it('refuses a request without file parts named files', async () => {
    const wrongName = await upload(alice, [{ name: 'file', filename: 'a.txt', data: text('x') }]);
    expect(wrongName.statusCode).toBe(400);
    expect(wrongName.json().error.message).toMatch(/files/);
    const json = await t.app.inject({ method: 'POST', url: '/api/user/files', headers: alice.headers, payload: { files: 'a' } });
    expect(json.statusCode).toBe(400);
    const empty = await upload(alice, [{ filename: 'empty.txt', data: Buffer.alloc(0) }]);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toMatch(/empty/);
  });
});

describe('reading files', () => {
  it('downloads the owner’s file with its type, name and no caching', async () => {
    const res = await upload(alice, [{ filename: 'résumé "final".png', data: PNG, type: 'image/png' }]);
    const id = res.json().data.files[0].id;
    const dl = await download(alice, id);
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-type']).toBe('image/png');
    expect(dl.headers['cache-control']).toBe('private, no-store');
    expect(dl.headers['content-disposition']).toBe(
      `attachment; filename="r_sum_ _final_.png"; filename*=UTF-8''${encodeURIComponent('résumé "final".png')}`,
    );
    expect(dl.rawPayload.equals(PNG)).toBe(true);
  });

  it('hides one user’s files from another: 404 on download, absent from lists', async () => {
    const res = await upload(alice, [{ filename: 'private.txt', data: text('secret') }]);
    const id = res.json().data.files[0].id;
    const theirs = await download(bob, id);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'File not found' } });
    expect(theirs.body).not.toContain('secret');
    expect((await list(bob)).map((f) => f.id)).not.toContain(id);
    expect((await download(null, id)).statusCode).toBe(401);
    expect((await download(alice, randomUUID())).statusCode).toBe(404);
    expect((await download(alice, 'not-a-uuid')).statusCode).toBe(404);
  });

  it('does not serve a final report through this route', async () => {
    const [row] = await t.services.db
      .insert(files)
      .values({ userId: alice.uid, kind: 'final', originalName: 'report.pdf', storedName: 'x.pdf', contentType: 'application/pdf', size: 1, sha256: 'x' })
      .returning();
    expect((await download(alice, row.id)).statusCode).toBe(404);
    expect((await list(alice)).map((f) => f.id)).not.toContain(row.id);
  });
});

describe('PATCH /api/user/attachments', () => {
  const patch = (user: TestUser | null, payload: unknown) =>
    t.app.inject({ method: 'PATCH', url: '/api/user/attachments', headers: user?.headers ?? {}, payload: payload as object });

  it('stores references to the caller’s own files', async () => {
    const up = await upload(alice, [{ filename: 'proof.txt', data: text('proof') }]);
    const fileId = up.json().data.files[0].id;
    const res = await patch(alice, { attachments: [{ fileId, note: 'bank letter' }] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { code: 'SUCCESS', message: 'Attachments updated' } });
    const rows = await t.services.db.select().from(userAttachments).where(eq(userAttachments.userId, alice.uid));
    expect(rows.map((r) => r.payload)).toContainEqual({ attachments: [{ fileId, note: 'bank letter' }] });
  });

  it('answers 404 when a file is someone else’s, 400 for a bad payload, 401 without a token', async () => {
    const up = await upload(alice, [{ filename: 'mine.txt', data: text('mine') }]);
    const aliceFile = up.json().data.files[0].id;
    const bobFile = (await upload(bob, [{ filename: 'bob.txt', data: text('bob') }])).json().data.files[0].id;
    const stolen = await patch(bob, { attachments: [{ fileId: bobFile }, { fileId: aliceFile }] });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json().error.message).toBe(`File ${aliceFile} not found`);
    expect(await t.services.db.select().from(userAttachments).where(eq(userAttachments.userId, bob.uid))).toEqual([]);

    const tooMany = await patch(alice, { attachments: Array.from({ length: 51 }, () => ({ fileId: aliceFile })) });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.message).toMatch(/at most 50/);
    const notList = await patch(alice, { attachments: 'x' });
    expect(notList.statusCode).toBe(400);
    const badId = await patch(alice, { attachments: [{ fileId: 'nope' }] });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().error.message).toMatch(/fileId/);
    const longNote = await patch(alice, { attachments: [{ fileId: aliceFile, note: 'x'.repeat(501) }] });
    expect(longNote.statusCode).toBe(400);
    expect(longNote.json().error.message).toMatch(/note/);
    expect((await patch(null, { attachments: [] })).statusCode).toBe(401);
  });
});

it('the OpenAPI document still builds with the file routes', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
  expect(res.statusCode).toBe(200);
  expect(Object.keys(res.json().paths)).toEqual(expect.arrayContaining(['/api/user/files', '/api/user/files/{fileId}', '/api/user/attachments']));
});
