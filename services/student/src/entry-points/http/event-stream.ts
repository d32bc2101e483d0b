import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A server-sent event stream on `res`, for a domain follower (the attempt's page, a gateway following the line). Its
 * headers go with the first event, so a follower refused before it is still answered as JSON; the client is told to
 * come back after `retryMs` when it drops. The stream ends only when its follower or the service does: its socket goes
 * with it, not back to keep-alive.
 */
export function eventStream(
  req: IncomingMessage,
  res: ServerResponse,
  options: { event: string; retryMs: number },
) {
  let ended = false;
  return {
    sink: {
      send(data: unknown) {
        if (ended) return;
        if (!res.headersSent) {
          res.writeHead(200, {
            'Content-Type': 'text/event-stream; charset=utf-8',
            'Cache-Control': 'no-store',
            'X-Accel-Buffering': 'no',
            Connection: 'close',
          });
          res.write(`retry: ${options.retryMs}\n\n`);
        }
        res.write(`event: ${options.event}\ndata: ${JSON.stringify(data)}\n\n`);
      },
      ping() {
        if (!ended) res.write(': ping\n\n');
      },
      end() {
        if (ended) return;
        ended = true;
        res.end();
      },
    },
    /** Holds the stream open for `following` until the client leaves (at once if it left while it was set up). */
    hold(following: { close(): void }) {
      const stop = () => {
        ended = true;
        following.close();
      };
      if (res.destroyed) return stop();
      req.socket.setTimeout(0);
      res.on('close', stop);
    },
  };
}
