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

/** Turns anything thrown into an AppError without leaking internal messages. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = err as { type?: string; status?: number; code?: string; message?: string } | undefined;
  // body-parser errors carry a `type` and an HTTP status.
  if (e?.type === 'entity.too.large') return new AppError('payload_too_large', 'Request body is too large', 413);
  if (e?.type === 'entity.parse.failed') return new AppError('invalid_json', 'Request body is not valid JSON', 400);
  if (e?.type && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    return new AppError('bad_request', 'Request could not be read', e.status);
  }
  // Connection failures to PostgreSQL, Redis or RabbitMQ: the caller may retry.
  if (e?.code && ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P03', '08006', '08001'].includes(e.code)) {
    return new AppError('unavailable', 'Service temporarily unavailable', 503, { cause: err });
  }
  return new AppError('internal', 'Internal server error', 500, { cause: err });
}
