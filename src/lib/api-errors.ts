/** The server answered with an error status; `message` is the server's own text. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** The server's `error.details`, when it sent any (e.g. the current record on a 409 conflict). */
  readonly details?: Record<string, unknown>;
  constructor(status: number, code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** The request never got an answer (offline, DNS, connection cut): the caller should wait, not fail. */
export class NetworkError extends Error {}
