import http from 'node:http';
import net from 'node:net';
import type { Request } from 'express';
import { start, type RunningGateway } from '../src/service';
import {
  createSigner,
  gatewayConfig,
  silentLogger,
  startJwksUpstream,
  startUpstream,
  type Upstream,
} from './helpers';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

describe('gateway proxy', () => {
  const signer = createSigner();
  const seen: Seen[] = [];
  let auth: Upstream;
  let results: Upstream;
  let slow: Upstream;
  let gateway: RunningGateway;
  let refusedUrl: string;

  const record = (req: Request, body: string) =>
    seen.push({ method: req.method, url: req.originalUrl, headers: req.headers, body });

  beforeAll(async () => {
    auth = await startJwksUpstream(signer, (app) => {
      app.use((req, res) => {
        let body = '';
        req.setEncoding('utf8');
        req.on('data', (c: string) => (body += c));
        req.on('end', () => {
          record(req, body);
          res
            .status(201)
            .set('x-upstream', 'auth')
            .json({ ok: true, bytes: Buffer.byteLength(body) });
        });
      });
    });
    results = await startUpstream((app) => {
      app.use((req, res) => {
        record(req, '');
        res.json({ upstream: 'results' });
      });
    });
    slow = await startUpstream((app) => {
      app.use(() => {
        // Never answers: the gateway must give up on its own.
      });
    });
    // A port nothing listens on: connecting is refused.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    refusedUrl = `http://127.0.0.1:${(probe.address() as net.AddressInfo).port}`;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    gateway = await start({
      config: gatewayConfig({
        AUTH_URL: auth.url,
        RESULTS_URL: results.url,
        STUDENT_URL: refusedUrl,
        ASSESSMENT_URL: slow.url,
        // Short enough for the 504 test, long enough that a loaded machine answers every other call in time (at 400 ms
        // a busy component lane once gave the trace-context test a 504).
        UPSTREAM_TIMEOUT_MS: '2000',
        JSON_BODY_LIMIT_BYTES: '1000',
        UPLOAD_BODY_LIMIT_BYTES: '5000',
      }),
      logger: silentLogger,
    });
  });

  afterAll(async () => {
    await gateway.stop();
    await Promise.all([auth.close(), results.close(), slow.close()]);
  });

  beforeEach(() => {
    seen.length = 0;
  });

  it('when an admin request carries a valid token, then the owning service receives it with ids, forwarding headers and the token unchanged', async () => {
    const token = signer.token();
    const res = await fetch(`${gateway.url}/api/admin/admins?page=2`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-request-id': 'req-123',
        'x-correlation-id': 'corr-456',
        connection: 'keep-alive',
      },
      body: JSON.stringify({ name: 'Ada Lovelace' }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-upstream')).toBe('auth');
    expect(res.headers.get('x-request-id')).toBe('req-123');
    expect(await res.json()).toEqual({ ok: true, bytes: 23 });
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request?.url).toBe('/api/admin/admins?page=2');
    expect(request?.body).toBe('{"name":"Ada Lovelace"}');
    expect(request?.headers.authorization).toBe(`Bearer ${token}`);
    expect(request?.headers['x-request-id']).toBe('req-123');
    expect(request?.headers['x-correlation-id']).toBe('corr-456');
    expect(request?.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(request?.headers['x-forwarded-proto']).toBe('http');
    expect(request?.headers['x-forwarded-host']).toBe(new URL(gateway.url).host);
  });

  it("when a caller sends W3C trace context, then the service never receives the caller's as it was sent", async () => {
    const forged = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const res = await fetch(`${gateway.url}/api/auth/login`, {
      method: 'POST',
      headers: { traceparent: forged, tracestate: 'vendor=forged' },
    });
    expect(res.status).toBe(201);
    expect(seen).toHaveLength(1);
    // Untraced (no OTLP endpoint), the gateway sends none; traced, it sends its own span's (tests/traces).
    expect(seen[0]?.headers.traceparent).toBeUndefined();
    expect(seen[0]?.headers.tracestate).toBeUndefined();
  });

  it('when a request arrives without ids, then the gateway makes one up and passes the same one upstream', async () => {
    const res = await fetch(`${gateway.url}/api/auth/login`, { method: 'POST' });
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[0]?.headers['x-request-id']).toBe(id);
    expect(seen[0]?.headers['x-correlation-id']).toBe(id);
  });

  it.each([
    ['no token', undefined, 'invalid_token'],
    ['a malformed token', 'Bearer not-a-jwt', 'invalid_token'],
    ['a token of another signer', `Bearer ${createSigner().token()}`, 'invalid_token'],
    ['an expired token', `Bearer ${signer.token({}, { expiresInSeconds: -60 })}`, 'token_expired'],
  ])(
    'when an admin route is called with %s, then it answers 401 JSON and nothing reaches the service',
    async (_label, authorization, code) => {
      const res = await fetch(`${gateway.url}/api/admin/dashboard`, {
        headers: authorization ? { authorization } : {},
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code });
      expect(seen).toHaveLength(0);
    },
  );

  it('when a token that passed before has expired, then the gateway refuses it without asking the service', async () => {
    const token = signer.token({}, { expiresInSeconds: 1 });
    const fresh = await fetch(`${gateway.url}/api/admin/results`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(fresh.status).toBe(200);
    // Past the expiry and the verifier's clock tolerance (5 s).
    await new Promise((resolve) => setTimeout(resolve, 7_500));
    seen.length = 0;
    const expired = await fetch(`${gateway.url}/api/admin/results`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ code: 'token_expired' });
    expect(seen).toHaveLength(0);
  }, 20_000);

  it('when a report download is requested, then the route table sends it to the report service, which is not configured: 503 JSON', async () => {
    const res = await fetch(`${gateway.url}/api/admin/results/r1/pdf`, {
      headers: { authorization: `Bearer ${signer.token()}` },
    });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ message: 'Service unavailable', code: 'upstream_unavailable' });
    const listed = await fetch(`${gateway.url}/api/admin/results`, {
      headers: { authorization: `Bearer ${signer.token()}` },
    });
    expect(await listed.json()).toEqual({ upstream: 'results' });
  });

  it('when the owning service refuses connections, then the caller gets a 502 JSON at once', async () => {
    const res = await fetch(`${gateway.url}/api/student/some-token`);
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({
      message: 'Upstream service is unreachable',
      code: 'upstream_unreachable',
    });
  });

  it('when the owning service does not answer in time, then the caller gets a 504 JSON', async () => {
    const res = await fetch(`${gateway.url}/api/assessment`, {
      headers: { authorization: `Bearer ${signer.token()}` },
    });
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({ message: 'Upstream service timed out', code: 'upstream_timeout' });
  });

  it('when a JSON body is over the limit, then it answers 413 JSON without forwarding it', async () => {
    const res = await fetch(`${gateway.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x'.repeat(2000) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: 'Request body is too large', code: 'payload_too_large' });
    expect(seen).toHaveLength(0);
  });

  it('when a streamed body without a length grows over the limit, then it answers 413 JSON', async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${gateway.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      for (let i = 0; i < 5; i += 1) req.write('x'.repeat(400));
      req.end();
    });
    expect(status).toBe(413);
    expect(JSON.parse(body)).toEqual({ message: 'Request body is too large', code: 'payload_too_large' });
  });

  it('when a multipart upload is larger than a JSON body may be, then it is forwarded on upload routes only', async () => {
    const upload = () => {
      const form = new FormData();
      form.append('file', new Blob(['y'.repeat(3000)]), 'students.csv');
      return form;
    };
    const headers = { authorization: `Bearer ${signer.token()}` };
    // The admins route takes no uploads, so the JSON limit holds there.
    const refused = await fetch(`${gateway.url}/api/admin/admins/import`, {
      method: 'POST',
      headers,
      body: upload(),
    });
    expect(refused.status).toBe(413);
    // The students route does: the body passes the size check and reaches the (stopped) student service.
    const forwarded = await fetch(`${gateway.url}/api/admin/students/import`, {
      method: 'POST',
      headers,
      body: upload(),
    });
    expect(forwarded.status).toBe(502);
  });

  it('when a path has no owner, then it answers 404 JSON', async () => {
    const res = await fetch(`${gateway.url}/api/nothing-here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not found', code: 'not_found' });
  });

  it('when the JWKS is asked for at the root, then the auth service answers it', async () => {
    const res = await fetch(`${gateway.url}/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { keys: { kid: string }[] }).keys[0]?.kid).toBe(signer.kid);
  });

  it('when the gateway answers, then security headers are set and x-powered-by is not', async () => {
    const res = await fetch(`${gateway.url}/api/nothing-here`);
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('content-security-policy')).toContain("img-src 'self' data:");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('when metrics are scraped on the internal port, then they count proxied requests per upstream', async () => {
    await fetch(`${gateway.url}/api/student/some-token`);
    const text = await (await fetch(`${gateway.internalUrl}/metrics`)).text();
    expect(text).toMatch(/gateway_upstream_errors_total\{[^}]*upstream="student"[^}]*\} [1-9]/);
    expect(text).toMatch(/gateway_upstream_requests_total\{[^}]*upstream="auth"/);
  });

  it('when readiness is asked verbosely on the internal port, then it is ready and reports each upstream', async () => {
    const res = await fetch(`${gateway.internalUrl}/readyz?verbose`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { upstreams: Record<string, string> };
    expect(body.upstreams.student).toBe('unreachable');
    expect(Object.keys(body.upstreams).sort()).toEqual(['assessment', 'auth', 'results', 'student']);
  });
});
