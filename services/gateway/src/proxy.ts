import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { POOLED_CONNECTION_IDLE_MS } from '@readiness/kit/http';
import type { Logger } from '@readiness/kit/logger';
import { currentTraceFields } from '@readiness/kit/tracing';
import client from 'prom-client';

/** RFC 9110 §7.6.1: these describe one connection and must not be forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Request headers the gateway sets itself: the caller's values never reach a service. */
const REPLACED_ON_REQUEST = new Set([
  'host',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'x-request-id',
  'x-correlation-id',
  // W3C trace context: the gateway's own span's when traced, never the caller's as it came.
  'traceparent',
  'tracestate',
]);

/** The extra headers a `Connection` header names as hop-by-hop; none in the usual case. */
function namedInConnection(value: string | undefined): Set<string> | undefined {
  if (value === undefined) return undefined;
  const lower = value.toLowerCase();
  if (lower === 'keep-alive' || lower === 'close') return undefined;
  return new Set(lower.split(',').map((h) => h.trim()));
}

/**
 * Copies raw (flat name, value) headers into `out`, leaving out hop-by-hop headers and those in `skip`.
 * Returns the lower-case names it copied when `seen` is given.
 */
function copyHeaders(
  raw: readonly string[],
  out: string[],
  connection: string | undefined,
  skip?: ReadonlySet<string>,
  seen?: Set<string>,
): void {
  const named = namedInConnection(connection);
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || skip?.has(lower) || named?.has(lower)) continue;
    out.push(name, raw[i + 1] as string);
    seen?.add(lower);
  }
}

export interface ProxyTarget {
  name: string;
  /** Base URL of the upstream service; the incoming path and query are appended unchanged. */
  baseUrl: URL;
}

export interface ProxyOptions {
  /** Path and query exactly as the client sent them (the path a route rule matched), appended to the base path. */
  url: string;
  /** Socket idle time before the request is abandoned with a 504. */
  timeoutMs: number;
  /** Largest request body streamed to the upstream; beyond it the caller gets a 413. */
  maxBodyBytes: number;
  requestId: string;
  correlationId: string;
  /** The client's address as the trusted proxies report it: the one entry of `X-Forwarded-For` upstream. */
  clientAddress: string;
  /** `X-Forwarded-Proto` for the upstream. */
  protocol: string;
  /**
   * The gateway's own answer headers as flat (name, value) pairs: security headers, ids, CORS, `Cache-Control`.
   * An upstream header of the same name wins, except a `Cache-Control` that does not forbid storing.
   */
  responseHeaders: readonly string[];
  /**
   * A long-lived answer (server-sent events): it gets a connection of its own instead of one of the pool's, so
   * thousands of open streams never starve the pooled calls.
   */
  stream?: boolean;
}

export interface Proxy {
  forward(req: IncomingMessage, res: ServerResponse, target: ProxyTarget, options: ProxyOptions): void;
  close(): void;
}

/**
 * Sends the error shape `{ message, code }` with `headers` (flat pairs) in one write; cuts the connection when an
 * answer is already under way.
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  message: string,
  code: string,
  headers: readonly string[] = [],
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ message, code });
  res.writeHead(status, [
    ...headers,
    'content-type',
    'application/json; charset=utf-8',
    'content-length',
    String(Buffer.byteLength(body)),
  ]);
  res.end(body);
}

const IDEMPOTENT_WITHOUT_BODY = new Set(['GET', 'HEAD', 'OPTIONS']);
const CACHE_CONTROL = new Set(['cache-control']);

/**
 * A streaming reverse proxy on `node:http`: bodies flow through in both directions without being
 * buffered, so a 25 MB upload or a PDF download costs a few kilobytes of gateway memory.
 */
