'use strict';
/**
 * The bare journey's proxy (`bench/bare-journey.js`): every request passed to one upstream over kept-alive
 * connections and its answer streamed back, as the gateway's hop does, with nothing else (no logging, tracing,
 * tokens, limits or headers of its own). PORT, UPSTREAM (`http://127.0.0.1:<port>`).
 */
const http = require('node:http');

const upstream = new URL(process.env.UPSTREAM);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

const server = http.createServer((req, res) => {
  const forward = http.request(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
      agent,
    },
    (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    },
  );
  forward.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(forward);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
