import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserFile } from '../../domain/schemas.ts';
import type { Db } from '../db/client.ts';
import { files, userAttachments } from '../db/schema.ts';
import { UUID } from '../files/storage.ts';
import { notFound } from '../platform/errors.ts';
import type { UploadedFile } from '../plugins/uploads.ts';
import { toUserFile } from '../serialize/messages.ts';
import { commandIdOf, insertOnce, settleInTransaction } from './command-ids.ts';

/** A client's general files: uploads (an outbox command), the list, their downloads, and the spec's attachments list. */

type FileRow = typeof files.$inferSelect;

/** Kinds the owner may download here: what they uploaded themselves. Final reports are gated by payment elsewhere. */
const DOWNLOADABLE = ['general', 'attachment'];

/** The rows an upload under this user's Idempotency-Key stored, in the order it sent them; undefined when none. */
async function filesOfKey(db: Db, userId: string, commandId: string): Promise<FileRow[] | undefined> {
  const rows = await db
    .select()
    .from(files)
    .where(and(eq(files.userId, userId), eq(files.commandId, commandId)))
    .orderBy(asc(files.commandIdPart));
  return rows.length > 0 ? rows : undefined;
}

/** The uploads are already in storage (server/plugins/uploads.ts); they are kept once their rows commit. */
export async function storeGeneralFiles(app: FastifyInstance, request: FastifyRequest, userId: string, parts: UploadedFile[]) {
  const commandId = commandIdOf(request);
  const answer = (rows: FileRow[]) => ({ data: { code: 'SUCCESS' as const, message: 'Files uploaded successfully', files: rows.map((row): UserFile => toUserFile(row)) } });
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
  return answer(stored.row);
}

/** The caller's general files, newest first. */
export function generalFiles(db: Db, userId: string) {
  return db
    .select()
    .from(files)
    .where(and(eq(files.userId, userId), eq(files.kind, 'general')))
    .orderBy(desc(files.createdAt), desc(files.seq));
}

/** One file the caller uploaded; anyone else's, or another kind, is 404 like a missing one. */
export async function ownDownloadableFile(db: Db, userId: string, fileId: string) {
  if (!UUID.test(fileId)) throw notFound('File not found');
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.id, fileId), eq(files.userId, userId), inArray(files.kind, DOWNLOADABLE)));
  if (!row) throw notFound('File not found');
  return row;
}

/** The spec's attachments list: every file named must be the caller's; the list is recorded as sent. */
export async function recordAttachments(app: FastifyInstance, request: FastifyRequest, userId: string, attachments: { fileId: string; note?: string }[]) {
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
}
