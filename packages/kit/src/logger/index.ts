import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type Logger } from 'pino';
import { logTraceFields } from '../tracing';

export type { Logger } from 'pino';

export interface RequestContext {
  requestId?: string;
  correlationId?: string;
}

/** Carries request and correlation ids through async work so every log line and event gets them. */
export const requestContext = new AsyncLocalStorage<RequestContext>();

export function currentContext(): RequestContext {
  return requestContext.getStore() ?? {};
}

/** Paths that never reach a log line: credentials, tokens and invitation links. */
const REDACT_PATHS = [
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'accessToken',
  'inviteToken',
  'temporaryPassword',
  '*.password',
  '*.newPassword',
  '*.currentPassword',
  '*.token',
  '*.accessToken',
  '*.inviteToken',
  '*.temporaryPassword',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'res.headers["set-cookie"]',
];

export function createLogger(options: {
  name: string;
  level?: string;
  destination?: pino.DestinationStream;
  /** Paths hidden on top of REDACT_PATHS. */
  redact?: string[];
}): Logger {
  return pino(
    {
      name: options.name,
      level: options.level ?? process.env.LOG_LEVEL ?? 'info',
      redact: { paths: [...REDACT_PATHS, ...(options.redact ?? [])], censor: '[redacted]' },
      base: { service: options.name },
      // Traced, every line names its trace and span (`trace_id`, `span_id`), so a trace leads to its logs.
      mixin: () => ({ ...currentContext(), ...logTraceFields() }),
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination,
  );
}

/**
 * Hides the secrets that travel in URLs: invitation tokens in paths (`/api/student/{token}/…`,
 * `/assessment/{token}`), the signature of a signed certificate link (`…/pdf?expires=…&signature=…`), which
 * alone would let anyone who reads the log download the certificate until it expires, and the authorization
 * code and state of a single sign-on's callback (`…/oidc/callback?code=…&state=…`), which could complete a
 * sign-in still under way.
 */
export function redactUrl(url: string): string {
  return url
    .replace(/\/(student|assessment)\/[^/?#]+/g, '/$1/[redacted]')
    .replace(/(^|[?&])(signature=|code=|state=)[^&#]*/gi, '$1$2[redacted]');
}
