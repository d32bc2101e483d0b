import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, {
  type Express,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import helmet from 'helmet';
import client from 'prom-client';
import type { z } from 'zod';
import { AppError, toAppError } from '../errors';
import { redactUrl, requestContext, type Logger } from '../logger';
import { collectProcessMetrics } from '../metrics';
import { SERVER_KEEP_ALIVE_MS } from './keep-alive';
import { refuseNul } from './text';

export { htmlPage, sendErrorPage, sendPage } from './html-page';
export { POOLED_CONNECTION_IDLE_MS, SERVER_KEEP_ALIVE_MS } from './keep-alive';
export {
  EMAIL_PATTERN,
  emailField,
  personNameField,
  refuseNul,
  textField,
  type TextFieldOptions,
} from './text';

export interface AppOptions {
  name: string;
  logger: Logger;
  /** Resolves true when every dependency the service needs answers. */
  readiness?: () => Promise<boolean> | boolean;
  /**
   * A readiness check slower than this counts as not ready, so a hung dependency cannot pile up probe
   * requests; 2 s is above the probe's usual 1 s timeout only to leave room for a slow but live check.
   */
  readinessTimeoutMs?: number;
  /** JSON body limit; 1 MB unless a route needs more. */
  bodyLimit?: string;
  /** Mounts the service's routes. */
  routes: (app: Express) => void;
  /** Extra middleware before the routes (CORS, rate limits). */
  before?: (app: Express) => void;
  registry?: client.Registry;
  /**
   * `TRUSTED_PROXIES`: the peers whose `X-Forwarded-For` is believed for `req.ip` (a hop count, or addresses and
   * CIDR ranges). Absent: nobody's, so a client cannot choose its own address.
   */
  trustedProxies?: string;
  /** What `/readyz?verbose` on the internal port reports besides the status (dependency by dependency). */
  readinessDetails?: () => Promise<Record<string, unknown>> | Record<string, unknown>;
}

export interface HttpApp {
  app: Express;
  /**
   * `/metrics`, `/readyz?verbose` and the probes, for the internal port only (`startInternalServer`): the public
   * app answers 404 for the first two.
   */
  internalApp: Express;
  registry: client.Registry;
  /** Makes /readyz answer 503 (first step of a graceful shutdown). */
  setDraining(): void;
}

/** Where Prometheus scrapes when `INTERNAL_PORT` is not set. */
const DEFAULT_INTERNAL_PORT = 9464;

/** Express's `trust proxy` value for `TRUSTED_PROXIES`: a hop count, a list of addresses and ranges, or nobody. */
export function trustProxySetting(trustedProxies: string | undefined): number | string | false {
  const value = trustedProxies?.trim();
  if (!value) return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}

type TrustFunction = (address: string, hop: number) => boolean;

/**
 * `req.ip` and `req.protocol` exactly as Express works them out under the app's `trust proxy` setting, for a
 * handler that answers before the request enters Express (the gateway's proxied routes).
 */
export function forwardedClient(
  app: Express,
): (req: IncomingMessage) => { address: string; protocol: string } {
  const trust = app.get('trust proxy fn') as TrustFunction;
  return (req) => {
    const socketAddress = req.socket.remoteAddress ?? '';
    const own = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
    if (!trust(socketAddress, 0)) return { address: socketAddress, protocol: own };
    const header = req.headers['x-forwarded-for'];
    const entries = typeof header === 'string' ? header.split(',').map((a) => a.trim()) : [];
    // Nearest hop first: the socket peer, then the X-Forwarded-For entries from right to left.
    const hops = [socketAddress, ...entries.reverse()];
    let address = hops[hops.length - 1] as string;
    for (let i = 0; i < hops.length - 1; i += 1) {
      if (!trust(hops[i] as string, i)) {
        address = hops[i] as string;
        break;
      }
    }
    const forwardedProto = req.headers['x-forwarded-proto'];
    const protocol = (typeof forwardedProto === 'string' ? forwardedProto : own).split(',')[0]?.trim() || own;
    return { address, protocol };
  };
}

/**
 * The headers a header-setting middleware adds (helmet with a static policy), captured once as flat
 * (lower-case name, value) pairs, so each request pays for setting them and not for the middleware's chain.
 */
export function staticHeaders(middleware: RequestHandler): string[] {
  const headers: string[] = [];
  const res = {
    setHeader(name: string, value: string | number) {
      headers.push(name.toLowerCase(), String(value));
    },
    removeHeader() {},
  };
  middleware({} as Request, res as unknown as Response, () => undefined);
  return headers;
}

/** Answers must not be stored by browsers or shared caches: they carry personal data and tokens. */
export const NO_STORE = 'no-store';

const ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** A caller's request or correlation id when it is well-formed, so it cannot inject into logs. */
export function incomingId(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v && ID_PATTERN.test(v) ? v : undefined;
}

/**
 * Sends the one error shape of the system: `{ message, code }`, never a stack; a refused body (`parse`) also
 * names the `field` its message is about, so a form shows the message at that field.
 */
export function sendError(err: unknown, req: Request, res: Response, logger: Logger): void {
  const appError = toAppError(err);
  if (appError.httpStatus >= 500) {
    logger.error(
      { err: appError.cause ?? err, code: appError.code, url: redactUrl(req.originalUrl) },
      'request failed',
    );
  }
  if (res.headersSent) {
    // Part of the answer is on the wire: cutting the connection is the only way to tell the client it is incomplete.
    res.destroy();
    return;
  }
  res.setHeader('Cache-Control', NO_STORE);
  if (appError.httpStatus === 429 && appError.details?.retryAfterSeconds !== undefined) {
    res.setHeader('Retry-After', String(appError.details.retryAfterSeconds));
  }
  const field = appError.details?.field;
  res.status(appError.httpStatus).json({
    message: appError.message,
    code: appError.code,
    ...(typeof field === 'string' && field !== '' ? { field } : {}),
  });
}

/**
 * Request and correlation ids (taken from the caller when well-formed, made here otherwise), echoed in the
 * response, carried through the async work of the request for every log line, one log line and one
 * histogram sample per request. Probe and metrics requests are not logged.
 */
export function requestTracking(options: {
  logger: Logger;
  duration: client.Histogram<'method' | 'route' | 'status'>;
  routeLabel: (req: Request, res: Response) => string;
}): (req: Request, res: Response, next: NextFunction) => void {
  const { logger, duration } = options;
  // One series object per label set, instead of hashing the labels on every request.
  const series = new Map<string, client.Histogram.Internal<'method' | 'route' | 'status'>>();
  return (req, res, next) => {
    const requestId = incomingId(req.headers['x-request-id']) ?? randomUUID();
    const correlationId = incomingId(req.headers['x-correlation-id']) ?? requestId;
    res.locals.requestId = requestId;
    res.locals.correlationId = correlationId;
    res.setHeader('x-request-id', requestId);
    res.setHeader('x-correlation-id', correlationId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = options.routeLabel(req, res);
      const key = `${req.method} ${route} ${res.statusCode}`;
      let child = series.get(key);
      if (!child) {
        child = duration.labels({ method: req.method, route, status: String(res.statusCode) });
        series.set(key, child);
      }
      child.observe(seconds);
      if (req.path === '/healthz' || req.path === '/readyz' || req.path === '/metrics') return;
      logger.info(
        {
          requestId,
          correlationId,
          method: req.method,
          url: redactUrl(req.originalUrl),
          status: res.statusCode,
          ms: Math.round(seconds * 1000),
        },
        'request',
      );
    });
    requestContext.run({ requestId, correlationId }, next);
  };
}

