import { client, ROOT, startAuth, type Harness } from './harness';

jest.setTimeout(60_000);

type Claims = { sid: string; auth_time: number; iat: number; exp: number };
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Claims;

describe('a session within its maximum age (ADMIN_SESSION_MAX_HOURS, 12 by default)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startAuth('real', { JWT_TTL_SECONDS: 3600 });
  });
  afterAll(() => h?.close());

  test('when the token is renewed, then the new one keeps the session and its start, and never reaches past 12 hours', async () => {
    const api = client(h.url);
    const token = await api.login(ROOT.email, ROOT.password);
    const first = claimsOf(token);
    expect(first.auth_time).toBe(first.iat);

    const renewed = await api.call<{ token: string }>('POST', '/api/auth/refresh', { token });
    expect(renewed.status).toBe(200);
    const second = claimsOf(renewed.body.token);
    expect(second).toMatchObject({ sid: first.sid, auth_time: first.auth_time });
    expect(second.exp).toBeLessThanOrEqual(first.auth_time + 12 * 3600);
  });
});

describe('a session at its maximum age', () => {
  let h: Harness;
  beforeAll(async () => {
    // 3.6 seconds: the sign-in's token already ends where the session does.
    h = await startAuth('real', { ADMIN_SESSION_MAX_HOURS: 0.001 });
  });
  afterAll(() => h?.close());

  test('when renewal is asked, then it is refused, and once the session ends its token is refused too', async () => {
    const api = client(h.url);
    const token = await api.login(ROOT.email, ROOT.password);
    const claims = claimsOf(token);
    expect(claims.exp).toBeLessThanOrEqual(claims.auth_time + 4);

    const renewal = await api.call('POST', '/api/auth/refresh', { token });
    expect(renewal.status).toBe(401);
    expect(renewal.body).toEqual({
      code: 'session_expired',
      message: 'Your session has ended. Please sign in again.',
    });
    expect((await api.call('GET', '/api/auth/me', { token })).status).toBe(200);

    // Past its end and the 5 s of clock skew every verifier allows.
    await new Promise((resolve) => setTimeout(resolve, (claims.exp + 6) * 1000 - Date.now()));
    expect((await api.call('GET', '/api/auth/me', { token })).status).toBe(401);
    // Signing in again starts a new session.
    const again = claimsOf(await api.login(ROOT.email, ROOT.password));
    expect(again.sid).not.toBe(claims.sid);
  });
});
