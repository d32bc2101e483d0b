import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { start as startAuth, type RunningAuthService } from '@readiness/auth';
import { createMemoryBus, type EventBus } from '@readiness/kit/bus';
import { openDatabase, type Database } from '@readiness/kit/db';
import { openApiFragments } from '../src/openapi-fragments';
import { start, type RunningGateway } from '../src/service';
import { gatewayConfig, silentLogger } from './helpers';

jest.setTimeout(60_000);

const ROOT = { email: 'root@example.edu', password: 'root-password-1' };

describe('gateway in front of the real auth service', () => {
  let dataDir: string;
  let database: Database;
  let bus: EventBus;
  let auth: RunningAuthService;
  let gateway: RunningGateway;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-auth-'));
    database = await openDatabase({ logger: silentLogger });
    bus = createMemoryBus({ logger: silentLogger, service: 'auth' });
    await bus.start();
    auth = await startAuth({
      config: {
        PORT: 0,
        HOST: '127.0.0.1',
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir,
        SEED_ADMIN_EMAIL: ROOT.email,
        SEED_ADMIN_PASSWORD: ROOT.password,
      },
      logger: silentLogger,
      database,
      bus,
    });
    // No injected verifier: the gateway fetches the auth service's JWKS as it does in production.
    gateway = await start({
      config: gatewayConfig({ AUTH_URL: auth.url }),
      logger: silentLogger,
      openApiFragments,
    });
  });

  afterAll(async () => {
    await gateway.stop();
    await auth.stop();
    await bus.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('when an admin signs in through the gateway, then the token opens the admin routes', async () => {
    const login = await fetch(`${gateway.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ROOT),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };

    const me = await fetch(`${gateway.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(JSON.stringify(await me.json())).toContain(ROOT.email);

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