/** Runs a readiness callback with a deadline: a hung dependency counts as not ready instead of piling up probes. */
async function checkReadiness(
  readiness: (() => Promise<boolean> | boolean) | undefined,
  timeoutMs = 2_000,
): Promise<boolean> {
  if (!readiness) return true;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.resolve().then(readiness),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The operational endpoints for the internal port: the probes, `/readyz?verbose` with `details`, and `/metrics`.
 * Nothing here is routed by the ingress or the gateway.
 */
export function createInternalApp(options: {
  registry: client.Registry;
  ready: () => Promise<boolean>;
  details?: () => Promise<Record<string, unknown>> | Record<string, unknown>;
}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use((_req, res, next) => {
    res.setHeader('Cache-Control', NO_STORE);
    next();
  });
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (req, res) => {
    const ready = await options.ready();
    const body: Record<string, unknown> = { status: ready ? 'ready' : 'not ready' };
    if (req.query.verbose !== undefined && options.details) Object.assign(body, await options.details());
    res.status(ready ? 200 : 503).json(body);
  });
  // `?name=a&name=b` answers with those metrics only, without collecting the others: the gauges that read the
  // database on collection (the outbox's) then cost nothing, so a benchmark can read a counter as often as it needs.
  app.get('/metrics', async (req, res) => {
    res.setHeader('Content-Type', options.registry.contentType);
    const names = [req.query.name].flat().filter((n): n is string => typeof n === 'string');
    if (names.length === 0) {
      res.send(await options.registry.metrics());
      return;
    }
    const known = names.filter((n) => options.registry.getSingleMetric(n) !== undefined);
    const texts = await Promise.all(known.map((n) => options.registry.getSingleMetricAsString(n)));
    res.send(texts.map((t) => `${t}\n`).join(''));
  });
  app.use((_req, res) => {
    res.status(404).json({ message: 'Not found', code: 'not_found' });
  });
  return app;
}

