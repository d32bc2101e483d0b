import { Router } from 'express';
import { z } from 'zod';
import { AppError } from '../errors';
import { createLogger } from '../logger';
import {
  createHttpApp,
  forwardedClient,
  internalPort,
  listen,
  parse,
  startInternalServer,
  type AppOptions,
  type HttpApp,
  type RunningServer,
} from './index';

/** Collects the JSON lines a logger writes, so tests can read what reached the logs. */
function captureLogs() {
  const lines: Record<string, unknown>[] = [];
  const destination = {
    write(chunk: string) {
      for (const line of chunk.split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
    },
  };
  return { lines, logger: createLogger({ name: 'http-test', level: 'info', destination }) };
}

interface Started {
  http: HttpApp;
  server: RunningServer;
  /** The internal port: metrics and verbose readiness. */
  internal: RunningServer;
  logs: Record<string, unknown>[];
}

const running: RunningServer[] = [];

async function start(overrides: Partial<AppOptions> = {}): Promise<Started> {
  const { lines, logger } = captureLogs();
  const http = createHttpApp({
    name: 'http-test',
    logger,
    routes: (app) => {
      app.get('/items/:id', (req, res) => {
        res.json({ id: req.params.id });
      });
      app.get('/whoami', (req, res) => {
        res.json({ ip: req.ip, protocol: req.protocol, beforeExpress: forwardedClient(app)(req) });
      });
      app.post('/echo', (req, res) => {
        res.json({ received: req.body as unknown });
      });
      app.post('/people', (req, res) => {
        const body = parse(
          z.object({ name: z.string({ error: 'Name is required' }).min(1, 'Name is required') }),
          req.body,
        );
        res.status(201).json(body);
      });
      app.get('/boom', async () => {
        throw new Error('relation "secret_table" does not exist at /srv/app/db.ts:42');
      });
      // Express 5 takes a rejected promise and a thrown error alike to the error handler.
      app.get('/boom-sync', () => {
        throw new TypeError('Cannot read properties of undefined (reading "x")');
      });
      app.get('/taken', () => {
        throw new AppError('email_taken', 'An administrator with this e-mail already exists', 409);
      });
      app.get('/slow-down', () => {
        throw new AppError('rate_limited', 'Too many attempts', 429, {
          details: { retryAfterSeconds: 42 },
        });
      });
      app.get('/student/:token/view', () => {
        throw new Error('database exploded');
      });
      app.get('/half-sent', (_req, res, next) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"items": [');
        next(new Error('cursor failed mid-stream'));
      });
      const nested = Router();
      nested.get('/things/:id', (_req, res) => {
        res.json({ ok: true });
      });
      app.use('/api/v1', nested);
    },
    ...overrides,
  });
  const server = await listen(http.app, 0, '127.0.0.1');
  const internal = await startInternalServer(http, { PORT: 0, HOST: '127.0.0.1' });
  running.push(server, internal);
  return { http, server, internal, logs: lines };
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

describe('health endpoints', () => {
  test('when /healthz is called, then it answers 200', async () => {
    const { server } = await start();
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  test('when every dependency answers, then /readyz is 200', async () => {
    const { server } = await start({ readiness: async () => true });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });

  test('when no readiness callback is given, then /readyz is 200', async () => {
    const { server } = await start();
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });

  test('when the readiness callback returns false, then /readyz is 503', async () => {
    const { server } = await start({ readiness: () => false });
    const res = await fetch(`${server.url}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'not ready' });
  });

  test('when the readiness callback throws, then /readyz is 503', async () => {
    const { server } = await start({
      readiness: async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      },
    });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
  });

  test('when the readiness callback never settles, then /readyz answers 503 instead of hanging', async () => {
    const { server } = await start({
      readiness: () => new Promise<boolean>(() => undefined),
      readinessTimeoutMs: 200,
    });
    const res = await fetch(`${server.url}/readyz`, { signal: AbortSignal.timeout(5_000) });
    expect(res.status).toBe(503);
  });

  test('when the service starts draining, then /readyz is 503 while /healthz stays 200', async () => {
    const { http, server } = await start({ readiness: () => true });
    http.setDraining();
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

describe('metrics', () => {
  test('when a route was called, then /metrics has its duration under the route pattern', async () => {
    const { server, internal } = await start();
    await fetch(`${server.url}/items/abc`);
    const text = await (await fetch(`${internal.url}/metrics`)).text();
    expect(text).toMatch(
      /http_request_duration_seconds_count\{[^}]*route="\/items\/:id"[^}]*status="200"[^}]*\} 1/,
    );
    expect(text).toContain('service="http-test"');
    expect(text).not.toContain('/items/abc');
  });

  test('when a route of a mounted router was called, then its label has the full path', async () => {
    const { server, internal } = await start();
    await fetch(`${server.url}/api/v1/things/7`);
    const text = await (await fetch(`${internal.url}/metrics`)).text();
    expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/api\/v1\/things\/:id"[^}]*\} 1/);
  });

  test('when unknown paths are called, then they share one label instead of one series per path', async () => {
    const { server, internal } = await start();
    await fetch(`${server.url}/nope/1`);
    await fetch(`${server.url}/nope/2`);
    const text = await (await fetch(`${internal.url}/metrics`)).text();
    expect(text).toMatch(
      /http_request_duration_seconds_count\{[^}]*route="unmatched"[^}]*status="404"[^}]*\} 2/,
    );
  });

  test('when two apps share one registry, then both start and report into it', async () => {
    const first = await start();
    const second = await start({ registry: first.http.registry, name: 'second' });
    await fetch(`${second.server.url}/items/1`);
    const text = await (await fetch(`${first.internal.url}/metrics`)).text();
    expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/items\/:id"[^}]*\} 1/);
  });
});

describe('internal port', () => {
  test('when /metrics or verbose readiness is asked on the public port, then it is a 404', async () => {
    const { server } = await start({ readinessDetails: () => ({ database: 'up' }) });
    const metrics = await fetch(`${server.url}/metrics`);
    expect(metrics.status).toBe(404);
    expect(await metrics.text()).not.toContain('http_request_duration_seconds');
    const verbose = await fetch(`${server.url}/readyz?verbose`);
    expect(verbose.status).toBe(404);
    expect(await verbose.json()).toEqual({ message: 'Not found', code: 'not_found' });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });

  test('when the internal port is asked, then it serves metrics, verbose readiness and the probes', async () => {
    const { internal, http } = await start({ readinessDetails: () => ({ database: 'up' }) });
    const metrics = await fetch(`${internal.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('process_cpu_seconds_total');
    const verbose = await fetch(`${internal.url}/readyz?verbose`);
    expect(await verbose.json()).toEqual({ status: 'ready', database: 'up' });
    expect((await fetch(`${internal.url}/healthz`)).status).toBe(200);
    http.setDraining();
    expect((await fetch(`${internal.url}/readyz`)).status).toBe(503);
  });

  test('when no internal port is configured, then it is 9464, or a free port beside a free public port', async () => {
    const { http } = await start();
    const internal = await startInternalServer(http, { PORT: 0, HOST: '127.0.0.1', INTERNAL_PORT: 0 });
    running.push(internal);
    expect(internal.port).toBeGreaterThan(0);
    expect(internalPort({ PORT: 8080 })).toBe(9464);
    expect(internalPort({ PORT: 0 })).toBe(0);
    expect(internalPort({ PORT: 8080, INTERNAL_PORT: 9100 })).toBe(9100);
  });
});

describe('client address', () => {
  const whoami = async (url: string, forwardedFor?: string) =>
    (
      (await (
        await fetch(`${url}/whoami`, { headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} })
      ).json()) as { ip: string }
    ).ip.replace(/^::ffff:/, '');

  test('when no proxy is trusted, then a forged X-Forwarded-For from loopback does not change the address', async () => {
    const { server } = await start();
    expect(await whoami(server.url, '203.0.113.7')).toBe('127.0.0.1');
  });

  test('when loopback is a trusted proxy, then its X-Forwarded-For gives the client address', async () => {
    const { server } = await start({ trustedProxies: 'loopback' });
    expect(await whoami(server.url, '203.0.113.7')).toBe('203.0.113.7');
    expect(await whoami(server.url, '198.51.100.1, 203.0.113.7')).toBe('203.0.113.7');
  });

  test.each([undefined, 'loopback', '1', '2', '10.0.0.0/8'])(
    'when TRUSTED_PROXIES is %s, then the address read before Express is the one Express reads',
    async (trustedProxies) => {
      const { server } = await start({ trustedProxies });
      for (const forwarded of [
        undefined,
        '203.0.113.7',
        '198.51.100.1, 10.1.2.3',
        ' 192.0.2.9 ,203.0.113.8 ',
      ]) {
        const headers: Record<string, string> = { 'x-forwarded-proto': 'https' };
        if (forwarded) headers['x-forwarded-for'] = forwarded;
        const seen = (await (await fetch(`${server.url}/whoami`, { headers })).json()) as {
          ip: string;
          protocol: string;
          beforeExpress: { address: string; protocol: string };
        };
        expect(seen.beforeExpress).toEqual({ address: seen.ip, protocol: seen.protocol });
      }
    },
  );

  test('when one hop is trusted, then only the last X-Forwarded-For entry counts', async () => {
    const { server } = await start({ trustedProxies: '1' });
    expect(await whoami(server.url, '198.51.100.1, 203.0.113.7')).toBe('203.0.113.7');
  });
});

describe('caching', () => {
  test('when an answer or an error is sent, then it carries Cache-Control: no-store and no ETag', async () => {
    const { server } = await start();
    const ok = await fetch(`${server.url}/items/1`);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(ok.headers.get('etag')).toBeNull();
    for (const path of ['/nope', '/boom', '/taken']) {
      expect((await fetch(`${server.url}${path}`)).headers.get('cache-control')).toBe('no-store');
    }
  });
});

describe('request bodies', () => {
  test('when a JSON body is over 1 MB, then the answer is 413 payload_too_large', async () => {
    const { server } = await start();
    const res = await fetch(`${server.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blob: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: expect.any(String), code: 'payload_too_large' });
  });

  test('when a JSON body is just under 1 MB, then it is accepted', async () => {
    const { server } = await start();
    const blob = 'x'.repeat(1000 * 1000);
    const res = await fetch(`${server.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blob }),
    });
    expect(res.status).toBe(200);
  });

  test('when the JSON is malformed, then the answer is 400 with a clear message', async () => {
    const { server } = await start();
    const res = await fetch(`${server.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'Request body is not valid JSON', code: 'invalid_json' });
  });

  test('when a body fails the zod schema, then the answer is 400 with the first issue message and its field', async () => {
    const { server } = await start();
    const res = await fetch(`${server.url}/people`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: '' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      message: 'Name is required',
      code: 'validation_failed',
      field: 'name',
    });
  });

  test('when a body passes the zod schema, then the route gets the parsed value', async () => {
    const { server } = await start();
    const res = await fetch(`${server.url}/people`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', role: 'ignored' }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ name: 'Ada' });
  });
});

describe('errors', () => {
  test('when no route matches, then the answer is a 404 JSON error', async () => {
    const { server } = await start();
    const res = await fetch(`${server.url}/does-not-exist`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ message: 'Not found', code: 'not_found' });
  });

  test.each(['/boom', '/boom-sync'])(
    'when %s throws an unexpected error, then the client gets a bare 500 and the log gets the details',
    async (path) => {
      const { server, logs } = await start();
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ message: 'Internal server error', code: 'internal' });
      expect(text).not.toMatch(/secret_table|Cannot read|stack|\.ts:/);
      const failure = logs.find((l) => l.msg === 'request failed');
      expect(failure).toMatchObject({
        level: 'error',
        code: 'internal',
        err: { message: expect.any(String), stack: expect.any(String) },
      });
    },
  );

  test('when a route throws an AppError 409, then its message and code reach the client', async () => {
    const { server } = await start();
    const res = await fetch(`${server.url}/taken`);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      message: 'An administrator with this e-mail already exists',
      code: 'email_taken',
    });
  });

  test('when a 429 AppError carries retryAfterSeconds, then Retry-After is set', async () => {
    const { server } = await start();
    const res = await fetch(`${server.url}/slow-down`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('42');
    expect(await res.json()).toEqual({ message: 'Too many attempts', code: 'rate_limited' });
  });

  test('when a path parameter is not valid percent-encoding, then the answer is 400 and not 500', async () => {
    const { server } = await start();
    const res = await fetch(`${server.url}/items/%E0%A4%A`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: expect.any(String), code: 'bad_request' });
  });

  test('when a route fails after the headers were sent, then the connection is cut instead of left hanging', async () => {
    const { server } = await start();
    // Depending on timing the cut comes before or after the status line; either way it is not a timeout.
    const reading = fetch(`${server.url}/half-sent`, { signal: AbortSignal.timeout(4_000) }).then((res) =>
      res.text(),
    );
    await expect(reading).rejects.toThrow(/fetch failed|terminated/i);
  });

  test('when a route under a student token fails, then the token never reaches the logs', async () => {
    const { server, logs } = await start();
    await fetch(`${server.url}/student/s3cr3t-invite-token/view`);
    expect(logs.length).toBeGreaterThan(0);
    expect(JSON.stringify(logs)).not.toContain('s3cr3t-invite-token');
  });
});

describe('request ids', () => {
  test('when the caller sends request and correlation ids, then they are echoed', async () => {
    const { server, logs } = await start();
    const res = await fetch(`${server.url}/items/1`, {
      headers: { 'x-request-id': 'req-123', 'x-correlation-id': 'corr-456' },
    });
    expect(res.headers.get('x-request-id')).toBe('req-123');
    expect(res.headers.get('x-correlation-id')).toBe('corr-456');
    expect(logs.find((l) => l.msg === 'request')).toMatchObject({
      requestId: 'req-123',
      correlationId: 'corr-456',
    });
  });

  test('when the caller sends none, then a request id is generated and used as correlation id', async () => {
    const { server } = await start();
    const res = await fetch(`${server.url}/items/1`);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('x-correlation-id')).toBe(requestId);
  });

  test('when the ids are malformed, then fresh ones replace them', async () => {
    const { server } = await start();
    const res = await fetch(`${server.url}/items/1`, {
      headers: { 'x-request-id': 'bad id <script>', 'x-correlation-id': 'x'.repeat(500) },
    });
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('x-correlation-id')).toBe(requestId);
  });
});

describe('security headers', () => {
  test('when any response is sent, then helmet headers are present and x-powered-by is absent', async () => {
    const { server } = await start();
    const res = await fetch(`${server.url}/items/1`);
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('strict-transport-security')).toContain('max-age=');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  test('when an error is sent, then the same headers are there', async () => {
    const { server } = await start();
    const res = await fetch(`${server.url}/nope`);
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });
});

describe('listen', () => {
  test('when listening, then server timeouts are set and close() stops accepting', async () => {
    const { http } = await start();
    const server = await listen(http.app, 0, '127.0.0.1');
    expect(server.server.requestTimeout).toBeGreaterThan(0);
    expect(server.server.headersTimeout).toBeGreaterThan(0);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    await server.close();
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });
});
