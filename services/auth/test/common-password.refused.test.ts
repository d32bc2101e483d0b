import { client, ROOT, startAuth, uniqueEmail, type Harness } from './harness';

let h: Harness;
let api: ReturnType<typeof client>;
let rootToken: string;

jest.setTimeout(60_000);

beforeAll(async () => {
  h = await startAuth('real');
  api = client(h.url);
  rootToken = await api.login(ROOT.email, ROOT.password);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const COMMON = 'This password is too common. Please choose a less predictable one.';

test.each(['password', 'Baseball', 'ILOVEYOU', 'trustno1'])(
  'when a super admin creates an admin with the common password %s, then 400 and no admin is created',
  async (password) => {
    const email = uniqueEmail('common');
    const res = await api.call('POST', '/api/admin/admins', {
      token: rootToken,
      body: { name: 'Common Choice', email, password, role: 'admin' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: COMMON, code: 'validation_failed', field: 'password' });
    const list = await api.call<{ admins: Array<{ email: string }> }>('GET', '/api/admin/admins', {
      token: rootToken,
    });
    expect(list.body.admins.map((a) => a.email)).not.toContain(email);
  },
);

test('when an admin changes to a common password, then 400 and the old password still signs in; an uncommon one is taken', async () => {
  const email = uniqueEmail('changer');
  await api.createAdmin(rootToken, { name: 'Changer', email, password: 'First-pass-42', role: 'admin' });
  const token = await api.login(email, 'First-pass-42');

  const common = await api.call('POST', '/api/auth/change-password', {
    token,
    body: { currentPassword: 'First-pass-42', newPassword: 'LetMeIn' },
  });
  expect(common.status).toBe(400);
  expect(common.body.message).toBe(COMMON);
  await api.login(email, 'First-pass-42');

  const fine = await api.call('POST', '/api/auth/change-password', {
    token,
    body: { currentPassword: 'First-pass-42', newPassword: 'Kettle-Orbit-93' },
  });
  expect(fine.status).toBe(200);
  await api.login(email, 'Kettle-Orbit-93');
});

test('when an existing admin signs in with a common password, then the login itself is not refused for it', async () => {
  const res = await api.call('POST', '/api/auth/login', {
    body: { email: uniqueEmail('x'), password: 'password' },
  });
  expect(res.body.message).toBe('Invalid email or password');
});
