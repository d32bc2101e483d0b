import http, {
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import https from 'node:https';
import type { Logger } from '@readiness/kit/logger';
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

function stripHopByHop(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  // Runs twice per proxied request: no intermediate arrays unless `Connection` names extra headers.
  const connection = headers.connection;
  const named =
    connection === undefined || connection === 'keep-alive' || connection === 'close'
      ? undefined
      : new Set(
          String(connection)
            .split(',')
            .map((h) => h.trim().toLowerCase()),
        );
  const out: OutgoingHttpHeaders = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || HOP_BY_HOP.has(name) || named?.has(name)) continue;
    out[name] = value;
  }
  return out;
}

export interface ProxyTarget {
  name: string;
  /** Base URL of the upstream service; the incoming path and query are appended unchanged. */
  baseUrl: URL;
}

export interface ProxyOptions {
  /** Path and query as the client sent them (Express strips its mount point from `req.url`). */
  url: string;
  /** Socket idle time before the request is abandoned with a 504. */
  timeoutMs: number;
  /** Largest request body streamed to the upstream; beyond it the caller gets a 413. */
  maxBodyBytes: number;
  requestId: string;
  correlationId: string;
}

export interface Proxy {
  forward(req: IncomingMessage, res: ServerResponse, target: ProxyTarget, options: ProxyOptions): void;
  close(): void;
}

function sendJson(res: ServerResponse, status: number, message: string, code: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ message, code });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

function clientAddress(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? '';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

const IDEMPOTENT_WITHOUT_BODY = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A streaming reverse proxy on `node:http`: bodies flow through in both directions without being
 * buffered, so a 25 MB upload or a PDF download costs a few kilobytes of gateway memory.
 */
export function createProxy(deps: { logger: Logger; registry: client.Registry }): Proxy {
  const { logger } = deps;
  // Idle pooled sockets are closed before the upstream's keep-alive timeout (65 s in the kit) can close them under us.
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 256, timeout: 30_000 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 256, timeout: 30_000 }),
  };
  const requests = new client.Counter({
    name: 'gateway_upstream_requests_total',
    help: 'Requests proxied to each upstream, by response status',
    labelNames: ['upstream', 'status'],
    registers: [deps.registry],
  });
  const errors = new client.Counter({
    name: 'gateway_upstream_errors_total',
    help: 'Proxied requests that failed without an upstream answer, by reason',
    labelNames: ['upstream', 'reason'],
    registers: [deps.registry],
  });
  // Kept apart from the upstream errors: a caller closing a tab or a flaky phone network is not an upstream fault.
  const clientAborts = new client.Counter({
    name: 'gateway_client_aborted_total',
    help: 'Proxied requests the caller abandoned before its answer was complete, by upstream',
    labelNames: ['upstream'],
    registers: [deps.registry],
  });
  const latency = new client.Histogram({
    name: 'gateway_upstream_duration_seconds',
    help: 'Time from forwarding a request to the upstream response headers',
    labelNames: ['upstream'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [deps.registry],
  });

  function forward(
    req: IncomingMessage,
    res: ServerResponse,
    target: ProxyTarget,
    options: ProxyOptions,
    retried = false,
  ): void {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (Number.isFinite(declared) && declared > options.maxBodyBytes) {
      res.setHeader('connection', 'close');
      sendJson(res, 413, 'Request body is too large', 'payload_too_large');
      return;
    }

    const url = new URL(options.url, target.baseUrl);
    const basePath = target.baseUrl.pathname.replace(/\/+$/, '');
    if (basePath) url.pathname = `${basePath}${url.pathname}`;
    const headers = stripHopByHop(req.headers);
    const priorFor = req.headers['x-forwarded-for'];
    headers['x-forwarded-for'] = priorFor ? `${String(priorFor)}, ${clientAddress(req)}` : clientAddress(req);
    headers['x-forwarded-proto'] = (req as IncomingMessage & { protocol?: string }).protocol ?? 'http';
    headers['x-forwarded-host'] = req.headers.host ?? '';
    headers['x-request-id'] = options.requestId;
    headers['x-correlation-id'] = options.correlationId;
    headers.host = url.host;

    const started = process.hrtime.bigint();
    const protocol = url.protocol === 'https:' ? https : http;
    const upstreamReq = protocol.request(url, {
      method: req.method,
      headers,
      agent: agents[url.protocol === 'https:' ? 'https:' : 'http:'],
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
      if (status === 413) res.setHeader('connection', 'close');
      sendJson(res, status, message, code);
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
      latency.observe({ upstream: target.name }, Number(process.hrtime.bigint() - started) / 1e9);
      requests.inc({ upstream: target.name, status: String(upstreamRes.statusCode ?? 0) });
      const responseHeaders = stripHopByHop(upstreamRes.headers);
      // Our own request ids were set on the response already; the upstream echoes the same values.
      for (const [name, value] of Object.entries(responseHeaders)) {
        if (value !== undefined) res.setHeader(name, value);
      }
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.statusMessage);
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
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
