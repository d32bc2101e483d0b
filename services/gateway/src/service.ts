import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import client from 'prom-client';
import {
  bearerToken,
  createJwtVerifier,
  invalidToken,
  type AdminTokenClaims,
  type JwtVerifier,
} from '@readiness/kit/auth';
import {
  createRateLimiter,
  createRevocationList,
  type KeyValueStore,
  type RateLimiter,
  type Redis,
  type RevocationList,
} from '@readiness/kit/cache';
import { AppError, toAppError, unavailable } from '@readiness/kit/errors';
import {
  NO_STORE,
  createInternalApp,
  forwardedClient,
  incomingId,
  requestTracking,
  sendError,
  staticHeaders,
  trustProxySetting,
  type HttpApp,
} from '@readiness/kit/http';
import { redactUrl, type Logger } from '@readiness/kit/logger';
import { defineService, startService, type ServiceParts } from '@readiness/kit/runtime';
import { configSchema, type GatewayConfig } from './config';
import { cors, corsPolicy } from './cors';
import { createApiDocs, mountDocs, type ApiDocsOptions } from './docs';
import { createProxy, sendJson, type ProxyTarget } from './proxy';
import {
  ROUTES,
  isUnsafePath,
  matchRoute,
  routingKey,
  requiresAdmin,
  type RateLimitName,
  studentToken,
  type RouteRule,
  type UpstreamName,
} from './routes';
import { mountWebApp } from './spa';

/** What an in-process caller may give the gateway (the all-in-one launcher, tests). */
export interface GatewayOptions {
  /** Admin token verifier; by default one on `config.AUTH_JWKS_URL`. */
  verifier?: JwtVerifier;
  /** How long the API documentation merged from the upstreams is reused (tests shorten it). */
  apiDocs?: Pick<ApiDocsOptions, 'freshMs' | 'retryMs' | 'timeoutMs'>;
  /** Mounted after the API and before the web app (the all-in-one mounts the dev mail pages here). */
  extraRoutes?: (app: Express) => void;
  /**
   * The all-in-one: the services run in the gateway's process, so its public `/readyz` is theirs too and
   * answers 503 while any of them is not ready (its database unreachable, say).
   */
  readyWithUpstreams?: boolean;
  registry?: client.Registry;
  /** Route table override (tests). */
  routes?: readonly RouteRule[];
}

export interface GatewayDeps extends GatewayOptions {
  config: GatewayConfig;
  logger: Logger;
  /**
   * Rate-limit counters shared by every replica (per-process memory when absent), and the token revocations the
   * auth service writes there: give it the same key prefix as auth's client (`readiness:`).
   */
  redis?: Redis;
  /** Where auth writes revocations when there is no Redis (the all-in-one passes auth's in-memory store). */
  kv?: KeyValueStore;
}

export interface RunningGateway {
  url: string;
  port: number;
  /** `/metrics` and `/readyz?verbose`: never routed publicly. */
  internalUrl: string;
  http: HttpApp;
  stop(): Promise<void>;
}

const UPSTREAM_CONFIG: Record<UpstreamName, keyof GatewayConfig> = {
  auth: 'AUTH_URL',
  assessment: 'ASSESSMENT_URL',
  student: 'STUDENT_URL',
  results: 'RESULTS_URL',
  report: 'REPORT_URL',
  notification: 'NOTIFICATION_URL',
};

function upstreamTargets(config: GatewayConfig): Partial<Record<UpstreamName, ProxyTarget>> {
  const targets: Partial<Record<UpstreamName, ProxyTarget>> = {};
  for (const [name, key] of Object.entries(UPSTREAM_CONFIG) as [UpstreamName, keyof GatewayConfig][]) {
    const value = config[key];
    if (typeof value === 'string' && value) targets[name] = { name, baseUrl: new URL(value) };
  }
  return targets;
}

/** How long a signature check is reused; also how long a removed signing key still counts at the gateway. */
const VERIFIED_TOKEN_TTL_MS = 60_000;
const VERIFIED_TOKEN_LIMIT = 10_000;

/**
 * Tokens whose signature, issuer and audience were checked, reused for a minute and never past their expiry:
 * an admin's token verifies once instead of on every call (an RS256 check was a third of the gateway's CPU on
 * an authenticated read). Revocation is still checked on every request, and every service verifies again.
 */
function verifiedTokens(): {
  get(token: string): AdminTokenClaims | undefined;
  remember(token: string, claims: AdminTokenClaims): AdminTokenClaims;
} {
  const entries = new Map<string, { claims: AdminTokenClaims; until: number }>();
  return {
    get(token) {
      const entry = entries.get(token);
      if (!entry) return undefined;
      if (entry.until > Date.now()) return entry.claims;
      entries.delete(token);
      return undefined;
    },
    remember(token, claims) {
      const now = Date.now();
      const until = Math.min(now + VERIFIED_TOKEN_TTL_MS, claims.exp * 1000);
      if (until > now) {
        // Oldest first out: a Map iterates in insertion order.
        if (entries.size >= VERIFIED_TOKEN_LIMIT) entries.delete(entries.keys().next().value as string);
        entries.set(token, { claims, until });
      }
      return claims;
    },
  };
}

