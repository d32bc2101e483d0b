import net from 'node:net';
import {
  closeRedis,
  createMemoryStore,
  createRedis,
  createRedisStore,
  createRevocationList,
  type KeyValueStore,
  type Redis,
  type RevocationList,
} from '@readiness/kit/cache';
import { createTestRedis, type TestRedis } from '@readiness/testing';
import { start, type RunningGateway } from '../src/service';
import {
  createSigner,
  gatewayConfig,
  silentLogger,
  startEmbeddedAuth,
  startJwksUpstream,
  startUpstream,
  type EmbeddedAuth,
  type Upstream,
} from './helpers';

jest.setTimeout(60_000);

/** A results service that records what reaches it: a refused token must never get this far. */
async function recordingResults(): Promise<Upstream & { seen: string[] }> {
  const seen: string[] = [];
  const upstream = await startUpstream((app) => {
    app.use((req, res) => {
      seen.push(req.originalUrl);
      res.json({ upstream: 'results' });
    });
  });
  return { ...upstream, seen };
}

const dashboard = (gateway: RunningGateway, token: string) =>
  fetch(`${gateway.url}/api/admin/dashboard`, { headers: { authorization: `Bearer ${token}` } });

describe('gateway with the all-in-one shared store and the real auth service', () => {
  let kv: KeyValueStore;
  let embedded: EmbeddedAuth;
  let results: Upstream & { seen: string[] };
  let gateway: RunningGateway;

  beforeAll(async () => {
    kv = createMemoryStore();
    embedded = await startEmbeddedAuth({ kv });
    results = await recordingResults();
    gateway = await start({
      config: gatewayConfig({ AUTH_URL: embedded.auth.url, RESULTS_URL: results.url }),
      logger: silentLogger,
      kv,
    });
  });

  afterAll(async () => {
    await gateway.stop();
    await embedded.close();
    await results.close();
    await kv.close();
  });

  it('when an admin signs out, then the gateway itself refuses the old token and the owning service never sees it', async () => {
    const token = await embedded.signIn(gateway.url);
    expect((await dashboard(gateway, token)).status).toBe(200);
    expect(results.seen).toEqual(['/api/admin/dashboard']);

    const logout = await fetch(`${gateway.url}/api/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(logout.status).toBeLessThan(300);

    const refused = await dashboard(gateway, token);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 'invalid_token' });
    expect(results.seen).toEqual(['/api/admin/dashboard']);
  });
});

describe('gateway revocation check on Redis', () => {
  const signer = createSigner();
  let jwks: Upstream;
  let results: Upstream & { seen: string[] };
  let testRedis: TestRedis;
  let redis: Redis;
  let authSide: Redis;
  let revocations: RevocationList;
  let gateway: RunningGateway;

  beforeAll(async () => {
    jwks = await startJwksUpstream(signer);
    results = await recordingResults();
    testRedis = await createTestRedis();
    // As main.ts creates it.
    redis = createRedis({
      url: testRedis.url,
      keyPrefix: testRedis.prefix,
      logger: silentLogger,
      autoPipelining: true,
    });
    // A second client with the same prefix plays the auth service writing revocations.
    authSide = createRedis({ url: testRedis.url, keyPrefix: testRedis.prefix, logger: silentLogger });
    revocations = createRevocationList(createRedisStore({ client: authSide }));
    await revocations.markFilled();
    gateway = await start({
      config: gatewayConfig({ AUTH_URL: jwks.url, RESULTS_URL: results.url }),
      logger: silentLogger,
      redis,
    });
  });

  afterAll(async () => {
    await gateway.stop();
    await Promise.all([closeRedis(redis), closeRedis(authSide)]);
    await testRedis.close();
    await Promise.all([jwks.close(), results.close()]);
  });

  beforeEach(() => {
    results.seen.length = 0;
  });

  it('when a token id is revoked, then that token gets a 401 at the gateway and other tokens still pass', async () => {
    const revoked = signer.token({ jti: 'signed-out-1' });
    const other = signer.token({ jti: 'still-signed-in' });
    await revocations.revoke('signed-out-1', Math.floor(Date.now() / 1000) + 900);

    expect((await dashboard(gateway, revoked)).status).toBe(401);
    expect(results.seen).toEqual([]);
    expect((await dashboard(gateway, other)).status).toBe(200);
    expect(results.seen).toEqual(['/api/admin/dashboard']);
  });

  it('when an admin is disabled or their password reset, then every token issued before is refused', async () => {
    // The signer's tokens are all for admin-1, so this test runs last in its group.
    const before = signer.token();
    await revocations.revokeSubjectBefore('admin-1', Math.floor(Date.now() / 1000) + 1, 900);

    expect((await dashboard(gateway, before)).status).toBe(401);
    expect(results.seen).toEqual([]);
  });
});

describe('gateway revocation check while Redis is unreachable', () => {
  const signer = createSigner();
  let jwks: Upstream;
  let results: Upstream & { seen: string[] };
  let redis: Redis;
  let gateway: RunningGateway;

  beforeAll(async () => {
    jwks = await startJwksUpstream(signer);
    results = await recordingResults();
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    redis = createRedis({ url: `redis://127.0.0.1:${port}`, keyPrefix: 'readiness:', logger: silentLogger });
    gateway = await start({
      config: gatewayConfig({ AUTH_URL: jwks.url, RESULTS_URL: results.url }),
      logger: silentLogger,
      redis,
    });
  });

  afterAll(async () => {
    await gateway.stop();
    await closeRedis(redis);
    await Promise.all([jwks.close(), results.close()]);
  });

  it('when the revocation store cannot answer, then a valid token still reaches the service and the failure is counted', async () => {
    const res = await dashboard(gateway, signer.token());
    expect(res.status).toBe(200);
    expect(results.seen).toEqual(['/api/admin/dashboard']);

    const metrics = await (await fetch(`${gateway.internalUrl}/metrics`)).text();
    const failures = /^gateway_revocation_check_failures_total\{[^}]*\} (\d+)/m.exec(metrics);
    expect(Number(failures?.[1])).toBeGreaterThanOrEqual(1);
  });
});
