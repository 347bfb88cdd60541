import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, UserFile } from '../../domain/schemas.ts';
import type { Db } from '../db/client.ts';
import { files, userAttachments } from '../db/schema.ts';
import { HttpError, notFound } from '../errors.ts';
import { toUserFile } from '../serialize-messages.ts';
import { commandIdOf, insertOnce, settleInTransaction } from '../services/command-ids.ts';
import { UploadedFile } from '../plugins/uploads.ts';
import { UUID, formatBytes, sendStoredFile } from '../storage.ts';

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

type FileRow = typeof files.$inferSelect;

/** The rows an upload under this user's Idempotency-Key stored, in the order it sent them; undefined when none. */
async function filesOfKey(db: Db, userId: string, commandId: string): Promise<FileRow[] | undefined> {
  const rows = await db
    .select()
    .from(files)
    .where(and(eq(files.userId, userId), eq(files.commandId, commandId)))
    .orderBy(asc(files.commandIdPart));
  return rows.length > 0 ? rows : undefined;
}

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
      const commandId = commandIdOf(request);
      const answer = (rows: FileRow[]) => ({ data: { code: 'SUCCESS' as const, message: 'Files uploaded successfully', files: rows.map(toUserFile) } });
      // The rows and the key's answer commit together: a process killed after this commit leaves the key
      // done, and the retry is answered from it instead of storing the files again.
      const stored = await app.db.transaction(async (tx) => {
        const result = await insertOnce(
          commandId,
          (key) => filesOfKey(tx, userId, key),
          async () => {
            const rows = await tx
              .insert(files)
              .values(
                parts.map(({ filename, stored }, part) => ({
                  userId,
                  kind: 'general',
                  originalName: filename,
                  storedName: stored.storedName,
                  contentType: stored.contentType,
                  size: stored.size,
                  sha256: stored.sha256,
                  commandId,
                  commandIdPart: commandId === null ? null : part,
                })),
              )
              .onConflictDoNothing({ target: [files.userId, files.commandId, files.commandIdPart], where: sql`client_key IS NOT NULL` })
              .returning();
            return rows.length > 0 ? rows : undefined;
          },
        );
        await settleInTransaction(tx, request, 201, answer(result.row));
        return result;
      });
      // A rerun of a crashed attempt answers the rows the first one stored; the files this attempt brought are not kept.
      if (stored.created) request.keepUploads();
      await app.events.poke(userId);
      return reply.status(201).send(answer(stored.row));
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
    return sendStoredFile(app, reply, row);
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
      const answer = { data: { code: 'SUCCESS' as const, message: 'Attachments updated' } };
      await app.db.transaction(async (tx) => {
        await tx.insert(userAttachments).values({ userId, payload: { attachments } });
        await settleInTransaction(tx, request, 200, answer);
      });
      request.log.info({ userId, count: attachments.length }, 'attachments updated');
      await app.events.poke(userId);
      return answer;
    },
  );
}

