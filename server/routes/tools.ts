import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ProductRequest } from '../../domain/schemas.ts';
import { fileFields, toolSubmissionSchema } from '../../domain/tool-schemas.ts';
import { detailKey, tools, type ToolDefinition } from '../../domain/tools.ts';
import type { Db } from '../db/client.ts';
import { files, productRequests } from '../db/schema.ts';
import { HttpError } from '../errors.ts';
import { commandIdConflict, commandIdOf, insertOnce, keyReused, settleInTransaction } from '../services/command-ids.ts';
import { toRequest } from '../serialize.ts';
import { isUploadedFile, type UploadedFile } from '../plugins/uploads.ts';
import { type StoredFile, formatBytes } from '../storage.ts';

const unknownFieldError = (tool: ToolDefinition) => (issue: { code?: string; keys?: string[] }) =>
  issue.code === 'unrecognized_keys' && issue.keys
    ? issue.keys.map((k) => `${k} is not a field of ${tool.header}`).join('; ')
    : undefined;

/** JSON tools: `{ [hrefBackend]: { ...fields } }`, the fields checked by the catalogue's schema. */
export function jsonToolBody(tool: ToolDefinition) {
  const inner = toolSubmissionSchema(tool, 'json');
  return z.strictObject(
    { [tool.hrefBackend]: z.strictObject(inner.shape, { error: unknownFieldError(tool) }) },
    { error: unknownFieldError(tool) },
  );
}

/**
 * Multipart tools: the non-file fields as strings (numbers and dates converted by the catalogue's
 * schema), each file field one optional file. A browser sends an empty file part for an empty file
 * input; server/plugins/uploads.ts makes it '', which counts as no file.
 */
export function multipartToolBody(tool: ToolDefinition) {
  const shape: Record<string, z.ZodType> = { ...toolSubmissionSchema(tool, 'multipart').shape };
  for (const field of fileFields(tool)) {
    shape[field.backendHeader] = z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.custom<UploadedFile>(isUploadedFile, { error: `${field.backendHeader} must be a single file` }).optional(),
    );
  }
  return z.strictObject(shape, { error: unknownFieldError(tool) });
}

const Created = z.object({ data: ProductRequest });

/**
 * POST /api/{hrefBackend} for each tool of the catalogue. A submission is stored whole or not at all:
 * its files stream into storage while the body is read (server/plugins/uploads.ts), then the request,
 * its file rows and its Idempotency-Key record go in one transaction; the files are kept only when
 * that commits, else removed before the answer. A rerun of a key whose request is stored (a crashed
 * attempt taken over) answers that request and keeps nothing new.
 */
export async function toolRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  const requireClient = async (request: FastifyRequest) => {
    if (!request.user.isClient) {
      throw new HttpError(403, 'NOT_A_CLIENT', 'Your account is awaiting approval: new requests can be opened once you are approved as a client.');
    }
  };

  // The body kind is checked from the header before anything is parsed, so a wrong kind never reaches storage.
  const requireBodyKind = (tool: ToolDefinition) => async (request: FastifyRequest) => {
    const type = (request.headers['content-type'] ?? '').toLowerCase();
    const isMultipart = type.startsWith('multipart/form-data');
    if (tool.isFormData && !isMultipart) {
      throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', `${tool.header} requests must be sent as multipart/form-data`);
    }
    if (!tool.isFormData && !type.startsWith('application/json')) {
      throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', `${tool.header} requests must be sent as JSON (application/json)`);
    }
  };

  // @fastify/multipart's size cap fails inside its own parsing; give it this API's wording.
  const errorHandler = (error: FastifyError, _request: FastifyRequest, _reply: FastifyReply) => {
    if (error.code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new HttpError(413, 'FILE_TOO_LARGE', `Each file must be at most ${formatBytes(app.storage.maxBytes)}`);
    }
    throw error;
  };

  for (const tool of tools) {
    api.post(
      `/${tool.hrefBackend}`,
      {
        onRequest: [app.authenticate, requireClient, requireBodyKind(tool)],
        errorHandler,
        schema: {
          tags: ['tools'],
          summary: `Order ${tool.header}`,
          ...(tool.isFormData ? { consumes: ['multipart/form-data'] } : {}),
          description: tool.isFormData
            ? `multipart/form-data: ${tool.formFields.map((f) => `${f.backendHeader} (${f.type})`).join(', ')}`
            : `JSON wrapped under "${tool.hrefBackend}"`,
          body: tool.isFormData ? multipartToolBody(tool) : jsonToolBody(tool),
          response: { 201: Created },
        },
      },
      async (request, reply) => {
        const uid = request.user.uid;
        const body = request.body as Record<string, unknown>;
        const fields = (tool.isFormData ? body : body[tool.hrefBackend]) as Record<string, unknown>;
        const commandId = commandIdOf(request);
        // A rerun of a crashed attempt answers the request it stored; the files this attempt brought are not kept.
        const first = commandId === null ? undefined : await firstRequest(app.db, uid, commandId);
        if (first) return reply.status(201).send({ data: toRequest(sameTool(first, tool)) });

        const stored = await app.db.transaction(async (tx) => {
          const result = await insertRequest(tx, { id: randomUUID(), userId: uid, tool, requestDetails: detailsOf(tool, fields), written: uploadsOf(tool, fields), commandId });
          await settleInTransaction(tx, request, 201, { data: toRequest(sameTool(result.row, tool)) });
          return result;
        });
        // An attempt racing this key's first one stored nothing: its files are attached to no row.
        if (stored.created) request.keepUploads();
        await app.events.poke(uid);
        return reply.status(201).send({ data: toRequest(stored.row) });
      },
    );
  }
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
