import { start, type RunningGateway } from '../src/service';
import { gatewayConfig, ROOT_ADMIN, silentLogger, startEmbeddedAuth, type EmbeddedAuth } from './helpers';

jest.setTimeout(60_000);

describe('gateway in front of the real auth service', () => {
  let embedded: EmbeddedAuth;
  let gateway: RunningGateway;

  beforeAll(async () => {
    embedded = await startEmbeddedAuth();
    // No injected verifier: the gateway fetches the auth service's JWKS as it does in production.
    gateway = await start({
      config: gatewayConfig({ AUTH_URL: embedded.auth.url }),
      logger: silentLogger,
    });
  });

  afterAll(async () => {
    await gateway.stop();
    await embedded.close();
  });

  it('when an admin signs in through the gateway, then the token opens the admin routes', async () => {
    const token = await embedded.signIn(gateway.url);

    const me = await fetch(`${gateway.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(JSON.stringify(await me.json())).toContain(ROOT_ADMIN.email);

    const admins = await fetch(`${gateway.url}/api/admin/admins`, {
      headers: { authorization: `Bearer ${token}`, 'x-correlation-id': 'e2e-corr-1' },
    });
    expect(admins.status).toBe(200);
    expect(admins.headers.get('x-correlation-id')).toBe('e2e-corr-1');
  });

  it('when the admin list is asked for with a forged token, then the gateway refuses it', async () => {
    const res = await fetch(`${gateway.url}/api/admin/admins`, {
      headers: { authorization: 'Bearer eyJhbGciOiJSUzI1NiIsImtpZCI6Im5vcGUifQ.e30.c2ln' },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'invalid_token' });
  });

  it('when the API documentation is fetched, then it contains the auth paths', async () => {
    const doc = (await (await fetch(`${gateway.url}/api/docs/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { security?: unknown }>>;
    };
    expect(doc.paths['/api/auth/login']?.post).toBeDefined();
    expect(doc.paths['/api/auth/me']?.get?.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/api/admin/admins'))).toBe(true);
  });
});
