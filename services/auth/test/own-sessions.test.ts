import { client, ROOT, startAuth, uniqueEmail, type Harness } from './harness';

let h: Harness;
let api: ReturnType<typeof client>;
let rootToken: string;

jest.setTimeout(30_000);

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

interface OwnSession {
  _id: string;
  browser: string | null;
  os: string | null;
  address: string;
  signedInAt: string;
  lastSeenAt: string;
  current: boolean;
}

/** The admins the tests take, one each: created side by side, they share the second each creation ends by waiting for. */
let spare: string[] = [];
const PASSWORD = 'a-good-password-1';
const newAdmin = async () => {
  const email = uniqueEmail();
  await api.createAdmin(rootToken, { name: 'Two Browsers', email, password: PASSWORD, role: 'admin' });
  return email;
};

beforeAll(async () => {
  h = await startAuth('real');
  api = client(h.url);
  rootToken = await api.login(ROOT.email, ROOT.password);
  spare = await Promise.all(Array.from({ length: 14 }, newAdmin));
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const sidOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sid: string }).sid;

/** A new admin (their own login throttle) signed in twice, from two browsers. */
async function adminWithTwoSessions() {
  const email = spare.pop() ?? (await newAdmin());
  const password = PASSWORD;
  const signIn = async (userAgent: string) => {
    const res = await api.call<{ token: string }>('POST', '/api/auth/login', {
      body: { email, password },
      headers: { 'user-agent': userAgent },
    });
    expect(res.status).toBe(200);
    return res.body.token;
  };
  const here = await signIn(CHROME_LINUX);
  const there = await signIn(FIREFOX_WINDOWS);
  return { email, password, here, there, signIn };
}

const listOf = async (token: string) => {
  const res = await api.call<{ sessions: OwnSession[] }>('GET', '/api/auth/sessions', { token });
  expect(res.status).toBe(200);
  return res.body.sessions;
};

