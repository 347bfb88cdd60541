/**
 * What the request log may say. A download token is a bearer credential (an invoice link is valid for a
 * year), a tracking slug lets anyone record visits, and query strings carry searches by name or email:
 * none of them is written to the log, only where the request went.
 */
export function redactUrl(url: string): string {
  const [path, query] = url.split('?', 2);
  const safePath = path.replace(/^\/api\/download\/.*/, '/api/download/[redacted]').replace(/^\/t\/.*/, '/t/[redacted]');
  return query === undefined ? safePath : `${safePath}?[redacted]`;
}

/** A database error names its query's parameters (names, emails, message texts): kept out of the log. */
function redactMessage(text: string): string {
  return text.replace(/\nparams: [\s\S]*?(?=\n    at |$)/, '\nparams: [redacted]');
}

interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
  code?: unknown;
  statusCode?: unknown;
  query?: unknown;
  cause?: LoggedError;
}

function serializeError(err: unknown, depth = 0): LoggedError {
  if (!(err instanceof Error)) return { type: typeof err, message: '[not an Error]', stack: '' };
  const e = err as Error & { code?: unknown; statusCode?: unknown; query?: unknown };
  return {
    type: e.constructor.name,
    message: redactMessage(e.message),
    stack: e.stack ? redactMessage(e.stack) : '',
    ...(e.code !== undefined ? { code: e.code } : {}),
    ...(e.statusCode !== undefined ? { statusCode: e.statusCode } : {}),
    // The SQL text is ours and helps; its parameters (`params`) are the users' data and are left out.
    ...(typeof e.query === 'string' ? { query: e.query } : {}),
    ...(e.cause !== undefined && depth < 3 ? { cause: serializeError(e.cause, depth + 1) } : {}),
  };
}

/** Pino serializers for Fastify's logger: the request without secrets, errors without their data. */
export const logSerializers = {
  req(req: { method?: string; url?: string; id?: unknown }) {
    return { method: req.method, url: redactUrl(req.url ?? ''), reqId: req.id };
  },
  err: serializeError,
};
