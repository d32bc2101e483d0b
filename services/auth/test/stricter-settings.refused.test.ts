/*
 * Settings that shorten sessions or take passwords away apply to the tokens already out, not only to the next
 * sign-in: the same database and signing key restarted with the stricter setting (a replica started with it).
 */
import { ADMIN_CACHE_MS } from '../src/domain/admin-accounts';
import { client, ROOT, startAuth, uniqueEmail, type Harness } from './harness';

jest.setTimeout(60_000);

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as {
    auth_time: number;
    amr: string[];
  };

describe('stricter settings after a restart', () => {
  let h: Harness;
  let api: ReturnType<typeof client>;
  let rootToken: string;
  let adminToken: string;
  const ADMIN = { name: 'Regular Admin', email: uniqueEmail('stricter'), password: 'regular-password-9' };

  beforeAll(async () => {
    h = await startAuth('real', { JWT_TTL_SECONDS: 3600 });
    api = client(h.url);
    rootToken = await api.login(ROOT.email, ROOT.password);
    await api.createAdmin(rootToken, { ...ADMIN, role: 'admin' });
    adminToken = await api.login(ADMIN.email, ADMIN.password);
  });
  afterAll(() => h?.close());

  /** The same service restarted with single sign-on and passwords for super admins only. */
  const passwordsOff = async () =>
    client(
      (
        await h.startReplica({
          OIDC_ISSUER: 'http://127.0.0.1:9/unreachable',
          OIDC_CLIENT_ID: 'readiness',
          OIDC_ALLOW_PASSWORD: 'false',
        })
      ).url,
    );

  test('when a token is issued, then it carries the sign-in time and how the admin signed in', () => {
    expect(claimsOf(adminToken)).toMatchObject({ auth_time: expect.any(Number), amr: ['pwd'] });
  });

  test('when the maximum session age is shortened, then a session that began longer ago ends at once', async () => {
    // Sessions begun more than 5.4 seconds ago are too old for the new setting; a new sign-in has those seconds
    // (less up to one, as the sign-in time is in whole seconds) to show it is accepted, even on a busy machine.
    const tooOldAt = (claimsOf(rootToken).auth_time + 6) * 1000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, tooOldAt - Date.now())));
    const stricter = client((await h.startReplica({ ADMIN_SESSION_MAX_HOURS: 0.0015 })).url);
    for (const path of ['/api/auth/me', '/api/admin/admins']) {
      const refused = await stricter.call('GET', path, { token: rootToken });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({
        code: 'session_max_age',
        message: 'Your session has reached its maximum length. Please sign in again.',
      });
    }
    expect((await stricter.call('POST', '/api/auth/refresh', { token: rootToken })).status).toBe(401);
    // The old setting still accepts it: the refusal is the new setting's.
    expect((await api.call('GET', '/api/auth/me', { token: rootToken })).status).toBe(200);
    // A new sign-in is a new session, within the new limit.
    const fresh = await stricter.login(ROOT.email, ROOT.password);
    expect((await stricter.call('GET', '/api/auth/me', { token: fresh })).status).toBe(200);
  });

  test('when passwords are turned off for single sign-on, then an admin’s password session ends at once and a super admin’s goes on', async () => {
    const stricter = await passwordsOff();
    for (const [method, path] of [
      ['GET', '/api/auth/me'],
      ['POST', '/api/auth/refresh'],
      ['GET', '/api/auth/sessions'],
    ] as const) {
      const refused = await stricter.call(method, path, { token: adminToken });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({
        code: 'sign_in_method_off',
        message: 'The way you signed in is no longer allowed for your account. Please sign in again.',
      });
    }
    expect((await stricter.call('GET', '/api/auth/me', { token: rootToken })).status).toBe(200);
    expect((await api.call('GET', '/api/auth/me', { token: adminToken })).status).toBe(200);
  });

  test('when a super admin signed in with a password loses the role while passwords are off, then the session ends', async () => {
    const stricter = await passwordsOff();
    const email = uniqueEmail('demoted');
    const made = await api.createAdmin(rootToken, {
      name: 'Soon Regular',
      email,
      password: 'soon-regular-9',
      role: 'super_admin',
    });
    const theirs = await stricter.login(email, 'soon-regular-9');
    expect((await stricter.call('GET', '/api/auth/me', { token: theirs })).status).toBe(200);
    const demoted = await api.call('PUT', `/api/admin/admins/${made._id}`, {
      token: rootToken,
      body: { name: 'Soon Regular', email, role: 'admin' },
    });
    expect(demoted.status).toBe(200);
    // The other instance reads the account again once its short cache of admin rows lapses.
    await new Promise((resolve) => setTimeout(resolve, ADMIN_CACHE_MS + 200));
    const refused = await stricter.call('GET', '/api/auth/me', { token: theirs });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'sign_in_method_off' });
  });
});
