import { createHmac, createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { signTestJwt } from '@readiness/testing';
import { client, ROOT, startAuth, uniqueEmail, type Harness } from './harness';

let h: Harness;
let api: ReturnType<typeof client>;
let rootToken: string;
let forgedTokens: Record<string, string>;

jest.setTimeout(30_000);

beforeAll(async () => {
  h = await startAuth('real');
  api = client(h.url);
  rootToken = await api.login(ROOT.email, ROOT.password);
  forgedTokens = forged();
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

function forged(): Record<string, string> {
  const now = Math.floor(Date.now() / 1000);
  const kid = h.service.exports.jwks.keys[0]?.kid as string;
  const claims = {
    sub: randomUUID(),
    role: 'super_admin',
    jti: randomUUID(),
    iat: now,
    exp: now + 600,
    iss: 'readiness-auth',
    aud: 'readiness-admin',
  };
  const key = createPrivateKey(h.privateKeyPem);
  const sign = (over: Record<string, unknown>) => signTestJwt({ ...claims, ...over }, key, { kid });
  const publicPem = createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString();
  const hsInput = `${b64({ alg: 'HS256', typ: 'JWT', kid })}.${b64(claims)}`;
  const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  return {
    malformed: 'not.a.token',
    'alg none': `${b64({ alg: 'none', typ: 'JWT', kid })}.${b64(claims)}.`,
    'HS256 with the public key': `${hsInput}.${createHmac('sha256', publicPem).update(hsInput).digest('base64url')}`,
    expired: sign({ iat: now - 7200, exp: now - 3600 }),
    'wrong issuer': sign({ iss: 'someone-else' }),
    'wrong audience': sign({ aud: 'students' }),
    'foreign key': signTestJwt(claims, stranger, { kid }),
  };
}

describe('login', () => {
  test('when the credentials are right, then a token and the admin come back and lastLogin is set', async () => {
    const res = await api.call<{ token: string; admin: Record<string, unknown> }>('POST', '/api/auth/login', {
      body: { email: '  ROOT@Example.com ', password: ROOT.password },
    });
    expect(res.status).toBe(200);
    expect(res.body.admin).toMatchObject({
      email: ROOT.email,
      role: 'super_admin',
      status: 'active',
      mustChangePassword: false,
    });
    expect(typeof res.body.admin.lastLogin).toBe('string');
    expect(Object.keys(res.body.admin).sort()).toEqual(
      [
        '_id',
        'createdAt',
        'email',
        'lastLogin',
        'mfaEnabled',
        'mustChangePassword',
        'name',
        'role',
        'status',
      ].sort(),
    );
    const header = JSON.parse(Buffer.from(res.body.token.split('.')[0] as string, 'base64url').toString());
    expect(header).toMatchObject({ alg: 'RS256', kid: h.service.exports.jwks.keys[0]?.kid });
    const claims = decodeJwt(res.body.token);
    expect(claims).toMatchObject({
      sub: res.body.admin._id,
      role: 'super_admin',
      iss: 'readiness-auth',
      aud: 'readiness-admin',
    });
    expect((claims.exp as number) - (claims.iat as number)).toBe(8 * 3600);
  });

  test.each([
    [{}, 'Email is required'],
    [{ email: '', password: 'secret1' }, 'Email is required'],
    [{ email: 'not-an-email', password: 'secret1' }, 'Invalid email address'],
    [{ email: 'a@example.com' }, 'Password is required'],
    [{ email: 'a@example.com', password: '' }, 'Password is required'],
    [{ email: 'a@example.com', password: '12345' }, 'Password must be at least 6 characters'],
    [{ email: 'a@example.com', password: 'é'.repeat(37) }, 'Password must be at most 72 bytes'],
  ])('when the body is %j, then 400 says %s', async (body, message) => {
    const res = await api.call('POST', '/api/auth/login', { body });
    expect(res.status).toBe(400);
    // The field the message is about, so the sign-in form shows it there.
    const field = message.startsWith('Password') ? 'password' : 'email';
    expect(res.body).toEqual({ message, code: 'validation_failed', field });
  });

  test('when the e-mail is unknown or the password wrong, then the answers are identical', async () => {
    const unknown = await api.call('POST', '/api/auth/login', {
      body: { email: uniqueEmail('nobody'), password: 'whatever1' },
    });
    const wrong = await api.call('POST', '/api/auth/login', {
      body: { email: ROOT.email, password: 'wrong-password' },
    });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.body).toEqual({ message: 'Invalid email or password', code: 'invalid_credentials' });
  });
});

describe('session', () => {
  test('when signed in, then me answers the admin; after logout the same token is refused', async () => {
    const token = await api.login(ROOT.email, ROOT.password);
    const me = await api.call<{ admin: { email: string } }>('GET', '/api/auth/me', { token });
    expect(me.status).toBe(200);
    expect(me.body.admin.email).toBe(ROOT.email);
    const out = await api.call('POST', '/api/auth/logout', { token });
    expect(out.status).toBe(204);
    expect((await api.call('GET', '/api/auth/me', { token })).status).toBe(401);
    // Other sessions of the same admin are untouched.
    expect((await api.call('GET', '/api/auth/me', { token: rootToken })).status).toBe(200);
  });

  test('when a valid token is refreshed, then the new token works and carries a later expiry', async () => {
    const token = await api.login(ROOT.email, ROOT.password);
    await new Promise((r) => setTimeout(r, 1100));
    const res = await api.call<{ token: string }>('POST', '/api/auth/refresh', { token });
    expect(res.status).toBe(200);
    expect(decodeJwt(res.body.token).exp).toBeGreaterThan(decodeJwt(token).exp as number);
    expect((await api.call('GET', '/api/auth/me', { token: res.body.token })).status).toBe(200);
  });

  test('when the password is changed, then older tokens are refused, the new token and password work', async () => {
    const email = uniqueEmail('changer');
    await api.createAdmin(rootToken, { name: 'Changer', email, password: 'first-pass', role: 'admin' });
    const older = await api.login(email, 'first-pass');
    const current = await api.login(email, 'first-pass');

    const wrong = await api.call('POST', '/api/auth/change-password', {
      token: current,
      body: { currentPassword: 'not-it', newPassword: 'second-pass' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('Current password is incorrect');
    const short = await api.call('POST', '/api/auth/change-password', {
      token: current,
      body: { currentPassword: 'first-pass', newPassword: '123' },
    });
    expect(short.body.message).toBe('Password must be at least 6 characters');

    const res = await api.call<{ token: string; admin: { mustChangePassword: boolean } }>(
      'POST',
      '/api/auth/change-password',
      {
        token: current,
        body: { currentPassword: 'first-pass', newPassword: 'second-pass' },
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.admin.mustChangePassword).toBe(false);
    expect((await api.call('GET', '/api/auth/me', { token: older })).status).toBe(401);
    expect((await api.call('GET', '/api/auth/me', { token: current })).status).toBe(401);
    expect((await api.call('GET', '/api/auth/me', { token: res.body.token })).status).toBe(200);
    expect(
      (await api.call('POST', '/api/auth/login', { body: { email, password: 'first-pass' } })).status,
    ).toBe(401);
    await api.login(email, 'second-pass');
  });

  test('when the JWKS is requested, then it lists the signing key as an RS256 JWK', async () => {
    for (const path of ['/.well-known/jwks.json', '/api/auth/jwks.json']) {
      const res = await api.call<{ keys: Array<Record<string, string>> }>('GET', path);
      expect(res.status).toBe(200);
      expect(res.body.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
      expect(res.body.keys[0]).not.toHaveProperty('d');
    }
  });
});

describe('brute force', () => {
  test('when one account gets 11 rapid wrong passwords, then it is locked (429) even for the right password; others are not', async () => {
    const email = uniqueEmail('target');
    const other = uniqueEmail('bystander');
    await api.createAdmin(rootToken, { name: 'Target', email, password: 'right-pass', role: 'admin' });
    await api.createAdmin(rootToken, {
      name: 'Bystander',
      email: other,
      password: 'right-pass',
      role: 'admin',
    });

    for (let i = 0; i < 10; i++) {
      const res = await api.call('POST', '/api/auth/login', { body: { email, password: `wrong-${i}-pass` } });
      expect(res.status).toBe(401);
    }
    const locked = await api.call('POST', '/api/auth/login', { body: { email, password: 'wrong-11-pass' } });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    expect(locked.body.message).toBe('Too many login attempts. Try again in 15 minutes.');

    const right = await api.call('POST', '/api/auth/login', { body: { email, password: 'right-pass' } });
    expect(right.status).toBe(429);
    expect(
      (await api.call('POST', '/api/auth/login', { body: { email: other, password: 'right-pass' } })).status,
    ).toBe(200);
  });

  test('when a login succeeds, then the failures before it are forgotten', async () => {
    const email = uniqueEmail('forgetful');
    await api.createAdmin(rootToken, { name: 'Forgetful', email, password: 'right-pass', role: 'admin' });
    for (let i = 0; i < 9; i++)
      await api.call('POST', '/api/auth/login', { body: { email, password: 'wrong-pass' } });
    await api.login(email, 'right-pass');
    for (let i = 0; i < 9; i++)
      await api.call('POST', '/api/auth/login', { body: { email, password: 'wrong-pass' } });
    await api.login(email, 'right-pass');
  });
});

describe('authorisation matrix', () => {
  const adminRoutes: Array<[string, string, unknown?]> = [
    ['GET', '/api/auth/me'],
    ['POST', '/api/auth/logout'],
    ['POST', '/api/auth/refresh'],
    ['POST', '/api/auth/change-password', { currentPassword: 'x', newPassword: 'yyyyyy' }],
    ['GET', '/api/admin/admins'],
    [
      'POST',
      '/api/admin/admins',
      { name: 'X Y', email: 'x@example.com', password: 'secret1', role: 'admin' },
    ],
    ['PUT', `/api/admin/admins/${randomUUID()}`, { name: 'X Y', email: 'x@example.com', role: 'admin' }],
    ['POST', `/api/admin/admins/${randomUUID()}/reset-password`],
    ['PATCH', `/api/admin/admins/${randomUUID()}/status`, { status: 'active' }],
    ['GET', '/api/admin/audit-log'],
  ];
  const superAdminOnly = adminRoutes.filter(([, path]) => path.startsWith('/api/admin/'));

  // Rows padded to three items: jest treats a callback parameter beyond a row's length as `done`.
  test.each(adminRoutes.map(([m, p, b]) => [m, p, b] as const))(
    'when %s %s is called without a valid token, then 401 every time',
    async (method, path, body) => {
      expect((await api.call(method, path, { body })).status).toBe(401);
      for (const [label, token] of Object.entries(forgedTokens)) {
        const res = await api.call(method, path, { body, token });
        expect({ label, status: res.status }).toEqual({ label, status: 401 });
      }
    },
  );

  test('when the token was logged out or its admin disabled, then every admin route answers 401', async () => {
    const email = uniqueEmail('matrix');
    const created = await api.createAdmin(rootToken, {
      name: 'Matrix',
      email,
      password: 'matrix-pass',
      role: 'super_admin',
    });
    const loggedOut = await api.login(email, 'matrix-pass');
    await api.call('POST', '/api/auth/logout', { token: loggedOut });
    const beforeDisable = await api.login(email, 'matrix-pass');
    expect(
      (
        await api.call('PATCH', `/api/admin/admins/${created._id}/status`, {
          token: rootToken,
          body: { status: 'disabled' },
        })
      ).status,
    ).toBe(200);
    for (const [method, path, body] of adminRoutes) {
      expect({ path, status: (await api.call(method, path, { body, token: loggedOut })).status }).toEqual({
        path,
        status: 401,
      });
      expect({ path, status: (await api.call(method, path, { body, token: beforeDisable })).status }).toEqual(
        { path, status: 401 },
      );
    }
    // A disabled admin cannot sign in again (disabled-admin.refused.test.ts says what they are told).
    const again = await api.call('POST', '/api/auth/login', { body: { email, password: 'matrix-pass' } });
    expect(again.status).toBe(401);
    expect(again.body.token).toBeUndefined();
  });

  test('when a regular admin calls a super-admin route, then 403 Forbidden', async () => {
    const email = uniqueEmail('regular');
    await api.createAdmin(rootToken, { name: 'Regular', email, password: 'regular-pass', role: 'admin' });
    const token = await api.login(email, 'regular-pass');
    for (const [method, path, body] of superAdminOnly) {
      const res = await api.call(method, path, { body, token });
      expect({ path, status: res.status, message: res.body.message }).toEqual({
        path,
        status: 403,
        message: 'Forbidden',
      });
    }
    expect((await api.call('GET', '/api/auth/me', { token })).status).toBe(200);
  });

  test('when a super admin calls the super-admin routes, then they are allowed', async () => {
    expect((await api.call('GET', '/api/admin/admins', { token: rootToken })).status).toBe(200);
    expect((await api.call('GET', '/api/admin/audit-log', { token: rootToken })).status).toBe(200);
    expect(
      (
        await api.call('PUT', `/api/admin/admins/${randomUUID()}`, {
          token: rootToken,
          body: { name: 'X Y', email: 'x@example.com', role: 'admin' },
        })
      ).status,
    ).toBe(404);
  });
});
