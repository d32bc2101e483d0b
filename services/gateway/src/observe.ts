import type { IncomingMessage, ServerResponse } from 'node:http';
import type client from 'prom-client';
import { redactUrl, type Logger } from '@readiness/kit/logger';

/** Above this a proxied request is logged at info even when it succeeded. */
const SLOW_REQUEST_SECONDS = 1;

/**
 * One histogram sample per request, as the kit's request tracking records it, for the answers the gateway writes
 * without Express. The log line is at info for refusals, failures and slow answers; a quick success is logged at
 * debug, because the service that answered logs the same request (same request id) and the line cost a tenth of
 * the gateway's CPU per proxied request.
 */
export function requestObserver(
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
