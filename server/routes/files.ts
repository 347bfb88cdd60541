import type { FastifyError, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, UserFile } from '../../domain/schemas.ts';
import { HttpError } from '../platform/errors.ts';
import { toUserFile } from '../serialize/messages.ts';
import { generalFiles, ownDownloadableFile, recordAttachments, storeGeneralFiles } from '../services/user-files.ts';
import { UploadedFile } from '../plugins/uploads.ts';
import { formatBytes, sendStoredFile } from '../files/storage.ts';

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

/**
 * General files: POST /user/files (multipart, one or more parts named `files`), GET /user/files (the
 * caller's general files), GET /user/files/:fileId (download), and the spec's PATCH /user/attachments;
 * the workflows are services/user-files.ts.
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
      return reply.status(201).send(await storeGeneralFiles(app, request, request.user.uid, parts));
    },
  );

  api.get('/user/files', { ...auth, schema: { tags: ['files'], response: { 200: envelope(z.array(UserFile)) } } }, async (request) => ({
    data: (await generalFiles(app.db, request.user.uid)).map(toUserFile),
  }));

  api.get('/user/files/:fileId', { ...auth, schema: { tags: ['files'], params: FileIdParams } }, async (request, reply) =>
    sendStoredFile(app, reply, await ownDownloadableFile(app.db, request.user.uid, request.params.fileId)),
  );

  api.patch(
    '/user/attachments',
    {
      ...auth,
      schema: { tags: ['files'], body: AttachmentsBody, response: { 200: envelope(z.object({ code: z.literal('SUCCESS'), message: z.string() })) } },
    },
    async (request) => recordAttachments(app, request, request.user.uid, request.body.attachments),
  );
}

