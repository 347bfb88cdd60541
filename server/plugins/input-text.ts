import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { unstorableText } from '../../domain/text.ts';
import { HttpError } from '../errors.ts';

/** The first text (key or value) in a parsed input that cannot be stored: its path and why. */
export function findUnstorable(value: unknown, path: string[] = []): { path: string; reason: string } | null {
  if (typeof value === 'string') {
    const reason = unstorableText(value);
    return reason ? { path: path.join('.'), reason } : null;
  }
  // Arrays and plain objects only: an uploaded file's bytes (a Buffer) are not text.
  if (!Array.isArray(value) && !isPlainObject(value)) return null;
  for (const [key, inner] of Object.entries(value)) {
    const keyReason = unstorableText(key);
    if (keyReason) return { path: [...path, '(key)'].join('.'), reason: keyReason };
    const found = findUnstorable(inner, [...path, key]);
    if (found) return found;
  }
  return null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function check(request: FastifyRequest): void {
  for (const [part, value] of [
    ['params', request.params],
    ['query', request.query],
    ['body', request.body],
  ] as const) {
    const found = findUnstorable(value);
    if (found) throw new HttpError(400, 'VALIDATION_FAILED', `${found.path || part}: ${found.reason}`);
  }
}

/**
 * Every route, before its own schema: a NUL character or an unpaired surrogate anywhere in the path
 * parameters, the query or a JSON body is a 400 naming the field. PostgreSQL refuses both (text cannot
 * hold NUL, jsonb cannot hold a lone surrogate), and a route that forgot to check would answer 500.
 */
export const inputTextPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => check(request));
});
