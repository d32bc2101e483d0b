import express from 'express';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import client from 'prom-client';
import { createJwtVerifier, sessionRulesOf, type JwtVerifier } from '@readiness/kit/auth';
import type { KeyValueStore, Redis } from '@readiness/kit/cache';
import {
  NO_STORE,
  createInternalApp,
  mountProbes,
  requestTracking,
  sendError,
  staticHeaders,
  trustProxySetting,
  type HttpApp,
} from '@readiness/kit/http';
import type { Logger } from '@readiness/kit/logger';
import { defineService, startService, type ServiceParts } from '@readiness/kit/runtime';
import { adminAuthoriser } from './admin-tokens';
import { configSchema, type GatewayConfig } from './config';
import { cors, corsPolicy } from './cors';
import { createApiDocs, mountDocs, type ApiDocsOptions } from './docs';
import { createEdge, plainAddress } from './edge';
import { gatewayLimits } from './limits';
import { requestObserver } from './observe';
import { createProxy, type ProxyTarget } from './proxy';
import { ROUTES, UPSTREAMS, type RouteRule, type UpstreamName } from './routes';
import { FRAMED_PAGES, mountWebApp } from './spa';

/** What an in-process caller may give the gateway (the all-in-one launcher, tests). */
export interface GatewayOptions {
  /** Admin token verifier; by default one on `config.AUTH_JWKS_URL`. */
  verifier?: JwtVerifier;
  /** How long the API documentation merged from the upstreams is reused (tests shorten it). */
  apiDocs?: Pick<ApiDocsOptions, 'freshMs' | 'retryMs' | 'timeoutMs'>;
  /** Mounted after the API and before the web app (the all-in-one mounts the dev mail pages here). */
  /** More routes (the all-in-one's caught mail), given the gateway's admin check for those that need one. */
  extraRoutes?: (app: Express, tools: { requireAdmin: RequestHandler }) => void;
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

function upstreamTargets(config: GatewayConfig): Partial<Record<UpstreamName, ProxyTarget>> {
  const targets: Partial<Record<UpstreamName, ProxyTarget>> = {};
  for (const name of UPSTREAMS) {
    // Each upstream's address is its `<NAME>_URL`.
    const value = config[`${name.toUpperCase() as Uppercase<UpstreamName>}_URL`];
    if (typeof value === 'string' && value) targets[name] = { name, baseUrl: new URL(value) };
  }
  return targets;
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

/**
 * The security headers of every answer, the content security policy first. `frameAncestors` other than none (the
 * student's page inside an LMS) drops X-Frame-Options, which cannot name several sites: frame-ancestors decides.
 */
const securityPolicy = (frameAncestors: string[] = ["'none'"]) =>
  helmet({
    ...(frameAncestors[0] === "'none'" ? {} : { xFrameOptions: false }),
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
        frameAncestors,
      },
    },
  });

/** The student's assessment pages, which an LTI launch shows inside the LMS: framed by `origins` only. */
function framedByLms(origins: string[]): RequestHandler {
  const headers = staticHeaders(securityPolicy(origins));
  return (req, res, next) => {
    if (FRAMED_PAGES.test(req.path)) {
      res.removeHeader('X-Frame-Options');
      // The same headers again, but for X-Frame-Options, and this policy's frame-ancestors.
      for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!);
    }
    next();
  };
}

/** Every upstream answers ready (the all-in-one's services, in its process). */
async function upstreamsReady(upstreams: Partial<Record<UpstreamName, ProxyTarget>>) {
  const states = await Promise.all(Object.values(upstreams).map((target) => probe(target.baseUrl)));
  return states.every((state) => state === 'ready');
}

async function redisReady(redis: Redis | undefined) {
  if (!redis) return true;
  try {
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  }
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
  const routes = deps.routes ?? ROUTES;
  const upstreams = upstreamTargets(config);
  const verifier =
    deps.verifier ??
    (config.AUTH_JWKS_URL
      ? createJwtVerifier({
          jwksUrl: config.AUTH_JWKS_URL,
          issuer: config.JWT_ISSUER,
          audience: config.JWT_AUDIENCE,
          sessionRules: sessionRulesOf(config),
          logger,
        })
      : undefined);
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
  const readiness = async () =>
    !draining &&
    (!deps.readyWithUpstreams || (await upstreamsReady(upstreams))) &&
    (await redisReady(deps.redis));

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', trustProxySetting(config.TRUSTED_PROXIES));

  const helmetHandler = securityPolicy();
  const securityHeaders = staticHeaders(helmetHandler);
  const observe = requestObserver(duration, logger);
  const proxy = createProxy({ logger, registry, maxSockets: config.UPSTREAM_MAX_SOCKETS });
  const limits = gatewayLimits({ config, redis: deps.redis, logger, registry });
  const authorise = adminAuthoriser({ verifier, kv: deps.kv, registry, logger });
  const requireAdmin: RequestHandler = (req, _res, next) => {
    authorise(req.headers.authorization).then(() => next(), next);
  };
  const edge = createEdge({
    config,
    logger,
    app,
    routes,
    upstreams,
    proxy,
    limits,
    authorise,
    securityHeaders,
    decideCors: corsPolicy(config.CORS_ORIGINS),
    observe,
    registry,
  });

  app.use(
    requestTracking({
      logger,
      duration,
      routeLabel: (req) => (req.path.startsWith('/api/') ? 'api' : 'local'),
    }),
  );
  app.use(helmetHandler);
  if (config.LTI_FRAME_ANCESTORS.length > 0) app.use(framedByLms(config.LTI_FRAME_ANCESTORS));
  app.use('/api', (_req, res, next) => {
    res.setHeader('Cache-Control', NO_STORE);
    next();
  });

  mountProbes(app, readiness);

  const corsHandler = cors(config.CORS_ORIGINS);
  app.use('/api', corsHandler);
  app.use('/.well-known', corsHandler);
  app.use('/api', (req, _res, next) => {
    limits.consume('api', plainAddress(req.ip)).then(() => next(), next);
  });
  mountDocs(app, apiDocs, config.API_DOCS_PUBLIC ? undefined : requireAdmin);

  deps.extraRoutes?.(app, { requireAdmin });
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
        rateLimitStore: limits.store,
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
    // The pages following the line come back to another gateway (their EventSource reconnects by itself).
    draining: () => edge.streams.endAll(),
    stop: async () => proxy.close(),
  };
}
