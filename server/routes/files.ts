import { and, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, UserFile } from '../../domain/schemas.ts';
import { files, userAttachments } from '../db/schema.ts';
import { HttpError, notFound } from '../errors.ts';
import { toUserFile } from '../serialize-messages.ts';
import { UploadedFile } from '../plugins/uploads.ts';
import { UUID, contentDisposition, formatBytes, openStored } from '../storage.ts';

/** One part named `files` arrives as an object, several as an array. A text part named `files` is refused. */
const UploadBody = z.object({
  files: z.union([UploadedFile, z.array(UploadedFile).min(1).max(10)], { error: 'files must be one or more file parts named "files"' }),
});

const UploadResult = envelope(z.object({ code: z.literal('SUCCESS'), message: z.string(), files: z.array(UserFile) }));

export const MAX_ATTACHMENTS = 50;
const AttachmentsBody = z.strictObject({
  attachments: z
    .array(
      z.strictObject({
        fileId: z.uuid('fileId must be a file id'),
        note: z.string().trim().max(500, 'note must be at most 500 characters').optional(),
      }),
      { error: 'attachments must be a list' },
    )
    .max(MAX_ATTACHMENTS, `attachments can hold at most ${MAX_ATTACHMENTS} items`),
});

const FileIdParams = z.strictObject({ fileId: z.string().max(64) });

/** Kinds the owner may download here: what they uploaded themselves. Final reports are gated by payment elsewhere. */
const DOWNLOADABLE = ['general', 'attachment'];

/**
 * General files: POST /user/files (multipart, one or more parts named `files`), GET /user/files (the
 * caller's general files), GET /user/files/:fileId (download), and the spec's PATCH /user/attachments.
 */
export async function fileRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const auth = { onRequest: app.authenticate };

  api.post(
    '/user/files',
    {
      ...auth,
      // @fastify/multipart stops a part at the size cap while the body is read, before our handler runs.
      errorHandler: (error: FastifyError) => {
        if (error.code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new HttpError(413, 'FILE_TOO_LARGE', `Each file must be at most ${formatBytes(app.storage.maxBytes)}`);
        }
        if (error.code === 'FST_FILES_LIMIT') throw new HttpError(413, 'TOO_MANY_FILES', 'At most 10 files can be uploaded at once');
        throw error;
      },
      schema: { tags: ['files'], consumes: ['multipart/form-data'], body: UploadBody, response: { 201: UploadResult } },
    },
    async (request, reply) => {
      const parts = Array.isArray(request.body.files) ? request.body.files : [request.body.files];
      const userId = request.user.uid;
      const rows = await app.db
        .insert(files)
        .values(
          parts.map(({ filename, stored }) => ({
            userId,
            kind: 'general',
            originalName: filename,
            storedName: stored.storedName,
            contentType: stored.contentType,
            size: stored.size,
            sha256: stored.sha256,
          })),
        )
        .returning();
      request.keepUploads();
      await app.events.poke(userId);
      return reply.status(201).send({ data: { code: 'SUCCESS' as const, message: 'Files uploaded successfully', files: rows.map(toUserFile) } });
    },
  );

  api.get('/user/files', { ...auth, schema: { tags: ['files'], response: { 200: envelope(z.array(UserFile)) } } }, async (request) => {
    const rows = await app.db
      .select()
      .from(files)
      .where(and(eq(files.userId, request.user.uid), eq(files.kind, 'general')))
      .orderBy(desc(files.createdAt), desc(files.seq));
    return { data: rows.map(toUserFile) };
  });

  api.get('/user/files/:fileId', { ...auth, schema: { tags: ['files'], params: FileIdParams } }, async (request, reply) => {
    const { fileId } = request.params;
    if (!UUID.test(fileId)) throw notFound('File not found');
    const [row] = await app.db
      .select()
      .from(files)
      .where(and(eq(files.id, fileId), eq(files.userId, request.user.uid), inArray(files.kind, DOWNLOADABLE)));
    if (!row) throw notFound('File not found');
    const data = await openStored(app, row.storedName);
    return reply
      .header('content-type', row.contentType)
      .header('content-length', row.size)
      .header('content-disposition', contentDisposition(row.originalName))
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(data);
  });

  api.patch(
    '/user/attachments',
    {
      ...auth,
      schema: { tags: ['files'], body: AttachmentsBody, response: { 200: envelope(z.object({ code: z.literal('SUCCESS'), message: z.string() })) } },
    },
    async (request) => {
      const userId = request.user.uid;
      const { attachments } = request.body;
      const ids = [...new Set(attachments.map((a) => a.fileId.toLowerCase()))];
      if (ids.length > 0) {
        const owned = await app.db
          .select({ id: files.id })
          .from(files)
          .where(and(eq(files.userId, userId), inArray(files.id, ids)));
        const ownedIds = new Set(owned.map((r) => r.id));
        const missing = ids.find((id) => !ownedIds.has(id));
        if (missing) throw notFound(`File ${missing} not found`);
      }
      await app.db.insert(userAttachments).values({ userId, payload: { attachments } });
      request.log.info({ userId, count: attachments.length }, 'attachments updated');
      await app.events.poke(userId);
      return { data: { code: 'SUCCESS' as const, message: 'Attachments updated' } };
    },
  );
}

