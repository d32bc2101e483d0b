import { createHmac, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { decodeJwt } from 'jose';
import { signTestJwt, type TestJwtOptions } from '@readiness/testing';
import { AppError } from '../errors';
import { createJwtVerifier, requireAdminToken, adminClaims, sessionRulesOf, type JwtVerifier } from './index';

const ISSUER = 'readiness-auth';
const AUDIENCE = 'readiness-admin';

function keyPair(): { privateKey: KeyObject; publicKey: KeyObject } {
  return generateKeyPairSync('rsa', { modulusLength: 2048 });
}

function sign(
  privateKey: KeyObject,
  kid: string,
  overrides: Record<string, unknown> = {},
  options: TestJwtOptions = {},
) {
  return signTestJwt({ role: 'admin', jti: randomUUID(), ...overrides }, privateKey, {
    kid,
    subject: 'admin-1',
    issuer: ISSUER,
    audience: AUDIENCE,
    expiresIn: 600,
    ...options,
  });
}

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function claims(extra: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return {
    sub: 'admin-1',
    role: 'super_admin',
    jti: randomUUID(),
    iat: now,
    exp: now + 600,
    iss: ISSUER,
    aud: AUDIENCE,
    ...extra,
  };
}

async function rejection(verifier: JwtVerifier, token: string): Promise<AppError> {
  try {
    await verifier.verify(token);
  } catch (err) {
    return err as AppError;
  }
  throw new Error('the token was accepted');
}

describe('createJwtVerifier', () => {
  const current = keyPair();
  const rotated = keyPair();
  let served: Array<{ kid: string; key: KeyObject }> = [];
  let requests = 0;
  let server: Server;
  let jwksUrl: string;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests += 1;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          keys: served.map(({ kid, key }) => ({
            ...key.export({ format: 'jwk' }),
            kid,
            use: 'sig',
            alg: 'RS256',
          })),
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    served = [{ kid: 'k1', key: current.publicKey }];
    requests = 0;
  });

  const viaJwks = (minRefreshIntervalMs = 60_000) =>
    createJwtVerifier({ jwksUrl, issuer: ISSUER, audience: AUDIENCE, minRefreshIntervalMs });

  test('when a token is signed with the published key, then its claims are returned', async () => {
    const verifier = viaJwks();
    const result = await verifier.verify(sign(current.privateKey, 'k1', { role: 'super_admin' }));
    expect(result).toMatchObject({ sub: 'admin-1', role: 'super_admin', iss: ISSUER, aud: AUDIENCE });
    expect(requests).toBe(1);
    await verifier.verify(sign(current.privateKey, 'k1'));
    expect(requests).toBe(1);
  });

  test('when the token says alg none, then it is refused with 401', async () => {
    const verifier = viaJwks();
    const token = `${b64({ alg: 'none', typ: 'JWT', kid: 'k1' })}.${b64(claims())}.`;
    const err = await rejection(verifier, token);
    expect(err).toBeInstanceOf(AppError);
    expect(err.httpStatus).toBe(401);
  });

  test('when the token is HS256 signed with the public key as the secret, then it is refused with 401', async () => {
    const verifier = viaJwks();
    const pem = current.publicKey.export({ type: 'spki', format: 'pem' });
    const unsigned = `${b64({ alg: 'HS256', typ: 'JWT', kid: 'k1' })}.${b64(claims())}`;
    const signature = createHmac('sha256', pem).update(unsigned).digest('base64url');
    const err = await rejection(verifier, `${unsigned}.${signature}`);
    expect(err.httpStatus).toBe(401);
  });

  test('when the token has expired, then it is refused with 401 token_expired', async () => {
    const verifier = viaJwks();
    const past = Math.floor(Date.now() / 1000) - 3600;
    const token = signTestJwt(claims({ iat: past, exp: past + 600 }), current.privateKey, { kid: 'k1' });
    const err = await rejection(verifier, token);
    expect(err.httpStatus).toBe(401);
    expect(err.code).toBe('token_expired');
  });

  test('when the issuer or the audience is wrong, then the token is refused with 401', async () => {
    const verifier = viaJwks();
    expect(
      (await rejection(verifier, sign(current.privateKey, 'k1', {}, { issuer: 'someone-else' }))).httpStatus,
    ).toBe(401);
    expect(
      (await rejection(verifier, sign(current.privateKey, 'k1', {}, { audience: 'students' }))).httpStatus,
    ).toBe(401);
  });

  test('when the signature was made by another key under a known kid, then it is refused with 401', async () => {
    const verifier = viaJwks();
    expect((await rejection(verifier, sign(rotated.privateKey, 'k1'))).httpStatus).toBe(401);
  });

  test('when the kid is unknown, then the JWKS is fetched again once and a still-unknown kid is refused with 401', async () => {
    const verifier = viaJwks(0);
    await verifier.verify(sign(current.privateKey, 'k1'));
    expect(requests).toBe(1);
    const err = await rejection(verifier, sign(rotated.privateKey, 'k2'));
    expect(err.httpStatus).toBe(401);
    expect(requests).toBe(2);
  });

  test('when the signer rotates to a new kid, then the refreshed JWKS makes the new tokens valid', async () => {
    const verifier = viaJwks(0);
    await verifier.verify(sign(current.privateKey, 'k1'));
    served = [
      { kid: 'k2', key: rotated.publicKey },
      { kid: 'k1', key: current.publicKey },
    ];
    await expect(verifier.verify(sign(rotated.privateKey, 'k2'))).resolves.toMatchObject({ sub: 'admin-1' });
    expect(verifier.knownKids().sort()).toEqual(['k1', 'k2']);
  });

  test('when unknown kids arrive in a burst, then the JWKS refresh is rate-limited', async () => {
    const verifier = viaJwks(60_000);
    await verifier.verify(sign(current.privateKey, 'k1'));
    const forged = Array.from({ length: 20 }, (_, i) => sign(rotated.privateKey, `random-${i}`));
    const results = await Promise.allSettled(forged.map((t) => verifier.verify(t)));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(requests).toBe(1);
  });

  test('when keys are configured up front, then no JWKS request is needed', async () => {
    const verifier = createJwtVerifier({
      publicKeys: [{ kid: 'k1', key: current.publicKey.export({ type: 'spki', format: 'pem' }).toString() }],
      issuer: ISSUER,
      audience: AUDIENCE,
    });
    await expect(verifier.verify(sign(current.privateKey, 'k1'))).resolves.toMatchObject({ sub: 'admin-1' });
    expect((await rejection(verifier, 'not-a-jwt')).httpStatus).toBe(401);
    expect((await rejection(verifier, sign(current.privateKey, 'missing'))).httpStatus).toBe(401);
    expect(requests).toBe(0);
  });

  describe('with the settings in force (sessionRules)', () => {
    const now = () => Math.floor(Date.now() / 1000);
    const withRules = (settings: { ADMIN_SESSION_MAX_HOURS: number; OIDC_ALLOW_PASSWORD: boolean }) =>
      createJwtVerifier({
        publicKeys: [{ kid: 'k1', key: current.publicKey }],
        issuer: ISSUER,
        audience: AUDIENCE,
        sessionRules: sessionRulesOf(settings),
      });

    test('when the session began longer ago than the maximum age in force, then its still-valid token is refused with 401', async () => {
      const verifier = withRules({ ADMIN_SESSION_MAX_HOURS: 2, OIDC_ALLOW_PASSWORD: true });
      // Signed in three hours ago under a 12-hour setting, renewed a minute ago.
      const old = sign(current.privateKey, 'k1', { auth_time: now() - 3 * 3600, amr: ['pwd'] });
      const err = await rejection(verifier, old);
      expect(err).toMatchObject({
        httpStatus: 401,
        code: 'session_max_age',
        message: 'Your session has reached its maximum length. Please sign in again.',
      });
      await expect(
        verifier.verify(sign(current.privateKey, 'k1', { auth_time: now() - 3600, amr: ['pwd'] })),
      ).resolves.toMatchObject({ sub: 'admin-1' });
      // A token without a sign-in time counts from its own issue.
      const undated = sign(
        current.privateKey,
        'k1',
        { iat: now() - 3 * 3600 },
        { expiresIn: 3 * 3600 + 600 },
      );
      expect((await rejection(verifier, undated)).code).toBe('session_max_age');
    });

    test('when passwords are turned off, then an admin’s token signed in without the provider is refused with 401, a super admin’s and a provider’s are not', async () => {
      const verifier = withRules({ ADMIN_SESSION_MAX_HOURS: 12, OIDC_ALLOW_PASSWORD: false });
      for (const amr of [['pwd'], ['pwd', 'otp'], ['passkey'], undefined, 'sso']) {
        const err = await rejection(verifier, sign(current.privateKey, 'k1', { role: 'admin', amr }));
        expect(err).toMatchObject({
          httpStatus: 401,
          code: 'sign_in_method_off',
          message: 'The way you signed in is no longer allowed for your account. Please sign in again.',
        });
      }
      await expect(
        verifier.verify(sign(current.privateKey, 'k1', { role: 'admin', amr: ['sso'] })),
      ).resolves.toMatchObject({ role: 'admin' });
      await expect(
        verifier.verify(sign(current.privateKey, 'k1', { role: 'super_admin', amr: ['pwd'] })),
      ).resolves.toMatchObject({ role: 'super_admin' });
      // Passwords on: any way in is accepted.
      const open = withRules({ ADMIN_SESSION_MAX_HOURS: 12, OIDC_ALLOW_PASSWORD: true });
      await expect(
        open.verify(sign(current.privateKey, 'k1', { role: 'admin', amr: ['pwd'] })),
      ).resolves.toMatchObject({ role: 'admin' });
    });
  });

  test('when the JWKS endpoint is down, then tokens are refused with 401 and nothing throws otherwise', async () => {
    const verifier = createJwtVerifier({
      jwksUrl: 'http://127.0.0.1:1/jwks.json',
      issuer: ISSUER,
      audience: AUDIENCE,
    });
    expect((await rejection(verifier, sign(current.privateKey, 'k1'))).httpStatus).toBe(401);
  });
});

