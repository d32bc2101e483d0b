import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import client from 'prom-client';
import { bearerToken, createJwtVerifier, invalidToken, type JwtVerifier } from '@readiness/kit/auth';
import {
  createRateLimiter,
  createRevocationList,
  type KeyValueStore,
  type RateLimiter,
  type Redis,
  type RevocationList,
} from '@readiness/kit/cache';
import { AppError, unavailable } from '@readiness/kit/errors';
import { requestTracking, sendError, type HttpApp } from '@readiness/kit/http';
import type { Logger } from '@readiness/kit/logger';
import { defineService, startService, type ServiceParts } from '@readiness/kit/runtime';
import { configSchema, type GatewayConfig } from './config';
import { cors } from './cors';
import { createApiDocs, mountDocs, type ApiDocsOptions } from './docs';
import { createProxy } from './proxy';
import {
  ROUTES,
  matchRoute,
  requiresAdmin,
  type RateLimitName,
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

function upstreamUrls(config: GatewayConfig): Partial<Record<UpstreamName, URL>> {
  const urls: Partial<Record<UpstreamName, URL>> = {};
  for (const [name, key] of Object.entries(UPSTREAM_CONFIG) as [UpstreamName, keyof GatewayConfig][]) {
    const value = config[key];
    if (typeof value === 'string' && value) urls[name] = new URL(value);
  }
  return urls;
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
  return { url: service.url, port: service.port, http: service.http, stop: () => service.stop() };
}

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
  const upstreams = upstreamUrls(config);
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
  const limits: Record<'api' | RateLimitName, RateLimiter> = {
    api: limiter('api', config.RATE_LIMIT_API),
    // A guesser who keeps going after the limit stays blocked for a while longer.
    login: limiter('login', config.RATE_LIMIT_LOGIN, 5 * config.RATE_LIMIT_WINDOW_SECONDS),
    student: limiter('student', config.RATE_LIMIT_STUDENT, 5 * config.RATE_LIMIT_WINDOW_SECONDS),
  };
  const apiDocs = createApiDocs({ upstreams, routes, logger, version: '1.0.0', ...deps.apiDocs });

  let draining = false;
  const readiness = async (): Promise<boolean> => {
    if (draining) return false;
    if (!deps.redis) return true;
    try {
      return (await deps.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');

  app.use(
    requestTracking({
      logger,
      duration,
      routeLabel: (req, res) => {
        const rule = (res.locals as { rule?: RouteRule }).rule;
        return rule ? `proxy:${rule.upstream}` : req.path.startsWith('/api/') ? 'api' : 'local';
      },
    }),
  );

  app.use(
    helmet({
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
    }),
  );

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (req, res) => {
    const ready = await readiness();
    const body: Record<string, unknown> = { status: ready ? 'ready' : 'not ready' };
    if (req.query.verbose !== undefined) {
      // Upstream health is reported, not required: one service down must not take the whole entry point out.
      const entries = await Promise.all(
        (Object.entries(upstreams) as [UpstreamName, URL][]).map(
          async ([name, url]) => [name, await probe(url)] as const,
        ),
      );
      body.rateLimitStore = store;
      body.upstreams = Object.fromEntries(entries);
    }
    res.status(ready ? 200 : 503).json(body);
  });
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', registry.contentType);
    res.send(await registry.metrics());
  });

  const corsHandler = cors(config.CORS_ORIGINS);
  app.use('/api', corsHandler);
  app.use('/.well-known', corsHandler);

  const consume = async (name: 'api' | RateLimitName, req: Request) => {
    const decision = await limits[name].consume(req.ip ?? req.socket.remoteAddress ?? 'unknown');
    if (decision.allowed) return;
    rateLimited.inc({ limit: name });
    throw new AppError('rate_limited', 'Too many requests, please try again later', 429, {
      details: { retryAfterSeconds: decision.retryAfterSeconds },
    });
  };

  app.use('/api', (req, _res, next) => {
    consume('api', req).then(() => next(), next);
  });
  mountDocs(app, apiDocs);

  const proxied = (req: Request, res: Response, next: NextFunction) => {
    const path = req.originalUrl.split('?')[0] ?? '/';
    const rule = matchRoute(req.method, path, routes);
    if (!rule && !requiresAdmin(path, rule)) {
      next();
      return;
    }
    res.locals.rule = rule;
    void (async () => {
      if (rule?.rateLimit) await consume(rule.rateLimit, req);
      if (requiresAdmin(path, rule)) {
        const token = bearerToken(req.headers.authorization);
        if (!token) throw invalidToken();
        if (!verifier) throw unavailable('Service unavailable', 'upstream_unavailable');
        const claims = await verifier.verify(token);
        if (await checkRevoked(claims)) throw invalidToken();
      }
      if (!rule) throw new AppError('not_found', 'Not found', 404);
      const baseUrl = upstreams[rule.upstream];
      if (!baseUrl) throw new AppError('upstream_unavailable', 'Service unavailable', 503);
      const upload = rule.uploads === true && req.is('multipart/form-data') === 'multipart/form-data';
      proxy.forward(
        req,
        res,
        { name: rule.upstream, baseUrl },
        {
          timeoutMs: upload ? config.UPLOAD_TIMEOUT_MS : config.UPSTREAM_TIMEOUT_MS,
          maxBodyBytes: upload ? config.UPLOAD_BODY_LIMIT_BYTES : config.JSON_BODY_LIMIT_BYTES,
          url: req.originalUrl,
          requestId: res.locals.requestId as string,
          correlationId: res.locals.correlationId as string,
        },
      );
    })().catch(next);
  };
  app.use('/api', proxied);
  app.use('/.well-known', proxied);

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
    registry,
    setDraining: () => {
      draining = true;
    },
  };
  return {
    app: http,
    listening(server) {
      // Uploads stream for longer than the kit's default request timeout allows.
      server.requestTimeout = Math.max(config.UPLOAD_TIMEOUT_MS, config.UPSTREAM_TIMEOUT_MS) + 10_000;
      logger.info({ upstreams: Object.keys(upstreams) }, 'gateway upstreams');
    },
    stop: async () => proxy.close(),
  };
}