/** `INTERNAL_PORT`, or its default: 9464, and a free port when the public port is a free port too (tests). */
export function internalPort(config: { PORT: number; INTERNAL_PORT?: number }): number {
  return config.INTERNAL_PORT ?? (config.PORT === 0 ? 0 : DEFAULT_INTERNAL_PORT);
}

/** Listens with the internal app on `INTERNAL_PORT` (same host as the public port); close it on shutdown. */
export function startInternalServer(
  http: Pick<HttpApp, 'internalApp'>,
  config: { PORT: number; HOST?: string; INTERNAL_PORT?: number },
): Promise<RunningServer> {
  return listen(http.internalApp, internalPort(config), config.HOST);
}

export function createHttpApp(options: AppOptions): HttpApp {
  const { logger } = options;
  const registry = options.registry ?? new client.Registry();
  registry.setDefaultLabels({ service: options.name });
  if (!options.registry) collectProcessMetrics(registry);
  // A registry shared by several apps in one process (all-in-one) already holds the histogram.
  const duration =
    (registry.getSingleMetric('http_request_duration_seconds') as
      client.Histogram<'method' | 'route' | 'status'> | undefined) ??
    new client.Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });

  let draining = false;
  const ready = async () =>
    !draining && (await checkReadiness(options.readiness, options.readinessTimeoutMs));
  const app = express();
  app.disable('x-powered-by');
  // Answers are never stored (no-store), so an ETag would only cost a hash of every body.
  app.disable('etag');
  app.set('trust proxy', trustProxySetting(options.trustedProxies));
  // helmet's headers with the cache policy, set in one step per request.
  const headers = [
    ...staticHeaders(helmet({ referrerPolicy: { policy: 'no-referrer' } })),
    'cache-control',
    NO_STORE,
  ];
  app.use((_req, res, next) => {
    for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i] as string, headers[i + 1] as string);
    next();
  });

  app.use(
    requestTracking({
      logger,
      duration,
      routeLabel: (req) =>
        (req.route as { path?: string } | undefined)?.path
          ? `${req.baseUrl}${(req.route as { path: string }).path}`
          : 'unmatched',
    }),
  );

  // Probes stay on the public port too (kubelet and load balancers call it); the details do not.
  mountProbes(app, ready);

  app.use(express.json({ limit: options.bodyLimit ?? '1mb' }));
  app.use(refuseNul);
  options.before?.(app);
  options.routes(app);

  app.use((req, res) => {
    res.status(404).json({ message: 'Not found', code: 'not_found' });
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    sendError(err, req, res, logger);
  });

  return {
    app,
    internalApp: createInternalApp({ registry, ready, details: options.readinessDetails }),
    registry,
    setDraining: () => {
      draining = true;
    },
  };
}

/**
 * `/healthz` (the process answers) and `/readyz` (it can serve: 503 otherwise), the answer only; `?verbose` goes
 * on to the next handler, which the public port does not have (the details are on the internal port).
 */
export function mountProbes(app: Express, ready: () => Promise<boolean>): void {
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (req, res, next) => {
    if (req.query.verbose !== undefined) {
      next();
      return;
    }
    const isReady = await ready();
    res.status(isReady ? 200 : 503).json({ status: isReady ? 'ready' : 'not ready' });
  });
}

/** Validates input against a zod schema; the first problem becomes a 400 with its message. */
export function parse<S extends z.ZodType>(schema: S, data: unknown): z.infer<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  throw new AppError('validation_failed', first?.message ?? 'Invalid request', 400, {
    details: {
      field: first?.path.join('.'),
      issues: result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    },
  });
}

export interface RunningServer {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

/** Listens with server timeouts set; port 0 picks a free port (tests). */
export async function listen(app: RequestListener, port: number, host = '0.0.0.0'): Promise<RunningServer> {
  const server = createServer(app).listen(port, host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.requestTimeout = 60_000;
  server.headersTimeout = 20_000;
  server.keepAliveTimeout = SERVER_KEEP_ALIVE_MS;
  const actual = (server.address() as AddressInfo).port;
  return {
    server,
    port: actual,
    url: `http://127.0.0.1:${actual}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5_000).unref();
      }),
  };
}
