import { start, type RunningGateway } from '../src/service';
import { gatewayConfig, silentLogger, startUpstream, type Upstream } from './helpers';

describe('gateway client address', () => {
  const forwardedFor: (string | undefined)[] = [];
  let auth: Upstream;

  beforeAll(async () => {
    auth = await startUpstream((app) => {
      app.use((req, res) => {
        forwardedFor.push(req.headers['x-forwarded-for'] as string | undefined);
        res.json({ ok: true });
      });
    });
  });

  afterAll(async () => {
    await auth.close();
  });

  beforeEach(() => {
    forwardedFor.length = 0;
  });

  const startGateway = (env: Record<string, string> = {}) =>
    start({
      config: gatewayConfig({ AUTH_URL: auth.url, RATE_LIMIT_LOGIN: '2', ...env }),
      logger: silentLogger,
    });

  const login = (gateway: RunningGateway, from?: string) =>
    fetch(`${gateway.url}/api/auth/login`, {
      method: 'POST',
      headers: from ? { 'x-forwarded-for': from } : {},
    });

  describe('when no proxy is trusted (the default)', () => {
    let gateway: RunningGateway;
    beforeAll(async () => {
      gateway = await startGateway();
    });
    afterAll(async () => {
      await gateway.stop();
    });

    it('when a client over its sign-in limit forges X-Forwarded-For, then it still gets 429', async () => {
      expect((await login(gateway)).status).toBe(200);
      expect((await login(gateway)).status).toBe(200);
      expect((await login(gateway)).status).toBe(429);
      for (const forged of ['203.0.113.7', '198.51.100.1, 203.0.113.8', '10.0.0.5']) {
        const res = await login(gateway, forged);
        expect(res.status).toBe(429);
        await res.body?.cancel();
      }
    });

    it('when a client sends X-Forwarded-For, then the service receives only the address the gateway saw', async () => {
      await fetch(`${gateway.url}/.well-known/jwks.json`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
      expect(forwardedFor).toEqual(['127.0.0.1']);
    });
  });

  describe('when TRUSTED_PROXIES names loopback (a proxy in front on this machine)', () => {
    let gateway: RunningGateway;
    beforeAll(async () => {
      gateway = await startGateway({ TRUSTED_PROXIES: 'loopback' });
    });
    afterAll(async () => {
      await gateway.stop();
    });

    it('when the proxy reports different clients, then each has its own sign-in limit', async () => {
      expect((await login(gateway, '203.0.113.7')).status).toBe(200);
      expect((await login(gateway, '203.0.113.7')).status).toBe(200);
      expect((await login(gateway, '203.0.113.7')).status).toBe(429);
      expect((await login(gateway, '198.51.100.1, 203.0.113.9')).status).toBe(200);
    });

    it('when the proxy reports a client, then the service receives that client address alone', async () => {
      await fetch(`${gateway.url}/.well-known/jwks.json`, {
        headers: { 'x-forwarded-for': '198.51.100.1, 203.0.113.7' },
      });
      expect(forwardedFor).toEqual(['203.0.113.7']);
    });
  });

  it('when TRUSTED_PROXIES is a hop count, then that many proxies are believed', async () => {
    const gateway = await startGateway({ TRUSTED_PROXIES: '2' });
    try {
      await fetch(`${gateway.url}/.well-known/jwks.json`, {
        headers: { 'x-forwarded-for': '192.0.2.1, 198.51.100.1, 203.0.113.7' },
      });
      expect(forwardedFor).toEqual(['198.51.100.1']);
    } finally {
      await gateway.stop();
    }
  });
});