/** An IPv4 client as itself rather than in its v4-in-v6 form (`::ffff:10.0.0.1`). */
function plainAddress(address: string | undefined): string {
  if (!address) return 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/** A multipart body (type-is semantics: the media type before any parameter). */
function isMultipart(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  return type !== undefined && /^multipart\/form-data\s*(?:;|$)/i.test(type);
}

/** Above this a proxied request is logged at info even when it succeeded. */
const SLOW_REQUEST_SECONDS = 1;

/**
 * One histogram sample per request, as the kit's request tracking records it, for the answers the gateway writes
 * without Express. The log line is at info for refusals, failures and slow answers; a quick success is logged at
 * debug, because the service that answered logs the same request (same request id) and the line cost a tenth of
 * the gateway's CPU per proxied request.
 */
function requestObserver(
  duration: client.Histogram<'method' | 'route' | 'status'>,
  logger: Logger,
): (
  req: IncomingMessage,
  res: ServerResponse,
  route: string,
  requestId: string,
  correlationId: string,
) => void {
  const series = new Map<string, client.Histogram.Internal<'method' | 'route' | 'status'>>();
  return (req, res, route, requestId, correlationId) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const method = req.method ?? 'GET';
      const key = `${method} ${route} ${res.statusCode}`;
      let child = series.get(key);
      if (!child) {
        child = duration.labels({ method, route, status: String(res.statusCode) });
        series.set(key, child);
      }
      child.observe(seconds);
      const level = res.statusCode >= 400 || seconds > SLOW_REQUEST_SECONDS ? 'info' : 'debug';
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          requestId,
          correlationId,
          method,
          url: redactUrl(req.url ?? '/'),
          status: res.statusCode,
          ms: Math.round(seconds * 1000),
        },
        'request',
      );
    });
  };
}

async function probe(url: URL): Promise<'ready' | 'not ready' | 'unreachable'> {
  try {
    const res = await fetch(new URL('/readyz', url), { signal: AbortSignal.timeout(2000) });
    await res.body?.cancel();
    return res.ok ? 'ready' : 'not ready';
  } catch {
    return 'unreachable';
  }
}

/**
 * The API gateway: the one public entry. It does not parse request bodies (the kit's HTTP app
 * does, which is why the gateway builds its own Express app): bodies stream through the proxy.
 */
const REVOCATION_WARN_INTERVAL_MS = 60_000;

/**
 * Refuses signed-out tokens (logout, disabled account, password reset) at the edge, from the list auth writes.
 * When the store cannot answer the check fails OPEN: auth re-checks revocation on every admin request it serves, so
 * a Redis outage costs a proxied request to a revoked token, not every admin's access to the portal. The failures
 * are counted and logged (at most once a minute) so the outage is visible.
 */
function revocationCheck(
  store: KeyValueStore | undefined,
  registry: client.Registry,
  logger: Logger,
): (claims: { jti?: string; sub?: string; iat?: number }) => Promise<boolean> {
  if (!store) {
    logger.warn('no Redis or shared store: revoked tokens are refused by the services, not at the gateway');
    return async () => false;
  }
  const revocations: RevocationList = createRevocationList(store);
  const failures = new client.Counter({
    name: 'gateway_revocation_check_failures_total',
    help: 'Token revocation checks that could not reach the store and let the token through (fail open)',
    registers: [registry],
  });
  let lastWarned = 0;
  return async (claims) => {
    try {
      return await revocations.isTokenRevoked(claims);
    } catch (err) {
      failures.inc();
      if (Date.now() - lastWarned >= REVOCATION_WARN_INTERVAL_MS) {
        lastWarned = Date.now();
        logger.warn({ err }, 'token revocation check failed; letting the token through to the services');
      }
      return false;
    }
  };
}

/**
 * The gateway, declared for the kit's runtime: no database and no bus, but the same config, adapters (Redis or
 * the process's shared store), HTTP lifecycle, readiness and shutdown as every service.
 */
export const gatewayService = defineService({
  name: 'gateway',
  config: configSchema,
  uses: { kv: true },
  // The gateway checks admin tokens on every admin route itself, before proxying.
  adminGuard: false,
  setup: (ctx, options?: GatewayOptions) =>
    buildGateway(
      { ...options, config: ctx.config, logger: ctx.logger, redis: ctx.redis, kv: ctx.kv },
      ctx.registry,
    ),
});

