import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { HttpError } from './errors.ts';

/** Types accepted for evidence, checked from the bytes themselves, never from the file name. */
const ALLOWED = new Set([
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/heic',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'text/plain',
]);

export interface StoredFile {
  storedName: string;
  contentType: string;
  size: number;
  sha256: string;
}

export interface Storage {
  maxBytes: number;
  /** Checks type and size, then writes under a server-made name. Throws 413 or 415 as HttpError. */
  save(data: Buffer, originalName: string): Promise<StoredFile>;
  read(storedName: string): Promise<Buffer>;
  remove(storedName: string): Promise<void>;
}

export async function sniffType(data: Buffer): Promise<string | null> {
  const detected = await fileTypeFromBuffer(data);
  if (detected) return detected.mime;
  return looksLikeText(data) ? 'text/plain' : null;
}

function looksLikeText(data: Buffer): boolean {
  if (data.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
    return true;
  } catch {
    return false;
  }
}

export function createDiskStorage(dir: string, maxBytes: number): Storage {
  return {
    maxBytes,
    async save(data, originalName) {
      if (data.length > maxBytes) throw new HttpError(413, 'FILE_TOO_LARGE', `${originalName} is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
      if (data.length === 0) throw new HttpError(400, 'EMPTY_FILE', `${originalName} is empty`);
      const contentType = await sniffType(data);
      if (!contentType || !ALLOWED.has(contentType)) {
        throw new HttpError(415, 'UNSUPPORTED_FILE_TYPE', `${originalName} is not an accepted file type (PDF, image, Word, Excel or plain text)`);
      }
      const ext = contentType === 'text/plain' ? 'txt' : contentType.split('/')[1].split('.').pop();
      const storedName = `${randomUUID()}.${ext}`;
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, storedName), data, { flag: 'wx' });
      return { storedName, contentType, size: data.length, sha256: createHash('sha256').update(data).digest('hex') };
    },
    read: (storedName) => readFile(path.join(dir, path.basename(storedName))),
    remove: (storedName) => rm(path.join(dir, path.basename(storedName)), { force: true }),
  };
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The user's file name, kept for display and Content-Disposition (never for the disk): the last path
 * segment, no control characters, at most 200 characters, never empty. Browsers send a double quote in
 * a multipart file name as %22 (HTML's form encoding), so it is restored.
 */
export function cleanFileName(raw: string): string {
  const base = (raw.split(/[\\/]/).pop() ?? '').replace(/%22/g, '"');
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(-200);
  return clean || 'file';
}

/** RFC 6266: an ASCII fallback plus the exact UTF-8 name. */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${+(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}
