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
