import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMemoryStore, createRevocationList } from '@readiness/kit/cache';
import { signTestJwt } from '@readiness/testing';
import { startNotification, type Harness } from './harness';

jest.setTimeout(60_000);

const ISSUER = 'https://auth.readiness.example.edu';
const AUDIENCE = 'readiness-portal';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const kid = randomUUID();
const kv = createMemoryStore();

let jwks: Server;
let h: Harness;

beforeAll(async () => {
  // As auth does on start: the store holds every revocation in force.
  await createRevocationList(kv).markFilled();
  // Stands in for the auth service's key set.
  jwks = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' }] }),
    );
  });
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  const jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/.well-known/jwks.json`;
  h = await startNotification('embedded', {
    config: { AUTH_JWKS_URL: jwksUrl, JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE },
    kv,
  });
});

afterAll(async () => {
  await h?.close();
  await new Promise<void>((resolve) => jwks.close(() => resolve()));
});

const token = (claims: Record<string, unknown> = {}, issuer = ISSUER) =>
  signTestJwt({ role: 'admin', sid: randomUUID(), ...claims }, privateKey, {
    kid,
    subject: randomUUID(),
    jwtid: randomUUID(),
    issuer,
    audience: AUDIENCE,
    expiresIn: 600,
  });

const adminCall = (bearer?: string) =>
  fetch(`${h.service.url}/api/admin/notifications`, {
    headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
  });

test('when the notification service is called directly on /api/admin without a token or with a foreign issuer, then 401', async () => {
  const none = await adminCall();
  expect(none.status).toBe(401);
  expect(await none.json()).toEqual({ message: 'Not authorized', code: 'invalid_token' });
  expect((await adminCall('not-a-token')).status).toBe(401);
  expect((await adminCall(token({}, 'readiness-auth'))).status).toBe(401);
});

test('when the token demands a password change, then 403 as auth answers it', async () => {
  const res = await adminCall(token({ must_change_password: true }));
  expect(res.status).toBe(403);
  expect(await res.json()).toEqual({
    message: 'You must set a new password before continuing',
    code: 'password_change_required',
  });
});

test('when the session of a valid token was logged out, then 401; a live one passes the check', async () => {
  const sid = randomUUID();
  const live = token({ sid });
  // Past the guard there is no such route: 404, not 401.
  expect((await adminCall(live)).status).toBe(404);
  await createRevocationList(kv).revokeSession(sid, 600);
  expect((await adminCall(live)).status).toBe(401);
});
