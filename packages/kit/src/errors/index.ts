/**
 * The one error type of the system. Clients receive `{ message, code }`; `cause` stays in the logs.
 */
export class AppError extends Error {
  constructor(
    public readonly code: string,
    message: string,
    public readonly httpStatus = 500,
    options?: { cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.details = options?.details;
  }

  readonly details: Record<string, unknown> | undefined;

  /** Errors a client caused (4xx) are expected; everything else is a defect or an outage. */
  get isOperational(): boolean {
    return this.httpStatus < 500;
  }
}

export const badRequest = (message: string, code = 'bad_request') => new AppError(code, message, 400);
export const unauthorized = (message = 'Not authorized', code = 'unauthorized') =>
  new AppError(code, message, 401);
export const forbidden = (message = 'Forbidden', code = 'forbidden') => new AppError(code, message, 403);
export const notFound = (message = 'Not found', code = 'not_found') => new AppError(code, message, 404);
export const conflict = (message: string, code = 'conflict') => new AppError(code, message, 409);
export const unavailable = (message = 'Service temporarily unavailable', code = 'unavailable') =>
  new AppError(code, message, 503);

/**
 * Thrown by an event handler whose message depends on another that has not arrived yet (a submission whose
 * assessment version is still on its way). The bus keeps retrying it with backoff past `maxAttempts`, for as
 * long as the subscription's wait horizon, instead of dead-lettering it for that reason.
 */
export class NotYetError extends AppError {
  constructor(message: string, code = 'not_yet') {
    super(code, message, 503);
    this.name = 'NotYetError';
  }
}

export const notYet = (message: string, code?: string) => new NotYetError(message, code);

/** Turns anything thrown into an AppError without leaking internal messages. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = err as { type?: string; status?: number; code?: string; message?: string } | undefined;
  // body-parser errors carry a `type` and an HTTP status.
  if (e?.type === 'entity.too.large')
    return new AppError('payload_too_large', 'Request body is too large', 413);
  if (e?.type === 'entity.parse.failed')
    return new AppError('invalid_json', 'Request body is not valid JSON', 400);
  if (e?.type && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    return new AppError('bad_request', 'Request could not be read', e.status);
  }
  // Express's router marks a path parameter that is not valid percent-encoding as a 400 URIError.
  if (err instanceof URIError && e?.status === 400) {
    return new AppError('bad_request', 'Request URL is malformed', 400);
  }
  // http-errors (express.static, send) flags client errors as `expose`; their status is the client's fault.
  const exposed = err as { expose?: unknown; status?: unknown } | undefined;
  if (
    exposed?.expose === true &&
    typeof exposed.status === 'number' &&
    exposed.status >= 400 &&
    exposed.status < 500
  ) {
    return new AppError(
      exposed.status === 404 ? 'not_found' : 'bad_request',
      exposed.status === 404 ? 'Not found' : 'Request could not be processed',
      exposed.status,
    );
  }
  if (isUnavailableError(err)) {
    return new AppError('unavailable', 'Service temporarily unavailable', 503, { cause: loggableCause(err) });
  }
  return new AppError('internal', 'Internal server error', 500, { cause: loggableCause(err) });
}

/**
 * What of an unexpected error may reach the logs. Drizzle's `DrizzleQueryError` spells out the query's
 * parameters in its message (password hashes, outbox payloads), so only the driver error it wraps is kept.
 */
function loggableCause(err: unknown): unknown {
  const wrapped = err as { query?: unknown; params?: unknown; cause?: unknown } | undefined;
  if (err instanceof Error && typeof wrapped?.query === 'string' && Array.isArray(wrapped.params)) {
    return wrapped.cause ?? new Error('database query failed');
  }
  return err;
}

/** Socket errors and PostgreSQL SQLSTATEs that mean "the server is not there right now". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown: the server is stopping or restarting
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the server is starting up
  '53300', // too_many_connections
  '08000', // connection_exception
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08003', // connection_does_not_exist
  '08004', // sqlserver_rejected_establishment_of_sqlconnection
  '08006', // connection_failure
]);

/** node-postgres reports some connection losses with a message and no code. */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  // A prepared statement's table changed shape under a rolling upgrade: the next run is sent unnamed (db/prepared).
  'cached plan must not change result type',
];

/**
 * Connection failures to PostgreSQL, Redis or RabbitMQ: the caller may retry. Drizzle wraps driver errors
 * (`DrizzleQueryError`), so the `cause` chain is searched too.
 */
export function isUnavailableError(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => message.startsWith(m))) return true;
    current = cause;
  }
  return false;
}
