/** An error that becomes `{ error: { code, message, details? } }` with its status (docs/api.md). */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly code: string;
  /** Extra facts for the caller, sent as `error.details` (e.g. the current status and the allowed ones). */
  readonly details?: Record<string, unknown>;
  constructor(statusCode: number, code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
    this.details = details;
  }
}

export const unauthorized = (message = 'Missing or invalid identity token') => new HttpError(401, 'UNAUTHORIZED', message);
export const forbidden = (message = 'Admins only') => new HttpError(403, 'FORBIDDEN', message);
export const notFound = (message = 'Not found') => new HttpError(404, 'NOT_FOUND', message);
export const conflict = (code: string, message: string, details?: Record<string, unknown>) => new HttpError(409, code, message, details);
