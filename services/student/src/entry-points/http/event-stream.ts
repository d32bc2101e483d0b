import type { ServerResponse } from 'node:http';

/**
 * Opens a server-sent event stream on `res` and tells the client to come back after `retryMs` when it drops. The
 * stream ends only when its follower or the service does: its socket goes with it, not back to keep-alive.
 */
export function openEventStream(res: ServerResponse, retryMs: number) {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Accel-Buffering': 'no',
    Connection: 'close',
  });
  res.write(`retry: ${retryMs}\n\n`);
}
