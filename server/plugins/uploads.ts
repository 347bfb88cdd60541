import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { HttpError } from '../platform/errors.ts';
import { cleanFileName, type StoredFile } from '../files/storage.ts';
import { unreadBodiesPlugin } from './unread-bodies.ts';

/** What a file part of a multipart body becomes: its bytes already in storage, checked, never in memory. */
export const UploadedFile = z.object({
  filename: z.string(),
  mimetype: z.string(),
  stored: z.object({ storedName: z.string(), contentType: z.string(), size: z.number(), sha256: z.string() }),
});
export type UploadedFile = z.infer<typeof UploadedFile>;

export function isUploadedFile(value: unknown): value is UploadedFile {
  return UploadedFile.safeParse(value).success;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The handler took this request's uploaded files into the database: they stay once the answer is sent. */
    keepUploads(): void;
  }
}

/**
 * Multipart bodies, only on routes that declare `consumes: ['multipart/form-data']`; any other route
 * answers 415 before a byte of the body is read. Each file part streams straight into app.storage,
 * which checks its size, type and SHA-256 on the way, so memory stays bounded whatever the upload.
 * The body then reads { field: value } with files as UploadedFile, so validation and idempotency see
 * it whole. Files a request stored but its handler did not keep (a refused field, a replayed
 * Idempotency-Key, an error, a dropped connection) are removed once the request is over.
 */
export const uploadsPlugin = fp(
  async (app: FastifyInstance) => {
    const staged = new WeakMap<FastifyRequest, { files: StoredFile[]; kept: boolean }>();
    // Refusals answer before a body is read to its end, on every route: their connections must stay usable.
    await app.register(unreadBodiesPlugin);

    // After the route's own onRequest guards (who is calling, which body kind a tool takes), before the body is read.
    app.addHook('preParsing', async (request, _reply, payload) => {
      if (isMultipartRequest(request) && !takesFiles(request)) {
        throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'This address takes JSON, not multipart/form-data');
      }
      return payload;
    });

    await app.register(multipart, {
      attachFieldsToBody: 'keyValues',
      limits: { fileSize: app.storage.maxBytes, files: 10, fields: 50, fieldSize: 64 * 1024 },
      async onFile(part) {
        // A browser sends an empty, nameless part for a file input left empty: no file.
        if (part.filename === '') {
          await drain(part.file);
          (part as unknown as { value: unknown }).value = '';
          return;
        }
        const filename = cleanFileName(part.filename);
        const stored = await app.storage.save(part.file, filename);
        const entry = staged.get(this) ?? { files: [], kept: false };
        entry.files.push(stored);
        staged.set(this, entry);
        const file: UploadedFile = { filename, mimetype: part.mimetype, stored };
        (part as unknown as { value: unknown }).value = file;
      },
    });

    app.decorateRequest('keepUploads', function (this: FastifyRequest) {
      const entry = staged.get(this);
      if (entry) entry.kept = true;
    });

    const discard = async (request: FastifyRequest) => {
      const entry = staged.get(request);
      staged.delete(request);
      if (!entry || entry.kept) return;
      await Promise.allSettled(entry.files.map((file) => app.storage.remove(file.storedName)));
    };
    // Before the answer leaves, so whoever reads it finds storage already as it will stay.
    app.addHook('onSend', async (request, _reply, payload) => {
      await discard(request);
      return payload;
    });
    app.addHook('onRequestAbort', discard);
  },
  { name: 'uploads', dependencies: ['storage'] },
);

/** From the header, so it can be known before the body is read (the parser's own request.isMultipart() is set while parsing). */
export function isMultipartRequest(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data');
}

function takesFiles(request: FastifyRequest): boolean {
  const consumes = (request.routeOptions.schema as { consumes?: string[] } | undefined)?.consumes;
  return !!consumes?.includes('multipart/form-data');
}

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _chunk of stream) {
    // discarded
  }
}
