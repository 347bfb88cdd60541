/** An error that becomes `{ error: { code, message } }` with its status (ARCHITECTURE.md, "The API contract"). */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly code: string;
  constructor(statusCode: number, code: string, message: string) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
  }
}

export const unauthorized = (message = 'Missing or invalid identity token') => new HttpError(401, 'UNAUTHORIZED', message);
export const forbidden = (message = 'Admins only') => new HttpError(403, 'FORBIDDEN', message);
export const notFound = (message = 'Not found') => new HttpError(404, 'NOT_FOUND', message);
