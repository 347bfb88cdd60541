import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../platform/errors.ts';

/**
 * The deepest nesting of objects and arrays a JSON body may have. The app's own payloads nest a few
 * levels; every walk over a parsed body (the text check, zod, the idempotency key's hash through
 * JSON.stringify) recurses or may recurse, and a body nested 100,000 deep overflows the call stack.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * How deeply the objects and arrays of a JSON text nest, counted in one pass over its characters (no
 * parse, no recursion), stopping as soon as `limit` is passed. Brackets inside strings do not count.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return false;
}

/**
 * Fastify's own JSON parser (secure-json-parse, with its defaults against prototype poisoning), preceded
 * by the depth check on the raw text: a body nested deeper than MAX_JSON_DEPTH is a 400 naming the
 * limit before anything walks it. Registered on the root, so every route's JSON body goes through it.
 */
export const jsonBodyPlugin = fp(
  async (app: FastifyInstance) => {
    const parse = app.getDefaultJsonParser(app.initialConfig.onProtoPoisoning ?? 'error', app.initialConfig.onConstructorPoisoning ?? 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request: FastifyRequest, body: string | Buffer, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
        done(new HttpError(400, 'TOO_DEEP', `The JSON body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep; at most ${MAX_JSON_DEPTH} are accepted.`), undefined);
        return;
      }
      parse(request, text, done);
    });
  },
  { name: 'json-body' },
);