describe('the own sessions', () => {
  test('when an admin is signed in from two browsers, then both are listed with device, address and times, this one marked', async () => {
    const { here, there } = await adminWithTwoSessions();
    const sessions = await listOf(here);
    expect(sessions).toHaveLength(2);
    const current = sessions.find((s) => s.current);
    const other = sessions.find((s) => !s.current);
    expect(current).toMatchObject({ _id: sidOf(here), browser: 'Chrome', os: 'Linux' });
    expect(other).toMatchObject({ _id: sidOf(there), browser: 'Firefox', os: 'Windows' });
    expect(current!.address).toMatch(/127\.0\.0\.1|::1/);
    expect(Date.parse(current!.signedInAt)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(current!.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(current!.signedInAt) - 1000);
    // The other browser sees the same two, its own marked.
    expect((await listOf(there)).find((s) => s.current)?._id).toBe(sidOf(there));
  });

  test('when the token is renewed, then it stays one session and its last-seen time moves on', async () => {
    const { here } = await adminWithTwoSessions();
    const before = (await listOf(here)).find((s) => s.current)!;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const renewed = await api.call<{ token: string }>('POST', '/api/auth/refresh', { token: here });
    expect(renewed.status).toBe(200);
    const after = await listOf(renewed.body.token);
    expect(after).toHaveLength(2);
    const current = after.find((s) => s.current)!;
    expect(current._id).toBe(before._id);
    expect(Date.parse(current.lastSeenAt)).toBeGreaterThan(Date.parse(before.lastSeenAt));
  });

  test('when the admin signs out the other session, then its tokens are refused at once and it leaves the list', async () => {
    const { here, there } = await adminWithTwoSessions();
    const res = await api.call('DELETE', `/api/auth/sessions/${sidOf(there)}`, { token: here });
    expect(res.status).toBe(204);
    expect((await api.call('GET', '/api/auth/me', { token: there })).status).toBe(401);
    expect((await api.call('POST', '/api/auth/refresh', { token: there })).status).toBe(401);
    expect((await api.call('GET', '/api/auth/me', { token: here })).status).toBe(200);
    expect((await listOf(here)).map((s) => s._id)).toEqual([sidOf(here)]);
    // Twice is harmless.
    expect((await api.call('DELETE', `/api/auth/sessions/${sidOf(there)}`, { token: here })).status).toBe(
      204,
    );
  });

  test('when a burst of parallel sign-outs ends one session, then all succeed and one audit entry records it', async () => {
    const { here, there, email } = await adminWithTwoSessions();
    const answers = await Promise.all(
      Array.from({ length: 25 }, () =>
        api.call('DELETE', `/api/auth/sessions/${sidOf(there)}`, { token: here }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 25 }, () => 204));
    expect((await api.call('GET', '/api/auth/me', { token: there })).status).toBe(401);
    const audit = await api.call<{ entries: Array<{ action: string; actor: { email: string } | null }> }>(
      'GET',
      '/api/admin/audit-log?limit=200',
      { token: rootToken },
    );
    const ended = audit.body.entries.filter(
      (e) => e.action === 'admin.session-ended' && e.actor?.email === email,
    );
    expect(ended).toHaveLength(1);
  });

  test('when the admin signs out with logout, then that session leaves the list', async () => {
    const { here, there } = await adminWithTwoSessions();
    expect((await api.call('POST', '/api/auth/logout', { token: there })).status).toBe(204);
    expect((await listOf(here)).map((s) => s._id)).toEqual([sidOf(here)]);
  });

  test('when the admin changes their password, then only this session is listed', async () => {
    const { here, password } = await adminWithTwoSessions();
    const changed = await api.call<{ token: string }>('POST', '/api/auth/change-password', {
      token: here,
      body: { currentPassword: password, newPassword: 'another-good-password-2' },
    });
    expect(changed.status).toBe(200);
    expect((await listOf(changed.body.token)).map((s) => s._id)).toEqual([sidOf(here)]);
  });

  test('when the admin signs out everywhere, then every session ends, this one included, and a new sign-in works', async () => {
    const { here, there, signIn } = await adminWithTwoSessions();
    expect((await api.call('DELETE', '/api/auth/sessions', { token: here })).status).toBe(204);
    expect((await api.call('GET', '/api/auth/me', { token: here })).status).toBe(401);
    expect((await api.call('GET', '/api/auth/me', { token: there })).status).toBe(401);
    const again = await signIn(CHROME_LINUX);
    expect((await listOf(again)).map((s) => s._id)).toEqual([sidOf(again)]);
  });
});

describe('hostile calls', () => {
  test('when an admin names another admin’s session, then it is not found and that session goes on', async () => {
    const mine = await adminWithTwoSessions();
    const theirs = await adminWithTwoSessions();
    const res = await api.call('DELETE', `/api/auth/sessions/${sidOf(theirs.here)}`, { token: mine.here });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Session not found', code: 'session_not_found' });
    expect((await api.call('GET', '/api/auth/me', { token: theirs.here })).status).toBe(200);
    expect((await listOf(mine.here)).map((s) => s._id)).not.toContain(sidOf(theirs.here));
  });

  test.each([
    ['a malformed id', 'not-a-session'],
    ['an unknown id', '00000000-0000-4000-8000-000000000000'],
    ['a path trick', '..%2F..%2Fadmin%2Fadmins'],
    ['an encoded dot segment', '%2e%2e'],
  ])('when the id is %s, then 404', async (_label, id) => {
    const { here } = await adminWithTwoSessions();
    const res = await api.call('DELETE', `/api/auth/sessions/${id}`, { token: here });
    expect(res.status).toBe(404);
    expect(await listOf(here)).toHaveLength(2);
  });

  test('when nobody is signed in, then the sessions are not shown or ended', async () => {
    const { there } = await adminWithTwoSessions();
    expect((await api.call('GET', '/api/auth/sessions')).status).toBe(401);
    expect((await api.call('DELETE', `/api/auth/sessions/${sidOf(there)}`)).status).toBe(401);
    expect((await api.call('DELETE', '/api/auth/sessions')).status).toBe(401);
    expect((await api.call('GET', '/api/auth/me', { token: there })).status).toBe(200);
  });
});
