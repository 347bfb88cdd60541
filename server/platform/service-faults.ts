import { HttpError } from './errors.ts';

/**
 * Failures of what the server stands on, the database and the disk, as the answers a client can act
 * on (docs/decisions/023-database-faults.md): the request was not done, and sending it again later
 * will work once the database is back or space is freed. The outbox retries both (5xx).
 */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The server cannot reach its database right now. Please try again in a moment.';
export const STORAGE_FULL_MESSAGE = 'The server is out of storage space; your request is kept on your device and will be sent later';

/** Seconds a client should wait: a restart or failover takes seconds, freeing disk space needs a person. */
export const RETRY_AFTER_SECONDS = { unavailable: 5, full: 60 } as const;

export const databaseUnavailable = () => new HttpError(503, 'DATABASE_UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE);
export const storageFull = () => new HttpError(507, 'STORAGE_FULL', STORAGE_FULL_MESSAGE);

/** Socket errors of a connection that could not be made or was lost. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs of a database that is going away, not yet back, or not accepting this now: class 08
 * (connection exception) is matched by prefix; 57P01 admin_shutdown (pg_terminate_backend, a fast
 * shutdown), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or shutting down), 57014
 * query_canceled (the statement timeout), 53300 too_many_connections, 25006 read_only_sql_transaction
 * (a primary turned standby during a failover).
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '57014', '53300', '25006']);

/** node-postgres's own words for a lost or timed-out connection (its errors carry no code). */
const CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /^Query read timeout$/,
  /^timeout exceeded when trying to connect$/,
  /is not queryable$/,
  /^Client has encountered a connection error/,
];

/** SQLSTATE 53100 disk_full; ENOSPC / EDQUOT from Node's file system. */
const FULL_STATE = '53100';
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);
/** PGlite's file system is emscripten's: ENOSPC is its errno 51, thrown as `ErrnoError { errno: 51 }`. */
const EMSCRIPTEN_ENOSPC = 51;

export type ServiceFault = 'database-unavailable' | 'storage-full';

/**
 * Which fault an error is, looking through the wrappers around the driver's error (drizzle's
 * DrizzleQueryError keeps it as `cause`; a failed connection to a host with several addresses is an
 * AggregateError), or null for any other error.
 */
export function serviceFaultOf(err: unknown): ServiceFault | null {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length > 0 && seen.size < 20) {
    const e = queue.shift();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const { code, name, errno, message, cause, errors } = e as { code?: unknown; name?: unknown; errno?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (code === FULL_STATE || (typeof code === 'string' && FULL_CODES.has(code)) || (name === 'ErrnoError' && errno === EMSCRIPTEN_ENOSPC)) return 'storage-full';
    // Node's own "aborted" (ECONNRESET) is the caller hanging up mid-body, not the database.
    if (message === 'aborted') return null;
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || UNAVAILABLE_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return 'database-unavailable';
    if (typeof message === 'string' && CONNECTION_MESSAGES.some((m) => m.test(message))) return 'database-unavailable';
    queue.push(cause);
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return null;
}

export function isOutOfSpace(err: unknown): boolean {
  return serviceFaultOf(err) === 'storage-full';
}

/** The answer for a fault: the HttpError and how many seconds to wait before sending again. */
export function faultAnswer(fault: ServiceFault): { error: HttpError; retryAfterSeconds: number } {
  return fault === 'storage-full'
    ? { error: storageFull(), retryAfterSeconds: RETRY_AFTER_SECONDS.full }
    : { error: databaseUnavailable(), retryAfterSeconds: RETRY_AFTER_SECONDS.unavailable };
}

/**
 * The words for a start that ran out of space: the step's own when it gave them (the database, the download
 * secret), otherwise the data directory as a whole (its lock, a first file).
 */
export function diskFullMessage(err: unknown, dataDir: string): string {
  if (err instanceof Error && err.message.startsWith('The disk is full')) return err.message;
  return `The disk is full: the server cannot start in ${dataDir} (no space left on device). Free some space and start the server again.`;
}