describe('requireAdminToken', () => {
  const pair = keyPair();
  const verifier = createJwtVerifier({
    publicKeys: [{ kid: 'k1', key: pair.publicKey }],
    issuer: ISSUER,
    audience: AUDIENCE,
  });
  const revoked = new Set<string>();
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const app = express();
    app.get(
      '/private',
      requireAdminToken({ verifier, isRevoked: async (c) => revoked.has(c.jti) }),
      (_req, res) => {
        res.json({ sub: adminClaims(res).sub });
      },
    );
    app.get('/super', requireAdminToken({ verifier, superAdmin: true }), (_req, res) => {
      res.json({ role: adminClaims(res).role });
    });
    app.use((err: AppError, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(err.httpStatus).json({ code: err.code, message: err.message });
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('when the bearer token is valid, then the route sees its claims; without it or revoked, then 401', async () => {
    const token = sign(pair.privateKey, 'k1');
    const ok = await fetch(`${base}/private`, { headers: { authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ sub: 'admin-1' });

    expect((await fetch(`${base}/private`)).status).toBe(401);
    expect((await fetch(`${base}/private`, { headers: { authorization: `Basic abc` } })).status).toBe(401);

    revoked.add(decodeJwt(token).jti as string);
    const afterRevoke = await fetch(`${base}/private`, { headers: { authorization: `Bearer ${token}` } });
    expect(afterRevoke.status).toBe(401);
  });

  test('when a route is for super admins, then an admin token gets 403 and a pending password change 403 too', async () => {
    const call = (token: string) => fetch(`${base}/super`, { headers: { authorization: `Bearer ${token}` } });
    expect((await call(sign(pair.privateKey, 'k1', { role: 'super_admin' }))).status).toBe(200);
    const admin = await call(sign(pair.privateKey, 'k1', { role: 'admin' }));
    expect(admin.status).toBe(403);
    expect(await admin.json()).toEqual({ code: 'forbidden', message: 'Forbidden' });
    const pending = await call(
      sign(pair.privateKey, 'k1', { role: 'super_admin', must_change_password: true }),
    );
    expect(pending.status).toBe(403);
    expect(((await pending.json()) as { code: string }).code).toBe('password_change_required');
  });
});
