import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';
import type client from 'prom-client';
import { AppError, toAppError } from '@readiness/kit/errors';
import { NO_STORE, forwardedClient, incomingId } from '@readiness/kit/http';
import { redactUrl, type Logger } from '@readiness/kit/logger';
import type { GatewayConfig } from './config';
import type { corsPolicy } from './cors';
import type { gatewayLimits } from './limits';
import type { requestObserver } from './observe';
import { sendJson, type createProxy, type ProxyTarget } from './proxy';
import { arrivalGate, isArrival } from './arrivals';
import { sharedAnswers } from './shared-answers';
import { sharedStreams } from './shared-streams';
import {
  isUnsafePath,
  matchRoute,
  requiresAdmin,
  routingKey,
  type RouteRule,
  type UpstreamName,
} from './routes';

/** How often a waiting page following the line's stream is told it (docs/waiting-room.md). */
const LINE_EVERY_MS = 5_000;
/** How long a busy gateway may take to tell every page once: under the 10 s of silence after which a page polls. */
const LINE_LONGEST_ROUND_MS = 8_000;
/** A stream's longest silence before it is cut (its service sends a comment every 20 s). */
const STREAM_IDLE_MS = 60_000;

/** An IPv4 client as itself rather than in its v4-in-v6 form (`::ffff:10.0.0.1`). */
export function plainAddress(address: string | undefined): string {
  if (!address) return 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/** A multipart body (type-is semantics: the media type before any parameter). */
function isMultipart(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  return type !== undefined && /^multipart\/form-data\s*(?:;|$)/i.test(type);
}

function sendFailure(
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  err: unknown,
  headers: readonly string[],
) {
  const failure = toAppError(err);
  if (failure.httpStatus >= 500) {
    logger.error(
      { err: failure.cause ?? err, code: failure.code, url: redactUrl(req.url ?? '/') },
      'request failed',
    );
  }
  const retryAfter = failure.details?.retryAfterSeconds;
  sendJson(
    res,
    failure.httpStatus,
    failure.message,
    failure.code,
    failure.httpStatus === 429 && retryAfter !== undefined
      ? [...headers, 'retry-after', String(retryAfter)]
      : headers,
  );
}

/**
 * The gateway's edge, which runs before Express: refuses a path that could be read two ways, and proxies the
 * routes of the table without entering Express at all (its per-request setup costs as much CPU as the whole
 * proxy hop). `edge` returns false for everything else, which Express then serves.
 */
export function createEdge(deps: {
  config: GatewayConfig;
  logger: Logger;
  app: Express;
  routes: readonly RouteRule[];
  upstreams: Partial<Record<UpstreamName, ProxyTarget>>;
  proxy: ReturnType<typeof createProxy>;
  limits: ReturnType<typeof gatewayLimits>;
  authorise: (authorization: string | undefined) => Promise<void>;
  securityHeaders: readonly string[];
  decideCors: ReturnType<typeof corsPolicy>;
  observe: ReturnType<typeof requestObserver>;
  registry: client.Registry;
}) {
  const { config, routes, upstreams, proxy, limits, authorise, securityHeaders, decideCors, observe } = deps;
  const clientOf = forwardedClient(deps.app);
  const shared = sharedAnswers(config.UPSTREAM_TIMEOUT_MS);
  const streams = sharedStreams({
    logger: deps.logger,
    everyMs: LINE_EVERY_MS,
    longestRoundMs: LINE_LONGEST_ROUND_MS,
    maxClients: config.LINE_STREAMS_MAX,
    maxPerAddress: config.LINE_STREAMS_PER_ADDRESS,
  });
  const arrivals = arrivalGate({ limit: config.STUDENT_ARRIVALS_IN_FLIGHT, registry: deps.registry });

  /**
   * The hot path, ahead of every other middleware: each header it adds is worked out once at start-up (security
   * headers) or once per request, and written with the answer in one go.
   */
  const proxied = (req: IncomingMessage, res: ServerResponse, path: string, rule: RouteRule | undefined) => {
    const requestId = incomingId(req.headers['x-request-id']) ?? randomUUID();
    const correlationId = incomingId(req.headers['x-correlation-id']) ?? requestId;
    const cors = decideCors(req);
    const headers = [
      ...securityHeaders,
      'x-request-id',
      requestId,
      'x-correlation-id',
      correlationId,
      'cache-control',
      NO_STORE,
      ...cors.headers,
    ];
    observe(req, res, rule ? `proxy:${rule.upstream}` : 'api', requestId, correlationId);
    if (cors.preflight === 403) {
      sendJson(res, 403, 'Origin not allowed', 'cors_origin_not_allowed', headers);
      return;
    }
    if (cors.preflight === 204) {
      res.writeHead(204, headers);
      res.end();
      return;
    }
    const client = clientOf(req);
    const address = plainAddress(client.address);
    void (async () => {
      const limited = limits.consumeAll(limits.limitsFor(path, rule, address));
      // The token is checked while the limit's Redis round trip is under way; a refused limit still answers first.
      const authorised = requiresAdmin(path, rule) ? authorise(req.headers.authorization) : undefined;
      const [limit, token] = await Promise.allSettled([limited, authorised]);
      if (limit.status === 'rejected') throw limit.reason;
      if (token.status === 'rejected') throw token.reason;
      if (!rule) throw new AppError('not_found', 'Not found', 404);
      const target = upstreams[rule.upstream];
      if (!target) throw new AppError('upstream_unavailable', 'Service unavailable', 503);
      if (isArrival(req.method ?? 'GET', path)) {
        await arrivals.enter(res);
        if (res.destroyed) return;
      }
      if (rule.sharedStream && req.method === 'GET') {
        streams.open(req, res, { target, path, address, headers });
        return;
      }
      if (rule.sharedForMs && req.method === 'GET') {
        await shared.send(res, target, path, rule.sharedForMs, headers);
        return;
      }
      const upload = rule.uploads === true && isMultipart(req);
      proxy.forward(req, res, target, {
        timeoutMs: upload
          ? config.UPLOAD_TIMEOUT_MS
          : rule.stream
            ? Math.max(STREAM_IDLE_MS, config.UPSTREAM_TIMEOUT_MS)
            : config.UPSTREAM_TIMEOUT_MS,
        stream: rule.stream,
        maxBodyBytes: upload ? config.UPLOAD_BODY_LIMIT_BYTES : config.JSON_BODY_LIMIT_BYTES,
        url: req.url ?? '/',
        requestId,
        correlationId,
        clientAddress: address,
        protocol: client.protocol,
        responseHeaders: headers,
      });
    })().catch((err: unknown) => sendFailure(deps.logger, req, res, err, headers));
  };

  /**
   * Runs before Express: refuses a path that could be read two ways, and proxies the routes of the table without
   * entering Express at all (its per-request setup costs as much CPU as the whole proxy hop). Returns false for
   * everything else.
   */
  const edge = (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    if (isUnsafePath(path)) {
      const requestId = incomingId(req.headers['x-request-id']) ?? randomUUID();
      observe(req, res, 'refused', requestId, requestId);
      sendJson(res, 400, 'The request path is not allowed', 'invalid_path', [
        ...securityHeaders,
        'x-request-id',
        requestId,
        'cache-control',
        NO_STORE,
      ]);
      return true;
    }
    const key = routingKey(path);
    if (!key.startsWith('/api/') && !key.startsWith('/.well-known/')) return false;
    const rule = matchRoute(req.method ?? 'GET', key, routes);
    if (!rule && !requiresAdmin(key, rule)) return false;
    proxied(req, res, key, rule);
    return true;
  };

  return Object.assign(edge, { streams });
}
