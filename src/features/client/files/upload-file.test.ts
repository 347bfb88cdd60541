import { describe, expect, it } from 'vitest';
import { formatSize, readOutcome, uploadFile } from './upload-file.ts';

/** Just enough of XMLHttpRequest to drive uploadFile: progress, then an answer. */
class FakeXhr {
  static last: FakeXhr;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

const createXhr = () => new FakeXhr() as unknown as XMLHttpRequest;

describe('uploadFile', () => {
  it('posts one part named files with the bearer token and reports progress', async () => {
    const seen: number[] = [];
    const file = new File(['hello'], 'a.txt', { type: 'text/plain' });
    const done = uploadFile(file, { token: 'tok', onProgress: (p) => seen.push(p), createXhr });
    const xhr = FakeXhr.last;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/user/files');
    expect(xhr.headers.authorization).toBe('Bearer tok');
    expect((xhr.body?.get('files') as File).name).toBe('a.txt');
    xhr.progress(1, 4);
    xhr.progress(4, 4);
    xhr.answer(201, { data: { code: 'SUCCESS', message: 'Files uploaded successfully', files: [] } });
    expect(await done).toEqual({ ok: true, code: 'SUCCESS', message: 'Files uploaded successfully' });
    expect(seen).toEqual([25, 100]);
  });

  it("returns the server's message on a refusal", async () => {
    const done = uploadFile(new File(['x'], 'big.bin'), { token: null, onProgress: () => undefined, createXhr });
    FakeXhr.last.answer(413, { error: { code: 'FILE_TOO_LARGE', message: 'Each file must be at most 10 MB' } });
    expect(await done).toEqual({ ok: false, status: 413, message: 'Each file must be at most 10 MB', network: false });
    expect(FakeXhr.last.headers.authorization).toBeUndefined();
  });

  it('marks a connection failure as a network problem', async () => {
    const done = uploadFile(new File(['x'], 'a'), { token: 't', onProgress: () => undefined, createXhr });
    FakeXhr.last.onerror?.();
    expect(await done).toMatchObject({ ok: false, network: true });
  });

  it('aborts when the signal fires', async () => {
    const controller = new AbortController();
    const done = uploadFile(new File(['x'], 'a'), { token: 't', onProgress: () => undefined, createXhr, signal: controller.signal });
    controller.abort();
    expect(await done).toMatchObject({ ok: false, network: false });
  });
});

describe('readOutcome', () => {
  it('fails an answer without data, and unreadable error bodies', () => {
    expect(readOutcome(201, '{}')).toMatchObject({ ok: false, message: 'Something went wrong.' });
    expect(readOutcome(500, 'oops')).toMatchObject({ ok: false, status: 500, message: 'Something went wrong.' });
  });
});

describe('formatSize', () => {
  it('picks a readable unit', () => {
    expect(formatSize(12)).toBe('12 bytes');
    expect(formatSize(2048)).toBe('2 KB');
    expect(formatSize(1.5 * 1024 * 1024)).toBe('1.5 MB');
  });
});
