import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { closeRedis, createRedis, type Redis } from '@readiness/kit/cache';
import { createTestRedis, type TestRedis } from '@readiness/testing';
import { start, type RunningGateway } from '../src/service';
import { gatewayConfig, silentLogger, startUpstream, type Upstream } from './helpers';

describe('gateway edge policies', () => {
  let auth: Upstream;
  let student: Upstream;
  let testRedis: TestRedis;
  let redis: Redis;
  let gateway: RunningGateway;
  let webDir: string;

  beforeAll(async () => {
    auth = await startUpstream((app) => {
      app.get('/api/auth/cacheable', (_req, res) => {
        res.set('Cache-Control', 'public, max-age=600').json({ from: 'auth' });
      });
      app.get('/api/auth/private', (_req, res) => {
        res.set('Cache-Control', 'private, no-store').json({ from: 'auth' });
      });
      app.use((_req, res) => {
        res.json({ from: 'auth' });
      });
    });
    student = await startUpstream((app) => {
      app.use((_req, res) => {
        res.json({ from: 'student' });
      });
    });
    webDir = mkdtempSync(path.join(tmpdir(), 'gateway-web-'));
    mkdirSync(path.join(webDir, 'assets'));
    writeFileSync(
      path.join(webDir, 'index.html'),
      '<!doctype html><title>Readiness</title><div id="root"></div>',
    );
    writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    testRedis = await createTestRedis();
    // As main.ts creates it.
    redis = createRedis({
      url: testRedis.url,
      keyPrefix: testRedis.prefix,
      logger: silentLogger,
      autoPipelining: true,
    });
    gateway = await start({
      config: gatewayConfig({
        AUTH_URL: auth.url,
        STUDENT_URL: student.url,
        CORS_ORIGINS: 'https://admin.example.edu, https://other.example.edu/',
        WEB_DIST_DIR: webDir,
        RATE_LIMIT_LOGIN: '3',
        RATE_LIMIT_STUDENT: '2',
        LTI_FRAME_ANCESTORS: 'https://moodle.example.edu, https://*.instructure.com',
      }),
      logger: silentLogger,
      redis,
    });
  });

  afterAll(async () => {
    await gateway.stop();
    await closeRedis(redis);
    await testRedis.close();
    await Promise.all([auth.close(), student.close()]);
    rmSync(webDir, { recursive: true, force: true });
  });

  it('when sign-in is attempted too often from one address, then it answers 429 JSON with Retry-After', async () => {
    const login = () => fetch(`${gateway.url}/api/auth/login`, { method: 'POST' });
    for (let i = 0; i < 3; i += 1) expect((await login()).status).toBe(200);
    const refused = await login();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({
      message: 'Too many requests, please try again later',
      code: 'rate_limited',
    });
    // The counters live in Redis, shared by every gateway replica.
    expect((await redis.keys(`${testRedis.prefix}gateway:login*`)).length).toBeGreaterThan(0);
  });

  it('when invitation links are looked up too often, then lookups are refused but the rest of the API is not', async () => {
    const lookup = (token: string) => fetch(`${gateway.url}/api/student/${token}`);
    expect((await lookup('a')).status).toBe(200);
    expect((await lookup('b')).status).toBe(200);
    expect((await lookup('c')).status).toBe(429);
    const submit = await fetch(`${gateway.url}/api/student/a/submit`, { method: 'POST' });
    expect(submit.status).toBe(200);
  });

  it('when the student’s assessment page is opened, then the LMSs of LTI_FRAME_ANCESTORS may frame it, and no site any other page', async () => {
    const framed = await fetch(`${gateway.url}/assessment/tok-123`, { headers: { accept: 'text/html' } });
    expect(framed.headers.get('content-security-policy')).toContain(
      'frame-ancestors https://moodle.example.edu https://*.instructure.com',
    );
    expect(framed.headers.get('x-frame-options')).toBeNull();
    const admin = await fetch(`${gateway.url}/admin/login`, { headers: { accept: 'text/html' } });
    expect(admin.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(admin.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    // Anything but origins (every site, a keyword, a path) stops the gateway at boot.
    for (const value of ['*', "'self'", 'https://lms.example.edu/course'])
      expect(() => gatewayConfig({ LTI_FRAME_ANCESTORS: value })).toThrow(/must be an origin/);
  });

  it('when an allowed origin sends a preflight, then the CORS headers allow it', async () => {
    const res = await fetch(`${gateway.url}/api/admin/students`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://other.example.edu',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://other.example.edu');
    expect(res.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(res.headers.get('vary')).toContain('Origin');
  });

  it('when an origin outside the allow-list calls, then it gets no CORS headers and its preflight is refused', async () => {
    const simple = await fetch(`${gateway.url}/api/auth/me-not`, {
      headers: { origin: 'https://evil.example.com' },
    });
    expect(simple.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${gateway.url}/api/admin/students`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'DELETE' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('when a browser opens a client-side route, then it gets the app shell without caching', async () => {
    const res = await fetch(`${gateway.url}/admin/results/123`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toContain('<div id="root">');
  });

  it('when a hashed asset is fetched, then it may be cached for a year', async () => {
    const res = await fetch(`${gateway.url}/assets/index-abc123.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('when an unknown API path is asked for by a browser, then it is a 404 JSON and not the app shell', async () => {
    const res = await fetch(`${gateway.url}/api/nothing`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not found', code: 'not_found' });
  });

  it('when the dev mail pages are not mounted, then /dev/mail is a 404 for API clients', async () => {
    const res = await fetch(`${gateway.url}/dev/mail`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(404);
  });

  it('when /metrics or verbose readiness is asked at the public entry, then it is a 404 and shows nothing', async () => {
    for (const path of ['/metrics', '/readyz?verbose', '/readyz?verbose=1']) {
      const res = await fetch(`${gateway.url}${path}`, { headers: { accept: 'application/json' } });
      expect(res.status).toBe(404);
      const text = await res.text();
      expect(text).not.toContain('gateway_');
      expect(text).not.toContain('upstreams');
    }
    const internal = await fetch(`${gateway.internalUrl}/readyz?verbose`);
    expect(((await internal.json()) as { rateLimitStore: string }).rateLimitStore).toBe('redis');
    expect((await fetch(`${gateway.internalUrl}/metrics`)).status).toBe(200);
  });

  it('when the API answers, then nothing may store it: proxied, refused and unknown alike', async () => {
    const answers = [
      await fetch(`${gateway.url}/api/student/x/submit`, { method: 'POST' }),
      await fetch(`${gateway.url}/api/auth/me`),
      await fetch(`${gateway.url}/api/nothing`),
      await fetch(`${gateway.url}/api/docs/openapi.json`),
      await fetch(`${gateway.url}/.well-known/jwks.json`),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 401, 404, 200, 200]);
    for (const res of answers) expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('when a service marks an answer cacheable, then the gateway still forbids storing it; a stricter value is kept', async () => {
    const cacheable = await fetch(`${gateway.url}/api/auth/cacheable`);
    expect(cacheable.headers.get('cache-control')).toBe('no-store');
    const strict = await fetch(`${gateway.url}/api/auth/private`);
    expect(strict.headers.get('cache-control')).toBe('private, no-store');
  });

  it('when readiness is asked, then it answers ready while Redis answers', async () => {
    const res = await fetch(`${gateway.url}/readyz`);
    expect(res.status).toBe(200);
  });
});
