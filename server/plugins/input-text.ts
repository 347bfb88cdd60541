import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { unstorableText } from '../../domain/text.ts';
import { HttpError } from '../platform/errors.ts';

/** One value still to look at: where it sits is kept as a link to its parent, so a deep value costs no copied paths. */
interface Pending {
  value: unknown;
  key: string | null;
  parent: Pending | null;
  /** The value is a key's text, checked as `(key)` under its parent. */
  isKey?: boolean;
}

function pathOf(at: Pending): string {
  const parts: string[] = [];
  for (let p: Pending | null = at; p; p = p.parent) if (p.key !== null) parts.push(p.key);
  return parts.reverse().join('.');
}

/**
 * The first text (key or value) in a parsed input that cannot be stored: its path and why. It walks with
 * its own stack, not by recursion, so no depth of nesting can overflow the call stack (the JSON parser
 * refuses bodies nested deeper than MAX_JSON_DEPTH before this runs; params and query are flat).
 */
export function findUnstorable(value: unknown): { path: string; reason: string } | null {
  const stack: Pending[] = [{ value, key: null, parent: null }];
  while (stack.length > 0) {
    const at = stack.pop() as Pending;
    if (typeof at.value === 'string') {
      const reason = unstorableText(at.value);
      if (reason) return { path: at.isKey ? [pathOf(at), '(key)'].filter(Boolean).join('.') : pathOf(at), reason };
      continue;
    }
    // Arrays and plain objects only: an uploaded file's bytes (a Buffer) are not text.
    if (!Array.isArray(at.value) && !isPlainObject(at.value)) continue;
    const entries = Object.entries(at.value);
    // Pushed last first, so they are looked at in order; each key before its value.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, inner] = entries[i];
      stack.push({ value: inner, key, parent: at });
      stack.push({ value: key, key: null, parent: at, isKey: true });
    }
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