/** Starts the gateway in-process through the runtime (tests); `main.ts` and the launcher use the module. */
export async function start(deps: GatewayDeps): Promise<RunningGateway> {
  const { config, logger, redis, kv, ...options } = deps;
  const service = await startService(gatewayService, {
    parsedConfig: config,
    logger,
    adapters: { redis },
    shared: { kv },
    options,
  });
  return {
    url: service.url,
    port: service.port,
    internalUrl: service.internalUrl,
    http: service.http,
    stop: () => service.stop(),
  };
}

/** Every limit the gateway keeps: the API-wide one, the per-route ones, and the student flow's per-token ones. */
type LimitName = 'api' | RateLimitName | 'studentToken' | 'studentTokenWrite';

function buildGateway(deps: GatewayDeps, runtimeRegistry: client.Registry): ServiceParts<undefined> {
  const { config, logger } = deps;
  const registry = deps.registry ?? runtimeRegistry;
  const duration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route group and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const rateLimited = new client.Counter({
    name: 'gateway_rate_limited_total',
    help: 'Requests refused with 429, by limit',
    labelNames: ['limit'],
    registers: [registry],
  });

  const routes = deps.routes ?? ROUTES;
  const upstreams = upstreamTargets(config);
  const verifier =
    deps.verifier ??
    (config.AUTH_JWKS_URL
      ? createJwtVerifier({
          jwksUrl: config.AUTH_JWKS_URL,
          issuer: config.JWT_ISSUER,
          audience: config.JWT_AUDIENCE,
          logger,
        })
      : undefined);
  const proxy = createProxy({ logger, registry });
  const checkRevoked = revocationCheck(deps.kv, registry, logger);
  const store = deps.redis ? ('redis' as const) : ('memory' as const);
  const limiter = (keyPrefix: string, points: number, blockDurationSeconds = 0): RateLimiter =>
    createRateLimiter({
      store,
      redis: deps.redis,
      keyPrefix: `gateway:${keyPrefix}`,
      points,
      durationSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
      blockDurationSeconds,
      logger,
    });
  const limits: Record<LimitName, RateLimiter> = {
    api: limiter('api', config.RATE_LIMIT_API),
    // A guesser who keeps going after the limit stays blocked for a while longer.
    login: limiter('login', config.RATE_LIMIT_LOGIN, 5 * config.RATE_LIMIT_WINDOW_SECONDS),
    student: limiter('student', config.RATE_LIMIT_STUDENT, 5 * config.RATE_LIMIT_WINDOW_SECONDS),
    studentToken: limiter('student-token', config.RATE_LIMIT_STUDENT_TOKEN),
    studentWrite: limiter('student-write', config.RATE_LIMIT_STUDENT_WRITES),
    studentTokenWrite: limiter('student-token-write', config.RATE_LIMIT_STUDENT_TOKEN_WRITES),
  };
  /** The limits a request counts against, each with its key: the address, or a digest of the student's token. */
  const limitsFor = (
    path: string,
    rule: RouteRule | undefined,
    address: string,
  ): Array<[LimitName, string]> => {
    const token = studentToken(path);
    const perToken = token ? createHash('sha256').update(token).digest('base64url').slice(0, 22) : undefined;
    switch (rule?.rateLimit) {
      case 'student':
        return perToken
          ? [
              ['student', address],
              ['studentToken', perToken],
            ]
          : [['student', address]];
      case 'studentWrite':
        return perToken
          ? [
              ['studentWrite', address],
              ['studentTokenWrite', perToken],
            ]
          : [['studentWrite', address]];
      case 'login':
        return [
          ['api', address],
          ['login', address],
        ];
      default:
        return path.startsWith('/api/') ? [['api', address]] : [];
    }
  };
  const apiDocs = createApiDocs({
    upstreams: Object.fromEntries(
      (Object.entries(upstreams) as [UpstreamName, ProxyTarget][]).map(([name, target]) => [
        name,
        target.baseUrl,
      ]),
    ),
    routes,
    logger,
    version: '1.0.0',
    ...deps.apiDocs,
  });

  let draining = false;
  const readiness = async (): Promise<boolean> => {
    if (draining) return false;
    if (deps.readyWithUpstreams) {
      const states = await Promise.all(Object.values(upstreams).map((target) => probe(target.baseUrl)));
      if (states.some((state) => state !== 'ready')) return false;
    }
    if (!deps.redis) return true;
    try {
      return (await deps.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  };

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', trustProxySetting(config.TRUSTED_PROXIES));

  const helmetHandler = helmet({
    referrerPolicy: { policy: 'no-referrer' },
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        // The toast library and the docs page inject <style> elements at runtime.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  });
  const securityHeaders = staticHeaders(helmetHandler);
  const decideCors = corsPolicy(config.CORS_ORIGINS);
  const observe = requestObserver(duration, logger);

  const clientOf = forwardedClient(app);
  const verified = verifiedTokens();
  /** A valid admin token that was not signed out, or a 401 (503 without a verifier). */
  const authorise = async (authorization: string | undefined) => {
    const token = bearerToken(authorization);
    if (!token) throw invalidToken();
    if (!verifier) throw unavailable('Service unavailable', 'upstream_unavailable');
    const claims = verified.get(token) ?? verified.remember(token, await verifier.verify(token));
    if (await checkRevoked(claims)) throw invalidToken();
  };
  const consume = async (name: LimitName, key: string) => {
    const decision = await limits[name].consume(key);
    if (decision.allowed) return;
    rateLimited.inc({ limit: name });
    throw new AppError('rate_limited', 'Too many requests, please try again later', 429, {
      details: { retryAfterSeconds: decision.retryAfterSeconds },
    });
  };

  const sendFailure = (
    req: IncomingMessage,
    res: ServerResponse,
    err: unknown,
    headers: readonly string[],
  ) => {
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
  };

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
      const limited = (async () => {
        for (const [name, key] of limitsFor(path, rule, address)) await consume(name, key);
      })();
      // The token is checked while the limit's Redis round trip is under way; a refused limit still answers first.
      const authorised = requiresAdmin(path, rule) ? authorise(req.headers.authorization) : undefined;
      const [limit, token] = await Promise.allSettled([limited, authorised]);
      if (limit.status === 'rejected') throw limit.reason;
      if (token.status === 'rejected') throw token.reason;
      if (!rule) throw new AppError('not_found', 'Not found', 404);
      const target = upstreams[rule.upstream];
      if (!target) throw new AppError('upstream_unavailable', 'Service unavailable', 503);
      const upload = rule.uploads === true && isMultipart(req);
      proxy.forward(req, res, target, {
        timeoutMs: upload ? config.UPLOAD_TIMEOUT_MS : config.UPSTREAM_TIMEOUT_MS,
        maxBodyBytes: upload ? config.UPLOAD_BODY_LIMIT_BYTES : config.JSON_BODY_LIMIT_BYTES,
        url: req.url ?? '/',
        requestId,
        correlationId,
        clientAddress: address,
        protocol: client.protocol,
        responseHeaders: headers,
      });
    })().catch((err: unknown) => sendFailure(req, res, err, headers));
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

  app.use(
    requestTracking({
      logger,
      duration,
      routeLabel: (req) => (req.path.startsWith('/api/') ? 'api' : 'local'),
    }),
  );
  app.use(helmetHandler);
  app.use('/api', (_req, res, next) => {
    res.setHeader('Cache-Control', NO_STORE);
    next();
  });

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  // The probe's answer only; the details are on the internal port.
  app.get('/readyz', async (req, res, next) => {
    if (req.query.verbose !== undefined) {
      next();
      return;
    }
    const ready = await readiness();
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready' });
  });

  const corsHandler = cors(config.CORS_ORIGINS);
  app.use('/api', corsHandler);
  app.use('/.well-known', corsHandler);
  app.use('/api', (req, _res, next) => {
    consume('api', plainAddress(req.ip)).then(() => next(), next);
  });
  mountDocs(app, apiDocs);

  deps.extraRoutes?.(app);
  if (config.WEB_DIST_DIR) mountWebApp(app, config.WEB_DIST_DIR);

  app.use((_req, res) => {
    res.status(404).json({ message: 'Not found', code: 'not_found' });
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    sendError(err, req, res, logger);
  });

  const http: HttpApp = {
    app,
    internalApp: createInternalApp({
      registry,
      ready: readiness,
      // Upstream health is reported, not required: one service down must not take the whole entry point out.
      details: async () => ({
        rateLimitStore: store,
        upstreams: Object.fromEntries(
          await Promise.all(
            (Object.entries(upstreams) as [UpstreamName, ProxyTarget][]).map(
              async ([name, target]) => [name, await probe(target.baseUrl)] as const,
            ),
          ),
        ),
      }),
    }),
    registry,
    setDraining: () => {
      draining = true;
    },
  };
  return {
    app: http,
    // Proxied routes are answered before Express (see `edge`); everything else goes to the app.
    requestListener: (req, res) => {
      if (!edge(req, res)) app(req, res);
    },
    listening(server) {
      // Uploads stream for longer than the kit's default request timeout allows.
      server.requestTimeout = Math.max(config.UPLOAD_TIMEOUT_MS, config.UPSTREAM_TIMEOUT_MS) + 10_000;
      logger.info({ upstreams: Object.keys(upstreams) }, 'gateway upstreams');
    },
    stop: async () => proxy.close(),
  };
}
