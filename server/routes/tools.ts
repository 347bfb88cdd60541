import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ProductRequest } from '../../domain/schemas.ts';
import { fileFields, toolSubmissionSchema } from '../../domain/tool-schemas.ts';
import { tools, type ToolDefinition } from '../../domain/tools.ts';
import { HttpError } from '../platform/errors.ts';
import { orderTool } from '../services/tool-orders.ts';
import { isUploadedFile, type UploadedFile } from '../plugins/uploads.ts';
import { formatBytes } from '../files/storage.ts';

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
 * POST /api/{hrefBackend} for each tool of the catalogue: the client, the body kind and the fields are checked
 * here (the files stream into storage while the body is read: server/plugins/uploads.ts), then
 * services/tool-orders.ts stores the order whole or not at all.
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
        const body = request.body as Record<string, unknown>;
        const fields = (tool.isFormData ? body : body[tool.hrefBackend]) as Record<string, unknown>;
        return reply.status(201).send(await orderTool(app, request, request.user.uid, tool, fields));
      },
    );
  }
}
