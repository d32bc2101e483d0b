import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import client from 'prom-client';
import type { z } from 'zod';
import { AppError, toAppError } from '../errors';
import { redactUrl, requestContext, type Logger } from '../logger';
import { refuseNul } from './text';

export {
  CONTROL_CHARACTER_CODE,
  controlCharacterMessage,
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
}

export interface HttpApp {
  app: Express;
  registry: client.Registry;
  /** Makes /readyz answer 503 (first step of a graceful shutdown). */
  setDraining(): void;
}

const ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

function incomingId(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v && ID_PATTERN.test(v) ? v : undefined;
}

/** Sends the one error shape of the system: `{ message, code }`, never a stack. */
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
  if (appError.httpStatus === 429 && appError.details?.retryAfterSeconds !== undefined) {
    res.setHeader('Retry-After', String(appError.details.retryAfterSeconds));
  }
  res.status(appError.httpStatus).json({ message: appError.message, code: appError.code });
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
      duration.observe(
        { method: req.method, route: options.routeLabel(req, res), status: String(res.statusCode) },
        seconds,
      );
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

export function createHttpApp(options: AppOptions): HttpApp {
  const { logger } = options;
  const registry = options.registry ?? new client.Registry();
  registry.setDefaultLabels({ service: options.name });
  if (!options.registry) client.collectDefaultMetrics({ register: registry });
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
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  app.use(helmet({ referrerPolicy: { policy: 'no-referrer' } }));

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

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    let ready = !draining;
    if (ready && options.readiness) {
      let timer: NodeJS.Timeout | undefined;
      try {
        ready = await Promise.race([
          Promise.resolve().then(options.readiness),
          new Promise<boolean>((resolve) => {
            timer = setTimeout(() => resolve(false), options.readinessTimeoutMs ?? 2_000);
          }),
        ]);
      } catch {
        ready = false;
      } finally {
        clearTimeout(timer);
      }
    }
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready' });
  });
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', registry.contentType);
    res.send(await registry.metrics());
  });

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
    registry,
    setDraining: () => {
      draining = true;
    },
  };
}

/** Wraps an async route so a rejection reaches the error handler. */
export function route(
  handler: (req: Request, res: Response, next: NextFunction) => Promise<unknown> | unknown,
): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    Promise.resolve()
      .then(() => handler(req, res, next))
      .catch(next);
  };
}

/** Validates input against a zod schema; the first problem becomes a 400 with its message. */
export function parse<S extends z.ZodType>(schema: S, data: unknown): z.infer<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  throw new AppError('validation_failed', first?.message ?? 'Invalid request', 400, {
    details: { issues: result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) },
  });
}

export interface RunningServer {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

/** Listens with server timeouts set; port 0 picks a free port (tests). */
export async function listen(app: Express, port: number, host = '0.0.0.0'): Promise<RunningServer> {
  const server = app.listen(port, host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.requestTimeout = 60_000;
  server.headersTimeout = 20_000;
  server.keepAliveTimeout = 65_000;
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
