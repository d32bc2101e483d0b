import { createMemoryStore, type KeyValueStore } from '@readiness/kit/cache';
import { start, type RunningGateway } from '../src/service';
import {
  gatewayConfig,
  silentLogger,
  startEmbeddedAuth,
  startUpstream,
  type EmbeddedAuth,
  type Upstream,
} from './helpers';

jest.setTimeout(60_000);

/** Issuer and audience other than the defaults, set on auth and on the gateway alike. */
const JWT = { JWT_ISSUER: 'https://auth.readiness.example.edu', JWT_AUDIENCE: 'readiness-portal' };

let kv: KeyValueStore;
let embedded: EmbeddedAuth;
let results: Upstream & { seen: string[] };
let gateway: RunningGateway;
let defaultsGateway: RunningGateway;

beforeAll(async () => {
  kv = createMemoryStore();
  embedded = await startEmbeddedAuth({ kv, config: JWT });
  const seen: string[] = [];
  results = {
    ...(await startUpstream((app) => {
      app.use((req, res) => {
        seen.push(req.originalUrl);
        res.json({ upstream: 'results' });
      });
    })),
    seen,
  };
  const upstreams = { AUTH_URL: embedded.auth.url, RESULTS_URL: results.url };
  gateway = await start({ config: gatewayConfig({ ...upstreams, ...JWT }), logger: silentLogger, kv });
  defaultsGateway = await start({ config: gatewayConfig(upstreams), logger: silentLogger, kv });
});

afterAll(async () => {
  await gateway?.stop();
  await defaultsGateway?.stop();
  await embedded?.close();
  await results?.close();
});

const call = (base: string, method: string, path: string, token: string) =>
  fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}` } });

test('when auth and the gateway share a non-default issuer, then a login token works through the gateway; a gateway expecting another issuer refuses it with 401', async () => {
  const token = await embedded.signIn(gateway.url);
  expect((await call(gateway.url, 'GET', '/api/auth/me', token)).status).toBe(200);
  expect((await call(gateway.url, 'GET', '/api/admin/dashboard', token)).status).toBe(200);
  expect(results.seen).toContain('/api/admin/dashboard');

  results.seen.length = 0;
  expect((await call(defaultsGateway.url, 'GET', '/api/admin/dashboard', token)).status).toBe(401);
  expect(results.seen).toEqual([]);
});

test('when the first token of a session logs out, then the token renewed from it is refused at auth and at the gateway', async () => {
  const first = await embedded.signIn(gateway.url);
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const refresh = await call(gateway.url, 'POST', '/api/auth/refresh', first);
  expect(refresh.status).toBe(200);
  const renewed = ((await refresh.json()) as { token: string }).token;
  expect(renewed).not.toBe(first);
  expect((await call(gateway.url, 'GET', '/api/admin/dashboard', renewed)).status).toBe(200);

  expect((await call(gateway.url, 'POST', '/api/auth/logout', first)).status).toBe(204);

  results.seen.length = 0;
  expect((await call(embedded.auth.url, 'GET', '/api/auth/me', renewed)).status).toBe(401);
  expect((await call(gateway.url, 'GET', '/api/admin/dashboard', renewed)).status).toBe(401);
  expect((await call(gateway.url, 'GET', '/api/admin/dashboard', first)).status).toBe(401);
  expect(results.seen).toEqual([]);
  // Another session of the same admin lives on.
  const other = await embedded.signIn(gateway.url);
  expect((await call(gateway.url, 'GET', '/api/admin/dashboard', other)).status).toBe(200);
});