/** The proxy's counters and latency, per upstream. */
function proxyMetrics(registry: client.Registry) {
  return {
    requests: new client.Counter({
      name: 'gateway_upstream_requests_total',
      help: 'Requests proxied to each upstream, by response status',
      labelNames: ['upstream', 'status'],
      registers: [registry],
    }),
    errors: new client.Counter({
      name: 'gateway_upstream_errors_total',
      help: 'Proxied requests that failed without an upstream answer, by reason',
      labelNames: ['upstream', 'reason'],
      registers: [registry],
    }),
    // Kept apart from the upstream errors: a caller closing a tab or a flaky phone network is not an upstream fault.
    clientAborts: new client.Counter({
      name: 'gateway_client_aborted_total',
      help: 'Proxied requests the caller abandoned before its answer was complete, by upstream',
      labelNames: ['upstream'],
      registers: [registry],
    }),
    latency: new client.Histogram({
      name: 'gateway_upstream_duration_seconds',
      help: 'Time from forwarding a request to the upstream response headers',
      labelNames: ['upstream'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
  };
}

interface Prepared {
  module: typeof http | typeof https;
  agent: http.Agent;
  hostname: string;
  port: string;
  basePath: string;
  host: string;
  latency: client.Histogram.Internal<'upstream'>;
  countStatus(status: number): void;
}

/** Everything that depends on the upstream alone, worked out on its first request rather than on every one. */
function upstreamsOf(
  metrics: ReturnType<typeof proxyMetrics>,
  agents: Record<'http:' | 'https:', http.Agent>,
) {
  const prepared = new WeakMap<ProxyTarget, Prepared>();
  return (target: ProxyTarget): Prepared => {
    let p = prepared.get(target);
    if (p) return p;
    const { baseUrl } = target;
    const secure = baseUrl.protocol === 'https:';
    const statuses = new Map<number, client.Counter.Internal>();
    p = {
      module: secure ? https : http,
      agent: agents[secure ? 'https:' : 'http:'],
      hostname: baseUrl.hostname.replace(/^\[|\]$/g, ''),
      port: baseUrl.port || (secure ? '443' : '80'),
      basePath: baseUrl.pathname.replace(/\/+$/, ''),
      host: baseUrl.host,
      latency: metrics.latency.labels({ upstream: target.name }),
      countStatus(status) {
        let counter = statuses.get(status);
        if (!counter) {
          counter = metrics.requests.labels({ upstream: target.name, status: String(status) });
          statuses.set(status, counter);
        }
        counter.inc();
      },
    };
    prepared.set(target, p);
    return p;
  };
}

/** The request's headers for the upstream, as raw pairs that go to the socket as they are. */
function upstreamRequestHeaders(req: IncomingMessage, upstream: Prepared, options: ProxyOptions): string[] {
  const headers: string[] = [
    'host',
    upstream.host,
    'x-forwarded-for',
    options.clientAddress,
    'x-forwarded-proto',
    options.protocol,
    'x-forwarded-host',
    req.headers.host ?? '',
    'x-request-id',
    options.requestId,
    'x-correlation-id',
    options.correlationId,
  ];
  copyHeaders(req.rawHeaders, headers, req.headers.connection, REPLACED_ON_REQUEST);
  // Traced, the upstream's span is a child of the gateway's (the HTTP instrumentation leaves raw headers alone).
  const trace = currentTraceFields();
  if (trace.traceparent) headers.push('traceparent', trace.traceparent);
  if (trace.tracestate) headers.push('tracestate', trace.tracestate);
  return headers;
}

/** The upstream's answer headers, then the gateway's own where the upstream did not set them. */
function answerHeaders(upstreamRes: IncomingMessage, own: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const cacheControl = upstreamRes.headers['cache-control'];
  copyHeaders(
    upstreamRes.rawHeaders,
    out,
    upstreamRes.headers.connection,
    cacheControl?.includes('no-store') ? undefined : CACHE_CONTROL,
    seen,
  );
  for (let i = 0; i < own.length; i += 2) {
    if (!seen.has(own[i] as string)) out.push(own[i] as string, own[i + 1] as string);
  }
  return out;
}

/**
 * A streaming reverse proxy on `node:http`: bodies flow through in both directions without being
 * buffered, so a 25 MB upload or a PDF download costs a few kilobytes of gateway memory.
 */
export function createProxy(deps: { logger: Logger; registry: client.Registry; maxSockets: number }): Proxy {
  const { logger } = deps;
  // Idle pooled sockets are closed long before the upstream's keep-alive timeout can close them under us. At most
  // `maxSockets` to one service (UPSTREAM_MAX_SOCKETS): a submit holds its socket while it waits for its result (up
  // to SUBMIT_RESULT_WAIT_MS), and with a few hundred of them waiting a pool of 256 made every other call (autosaves,
  // Starts) queue here, unseen by the student service and its waiting room (docs/benchmarks.md).
  const pooled = { keepAlive: true, maxSockets: deps.maxSockets, timeout: POOLED_CONNECTION_IDLE_MS };
  const agents = { 'http:': new http.Agent(pooled), 'https:': new https.Agent(pooled) };
  // Streams: one connection each, never pooled and never limited in number (each is one page following its attempt).
  const streamAgents = {
    'http:': new http.Agent({ keepAlive: false }),
    'https:': new https.Agent({ keepAlive: false }),
  };
  const metrics = proxyMetrics(deps.registry);
  const { errors, clientAborts } = metrics;
  const prepare = upstreamsOf(metrics, agents);

  function forward(
    req: IncomingMessage,
    res: ServerResponse,
    target: ProxyTarget,
    options: ProxyOptions,
    retried = false,
  ): void {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (Number.isFinite(declared) && declared > options.maxBodyBytes) {
      sendJson(res, 413, 'Request body is too large', 'payload_too_large', [
        ...options.responseHeaders,
        'connection',
        'close',
      ]);
      return;
    }

    const upstream = prepare(target);
    // Raw header pairs go to the socket as they are, without a header object built and validated twice.
    const headers = upstreamRequestHeaders(req, upstream, options);

    const started = process.hrtime.bigint();
    const upstreamReq = upstream.module.request({
      hostname: upstream.hostname,
      port: upstream.port,
      // Exactly the path the route rule matched: no URL parsing, no normalisation in between.
      path: `${upstream.basePath}${options.url}`,
      method: req.method,
      headers: headers as unknown as http.OutgoingHttpHeaders,
      agent: options.stream ? streamAgents[upstream.module === https ? 'https:' : 'http:'] : upstream.agent,
    });
    upstreamReq.setTimeout(options.timeoutMs);
    let done = false;
    let sentBytes = 0;
    /** The answer ended on our side (an error reply, a broken upstream stream, a replay): not a caller abort. */
    let endedHere = false;
    let abandoned = false;

    // The caller went away: stop the upstream work too, and do not blame the upstream for the reset that follows.
    const abandon = () => {
      if (abandoned || endedHere || res.writableFinished) return;
      abandoned = true;
      done = true;
      clientAborts.inc({ upstream: target.name });
      logger.debug(
        { upstream: target.name, method: req.method },
        'client went away before the answer was complete',
      );
      req.unpipe(upstreamReq);
      upstreamReq.destroy();
    };

    const fail = (status: number, message: string, code: string, reason: string, err?: unknown) => {
      if (done) return;
      done = true;
      endedHere = true;
      errors.inc({ upstream: target.name, reason });
      if (status >= 500) logger.warn({ err, upstream: target.name, reason }, 'upstream request failed');
      req.unpipe(upstreamReq);
      upstreamReq.destroy();
      sendJson(
        res,
        status,
        message,
        code,
        status === 413 ? [...options.responseHeaders, 'connection', 'close'] : options.responseHeaders,
      );
    };

    upstreamReq.on('timeout', () => fail(504, 'Upstream service timed out', 'upstream_timeout', 'timeout'));
    upstreamReq.on('error', (err: NodeJS.ErrnoException) => {
      if (done) return;
      // A pooled socket the upstream closed while idle: safe to replay once when nothing was sent.
      if (
        !retried &&
        upstreamReq.reusedSocket &&
        err.code === 'ECONNRESET' &&
        IDEMPOTENT_WITHOUT_BODY.has(req.method ?? '')
      ) {
        done = true;
        endedHere = true;
        forward(req, res, target, options, true);
        return;
      }
      fail(502, 'Upstream service is unreachable', 'upstream_unreachable', err.code ?? 'error', err);
    });

    upstreamReq.on('response', (upstreamRes) => {
      if (done) {
        upstreamRes.resume();
        return;
      }
      done = true;
      upstream.latency.observe(Number(process.hrtime.bigint() - started) / 1e9);
      const status = upstreamRes.statusCode ?? 502;
      upstream.countStatus(status);
      const out = answerHeaders(upstreamRes, options.responseHeaders);
      res.writeHead(status, upstreamRes.statusMessage, out);
      upstreamRes.pipe(res);
      const upstreamBroke = () => {
        endedHere = true;
        res.destroy();
      };
      upstreamRes.on('error', upstreamBroke);
      upstreamRes.on('aborted', upstreamBroke);
    });

    res.on('close', abandon);

    if (retried) {
      upstreamReq.end();
      return;
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      // No body to stream: end at once instead of piping an empty stream.
      if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
        upstreamReq.end();
        req.resume();
        return;
      }
    }
    req.on('data', (chunk: Buffer) => {
      sentBytes += chunk.length;
      if (sentBytes > options.maxBodyBytes) {
        fail(413, 'Request body is too large', 'payload_too_large', 'body_too_large');
      }
    });
    req.on('aborted', abandon);
    req.pipe(upstreamReq);
  }

  return {
    forward: (req, res, target, options) => forward(req, res, target, options),
    close: () => {
      for (const agent of [
        agents['http:'],
        agents['https:'],
        streamAgents['http:'],
        streamAgents['https:'],
      ]) {
        agent.destroy();
      }
    },
  };
}
