import type { RequestHandler } from 'express';

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const ALLOWED_HEADERS = 'authorization, content-type, x-request-id, x-correlation-id, x-xsrf-token';
const EXPOSED_HEADERS = 'x-request-id, x-correlation-id, retry-after, content-disposition';

/**
 * CORS for the origins in the allow-list only. Requests from any other origin get no CORS headers,
 * so the browser keeps their answers from the page; preflights from them are refused outright.
 * The web app served by the gateway is same-origin and needs none of this.
 */
export function cors(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (!origin) {
      next();
      return;
    }
    res.vary('Origin');
    const isAllowed = allowed.has(origin);
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    if (isAllowed) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    }
    if (!preflight) {
      next();
      return;
    }
    if (!isAllowed) {
      res.status(403).json({ message: 'Origin not allowed', code: 'cors_origin_not_allowed' });
      return;
    }
    res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
    res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
  };
}
