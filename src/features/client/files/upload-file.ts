import { ApiError as ApiErrorShape } from '../../../../domain/schemas.ts';

/** What one file's upload ended with. */
export type UploadOutcome =
  | { ok: true; code: string; message: string }
  | { ok: false; status: number; message: string; network: boolean };

export interface UploadOptions {
  token: string | null;
  onProgress(percent: number): void;
  signal?: AbortSignal;
  /** Injected in tests; the browser's XMLHttpRequest otherwise. */
  createXhr?: () => XMLHttpRequest;
}

/**
 * POST /api/user/files with one part named `files`. XMLHttpRequest rather than fetch because only
 * it reports upload progress, which the modal shows per file. Never rejects: the outcome says why.
 */
export function uploadFile(file: File, opts: UploadOptions): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    const xhr = opts.createXhr ? opts.createXhr() : new XMLHttpRequest();
    xhr.open('POST', '/api/user/files');
    if (opts.token) xhr.setRequestHeader('authorization', `Bearer ${opts.token}`);
    xhr.upload.onprogress = (e: ProgressEvent) => {
      if (e.lengthComputable && e.total > 0) opts.onProgress(Math.min(100, Math.round((e.loaded / e.total) * 100)));
    };
    xhr.onload = () => resolve(readOutcome(xhr.status, xhr.responseText));
    xhr.onerror = () => resolve({ ok: false, status: 0, message: 'Network error', network: true });
    xhr.onabort = () => resolve({ ok: false, status: 0, message: 'Upload cancelled', network: false });
    opts.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('files', file, file.name);
    xhr.send(form);
  });
}

/** The answer carries `data.code` and `data.message` on success and `error.message` otherwise. */
export function readOutcome(status: number, body: string): UploadOutcome {
  let payload: unknown = null;
  try {
    payload = body ? JSON.parse(body) : null;
  } catch {
    payload = null;
  }
  if (status >= 200 && status < 300) {
    const data = (payload as { data?: { code?: unknown; message?: unknown } } | null)?.data;
    if (data && typeof data.code === 'string') {
      return { ok: true, code: data.code, message: typeof data.message === 'string' ? data.message : '' };
    }
    return { ok: false, status, message: 'Something went wrong.', network: false };
  }
  const parsed = ApiErrorShape.safeParse(payload);
  return { ok: false, status, message: parsed.success ? parsed.data.error.message : 'Something went wrong.', network: false };
}

/** "1.4 MB", "820 KB", "12 bytes" for the file lists. */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}
