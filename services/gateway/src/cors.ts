import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const ALLOWED_HEADERS = 'authorization, content-type, x-request-id, x-correlation-id, x-xsrf-token';
const EXPOSED_HEADERS = 'x-request-id, x-correlation-id, retry-after, content-disposition';
const PREFLIGHT_HEADERS = [
  'access-control-allow-methods',
  ALLOWED_METHODS,
  'access-control-allow-headers',
  ALLOWED_HEADERS,
  'access-control-max-age',
  '600',
];

export interface CorsDecision {
  /** Answer headers as flat (name, value) pairs. */
  headers: string[];
  /** Set for a preflight: answer it with this status and these headers, and proxy nothing. */
  preflight?: 204 | 403;
}

/**
 * CORS for the origins in the allow-list only. Requests from any other origin get no CORS headers,
 * so the browser keeps their answers from the page; preflights from them are refused outright.
 * The web app served by the gateway is same-origin and needs none of this.
 */
export function corsPolicy(allowedOrigins: readonly string[]): (req: IncomingMessage) => CorsDecision {
  const allowed = new Set(allowedOrigins);
  const none: CorsDecision = { headers: [] };
  return (req) => {
    const origin = req.headers.origin;
    if (!origin) return none;
    const headers = ['vary', 'Origin'];
    const isAllowed = allowed.has(origin);
    if (isAllowed) {
      headers.push('access-control-allow-origin', origin, 'access-control-expose-headers', EXPOSED_HEADERS);
    }
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    if (!preflight) return { headers };
    if (!isAllowed) return { headers, preflight: 403 };
    return { headers: [...headers, ...PREFLIGHT_HEADERS], preflight: 204 };
  };
}

/** The same policy as Express middleware, for what the gateway answers itself (the API documentation). */
export function cors(allowedOrigins: readonly string[]): RequestHandler {
  const decide = corsPolicy(allowedOrigins);
  return (req, res, next) => {
    const decision = decide(req);
    for (let i = 0; i < decision.headers.length; i += 2) {
      const name = decision.headers[i] as string;
      const value = decision.headers[i + 1] as string;
      if (name === 'vary') res.vary(value);
      else res.setHeader(name, value);
    }
    if (decision.preflight === 403) {
      res.status(403).json({ message: 'Origin not allowed', code: 'cors_origin_not_allowed' });
    } else if (decision.preflight === 204) {
      res.status(204).end();
    } else {
      next();
    }
  };
}
