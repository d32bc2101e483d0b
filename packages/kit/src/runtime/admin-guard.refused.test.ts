import { createHmac, generateKeyPairSync, randomUUID } from 'node:crypto';
import { signTestJwt } from '@readiness/testing';
import { z } from 'zod';
import { createJwtVerifier } from '../auth';
import { createMemoryStore, createRevocationList } from '../cache';
import { adminAuthEnv, serviceEnv } from '../config';
import { createLogger } from '../logger';
import { defineService, startService, type RunningService } from './index';

const logger = createLogger({ name: 'admin-guard-test', level: 'silent' });
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const verifier = createJwtVerifier({
  publicKeys: [{ kid: 'k1', key: publicKey }],
  issuer: 'readiness-auth',
  audience: 'readiness-admin',
  logger,
});
const kv = createMemoryStore();
const testConfig = { PORT: 0, HOST: '127.0.0.1', NODE_ENV: 'test', LOG_LEVEL: 'silent' };

function token(claims: Record<string, unknown> = {}): string {
  return signTestJwt({ role: 'admin', jti: randomUUID(), sid: randomUUID(), ...claims }, privateKey, {
    kid: 'k1',
    subject: randomUUID(),
    issuer: 'readiness-auth',
    audience: 'readiness-admin',
    expiresIn: 600,
  });
}

/** A token signed HS256 with a secret someone guessed, as an attacker would forge one. */
function guessedSecretToken(claims: Record<string, unknown>): string {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ ...claims, iat: Math.floor(Date.now() / 1000) })}`;
  return `${input}.${createHmac('sha256', 'guessed-secret').update(input).digest('base64url')}`;
}

/** A service that declares nothing about admin tokens: the runtime guards its /api/admin routes by default. */
const things = defineService({
  name: 'things',
  config: z.object({ ...serviceEnv, ...adminAuthEnv }),
  setup: ({ adminGuard }) => ({
    routes: (app) => {
      app.get('/api/admin/things', (_req, res) => {
        res.json({ things: ['secret'] });
      });
      // Admin routes under the service's own prefix, guarded with the check the runtime lends.
      app.use('/api/things/owned', adminGuard);
      app.get('/api/things/owned/list', (_req, res) => {
        res.json({ things: ['secret'] });
      });
      app.get('/api/things/public', (_req, res) => {
        res.json({ ok: true });
      });
    },
  }),
});

describe('the runtime guards every service’s /api/admin routes', () => {
  let service: RunningService<unknown, undefined>;
  beforeAll(async () => {
    // As auth does on start: the store holds every revocation in force.
    await createRevocationList(kv).markFilled();
    service = await startService(things, {
      config: testConfig,
      logger,
      shared: { kv, adminVerifier: verifier },
    });
  });
  afterAll(async () => {
    await service?.stop();
    await kv.close();
  });

  const call = (path: string, bearer?: string) =>
    fetch(`${service.url}${path}`, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });

  test('when an admin route is called straight, bypassing the gateway, with no token or a forged one, then it is 401 and the route never runs', async () => {
    for (const bearer of [undefined, 'not-a-token', guessedSecretToken({ role: 'super_admin' })]) {
      const res = await call('/api/admin/things', bearer);
      expect(res.status).toBe(401);
      expect(JSON.stringify(await res.json())).not.toContain('secret');
    }
  });

  test('when a module guards its own prefix with the runtime’s check, then the same rules hold there and public routes stay public', async () => {
    for (const bearer of [undefined, 'not-a-token']) {
      const res = await call('/api/things/owned/list', bearer);
      expect(res.status).toBe(401);
      expect(JSON.stringify(await res.json())).not.toContain('secret');
    }
    const sid = randomUUID();
    const valid = token({ sid });
    expect((await call('/api/things/owned/list', valid)).status).toBe(200);
    await createRevocationList(kv).revokeSession(sid, 600);
    expect((await call('/api/things/owned/list', valid)).status).toBe(401);
    expect((await call('/api/things/public')).status).toBe(200);
  });

  test('when the token is valid, then the route answers; after its session is revoked, it is 401 again', async () => {
    const sid = randomUUID();
    const valid = token({ sid });
    expect((await call('/api/admin/things', valid)).status).toBe(200);
    await createRevocationList(kv).revokeSession(sid, 600);
    expect((await call('/api/admin/things', valid)).status).toBe(401);
  });

  test('when the admin must still change a temporary password, then admin routes are refused with 403', async () => {
    expect((await call('/api/admin/things', token({ must_change_password: true }))).status).toBe(403);
  });

  test('when a route outside /api/admin is called without a token, then it answers', async () => {
    expect((await call('/api/things/public')).status).toBe(200);
  });
});

test('when a service’s config leaves out the admin token settings, then its admin routes fail closed', async () => {
  const careless = defineService({
    name: 'careless',
    config: z.object(serviceEnv),
    setup: () => ({
      routes: (app) => {
        app.get('/api/admin/things', (_req, res) => {
          res.json({ things: ['secret'] });
        });
      },
    }),
  });
  const running = await startService(careless, { config: testConfig, logger });
  try {
    const res = await fetch(`${running.url}/api/admin/things`, {
      headers: { authorization: `Bearer ${token()}` },
    });
    expect(res.status).toBe(401);
  } finally {
    await running.stop();
  }
});
