import { requestFacts } from '../notify/record.ts';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ProductRequest } from '../../domain/schemas.ts';
import { fileFields } from '../../domain/tool-schemas.ts';
import { detailKey, type ToolDefinition } from '../../domain/tools.ts';
import type { Db } from '../db/client.ts';
import { files, productRequests } from '../db/schema.ts';
import type { StoredFile } from '../files/storage.ts';
import { isUploadedFile } from '../plugins/uploads.ts';
import { toRequest } from '../serialize/rows.ts';
import { commandIdConflict, commandIdOf, insertOnce, keyReused, settleInTransaction } from './command-ids.ts';

/**
 * A client's order of a tool (an outbox command). It is stored whole or not at all: its files are already in
 * storage (server/plugins/uploads.ts), then the request, its file rows and its command id's answer go in one
 * transaction; the files are kept only when that commits. A rerun of a key whose request is stored (a crashed
 * attempt taken over) answers that request and keeps nothing new.
 */
export async function orderTool(app: FastifyInstance, request: FastifyRequest, uid: string, tool: ToolDefinition, fields: Record<string, unknown>): Promise<{ data: ProductRequest }> {
  const commandId = commandIdOf(request);
  // A rerun of a crashed attempt answers the request it stored; the files this attempt brought are not kept.
  const first = commandId === null ? undefined : await firstRequest(app.db, uid, commandId);
  if (first) return { data: toRequest(sameTool(first, tool)) };

  const stored = await app.db.transaction(async (tx) => {
    const result = await insertRequest(tx, { id: randomUUID(), userId: uid, tool, requestDetails: detailsOf(tool, fields), written: uploadsOf(tool, fields), commandId });
    const facts = { ...requestFacts(result.row), clientUid: uid };
    await app.deliveries.record(tx, { kind: 'newRequest', key: `request:${result.row.id}`, to: 'staff', facts });
    await settleInTransaction(tx, request, 201, { data: toRequest(sameTool(result.row, tool)) });
    return result;
  });
  // An attempt racing this key's first one stored nothing: its files are attached to no row.
  if (stored.created) request.keepUploads();
  await app.events.poke(uid);
  return { data: toRequest(stored.row) };
}

type ProductRequestRow = typeof productRequests.$inferSelect;
interface WrittenUpload {
  id: string;
  field: string;
  name: string;
  stored: StoredFile;
}

/** The non-file fields, stored under their detail keys. */
function detailsOf(tool: ToolDefinition, fields: Record<string, unknown>): Record<string, string | number> {
  const requestDetails: Record<string, string | number> = {};
  for (const field of tool.formFields) {
    const value = fields[field.backendHeader];
    if (field.type !== 'file' && (typeof value === 'string' || typeof value === 'number')) {
      requestDetails[detailKey(tool, field.backendHeader)] = value;
    }
  }
  return requestDetails;
}

/** The file parts, already in storage (server/plugins/uploads.ts), as the rows they become. */
function uploadsOf(tool: ToolDefinition, fields: Record<string, unknown>): WrittenUpload[] {
  return fileFields(tool).flatMap((field) => {
    const upload = fields[field.backendHeader];
    return isUploadedFile(upload) ? [{ id: randomUUID(), field: field.backendHeader, name: upload.filename, stored: upload.stored }] : [];
  });
}

/** The request this user's Idempotency-Key already stored, if any. */
async function firstRequest(db: Db, uid: string, commandId: string): Promise<ProductRequestRow | undefined> {
  const [row] = await db
    .select()
    .from(productRequests)
    .where(and(eq(productRequests.userId, uid), eq(productRequests.commandId, commandId)));
  return row;
}

/** A key that stored an order of another tool was not this request's (its claim was pruned since). */
function sameTool(row: ProductRequestRow, tool: ToolDefinition): ProductRequestRow {
  if (row.toolId !== tool.id) throw keyReused();
  return row;
}

interface NewRequest {
  id: string;
  userId: string;
  tool: ToolDefinition;
  requestDetails: Record<string, string | number>;
  written: WrittenUpload[];
  commandId: string | null;
}

/**
 * The request and its file rows, or, when an attempt with the same key got there first (its row
 * conflicts on product_requests_client_key), that attempt's row and no file rows.
 */
async function insertRequest(tx: Db, order: NewRequest): Promise<{ row: ProductRequestRow; created: boolean }> {
  const { id, userId, tool, written, commandId } = order;
  const result = await insertOnce(
    commandId,
    (key) => firstRequest(tx, userId, key),
    async () =>
      (
        await tx
          .insert(productRequests)
          .values({
            id,
            userId,
            toolId: tool.id,
            productRequestType: tool.ToolNameBackend,
            status: 'Pending',
            requestDetails: order.requestDetails,
            attachments: written.map((w) => ({ id: w.id, field: w.field, name: w.name })),
            commandId,
          })
          .onConflictDoNothing(commandIdConflict(productRequests.userId, productRequests.commandId))
          .returning()
      )[0],
  );
  if (result.created && written.length > 0) {
    await tx.insert(files).values(
      written.map((w) => ({
        id: w.id,
        userId,
        kind: 'attachment',
        requestId: id,
        field: w.field,
        originalName: w.name,
        storedName: w.stored.storedName,
        contentType: w.stored.contentType,
        size: w.stored.size,
        sha256: w.stored.sha256,
      })),
    );
  }
  return result;
}
