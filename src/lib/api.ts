import type { z } from 'zod';
import { ApiError as ApiErrorShape } from '../../domain/schemas.ts';
import { ApiError, NetworkError } from './api-errors.ts';
import { getIdToken } from './firebase.ts';
import { noteSessionAnswer } from './session-signals.ts';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  /** A token to use instead of the current one (the outbox passes a fresh one per attempt). */
  token?: string | null;
  keepalive?: boolean;
  signal?: AbortSignal;
}

export async function apiRequest(path: string, opts: RequestOptions = {}): Promise<Response> {
  const token = opts.token === undefined ? await getIdToken() : opts.token;
  const headers: Record<string, string> = { ...opts.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (opts.form) body = opts.form;
  else if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  }
  let res: Response;
  try {
    res = await fetch(`/api${path}`, { method: opts.method ?? 'GET', headers, body, keepalive: opts.keepalive, signal: opts.signal });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new NetworkError(err instanceof Error ? err.message : 'Network error');
  }
  // A session ended elsewhere or a second factor still to verify concerns the whole app, not only this caller.
  await noteSessionAnswer(res);
  return res;
}

/** Reads `{ data }` and validates it with the given schema; anything else is an ApiError. */
export async function readData<T extends z.ZodType>(res: Response, schema: T): Promise<z.infer<T>> {
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    // The answer was cut mid-body: the request may have been applied, so it is a network problem.
    throw new NetworkError(err instanceof Error ? err.message : 'Connection lost');
  }
  let payload: unknown = null;
  try {
    payload = text ? JSON.parse(text) : null;
  } catch {
    payload = null;
  }
  if (!res.ok) throw toApiError(res.status, payload);
  const data = (payload as { data?: unknown } | null)?.data;
  // The spec: every call's response must carry data, otherwise it fails.
  if (data === undefined || data === null) throw new ApiError(res.status, 'NO_DATA', 'Something went wrong.');
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new ApiError(res.status, 'BAD_RESPONSE', 'Something went wrong.');
  return parsed.data;
}

export function toApiError(status: number, payload: unknown): ApiError {
  const parsed = ApiErrorShape.safeParse(payload);
  return parsed.success
    ? new ApiError(status, parsed.data.error.code, parsed.data.error.message, parsed.data.error.details)
    : new ApiError(status, 'HTTP_' + status, `Request failed (${status})`);
}

export async function apiGet<T extends z.ZodType>(path: string, schema: T, opts: RequestOptions = {}): Promise<z.infer<T>> {
  return readData(await apiRequest(path, opts), schema);
}

export async function apiSend<T extends z.ZodType>(path: string, method: 'POST' | 'PUT' | 'PATCH', json: unknown, schema: T): Promise<z.infer<T>> {
  return readData(await apiRequest(path, { method, json }), schema);
}
