import { authForFile, uniqueEmail } from './harness';

const auth = authForFile();

jest.setTimeout(60_000);

const COMMON = 'This password is too common. Please choose a less predictable one.';

test.each(['password', 'Baseball', 'ILOVEYOU', 'trustno1'])(
  'when a super admin creates an admin with the common password %s, then 400 and no admin is created',
  async (password) => {
    const email = uniqueEmail('common');
    const res = await auth.api.call('POST', '/api/admin/admins', {
      token: auth.rootToken,
      body: { name: 'Common Choice', email, password, role: 'admin' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: COMMON, code: 'validation_failed', field: 'password' });
    const list = await auth.api.call<{ admins: Array<{ email: string }> }>('GET', '/api/admin/admins', {
      token: auth.rootToken,
    });
    expect(list.body.admins.map((a) => a.email)).not.toContain(email);
  },
);

test('when an admin changes to a common password, then 400 and the old password still signs in; an uncommon one is taken', async () => {
  const email = uniqueEmail('changer');
  await auth.api.createAdmin(auth.rootToken, {
    name: 'Changer',
    email,
    password: 'First-pass-42',
    role: 'admin',
  });
  const token = await auth.api.login(email, 'First-pass-42');

  const common = await auth.api.call('POST', '/api/auth/change-password', {
    token,
    body: { currentPassword: 'First-pass-42', newPassword: 'LetMeIn' },
  });
  expect(common.status).toBe(400);
  expect(common.body.message).toBe(COMMON);
  await auth.api.login(email, 'First-pass-42');

  const fine = await auth.api.call('POST', '/api/auth/change-password', {
    token,
    body: { currentPassword: 'First-pass-42', newPassword: 'Kettle-Orbit-93' },
  });
  expect(fine.status).toBe(200);
  await auth.api.login(email, 'Kettle-Orbit-93');
});

test('when an existing admin signs in with a common password, then the login itself is not refused for it', async () => {
  const res = await auth.api.call('POST', '/api/auth/login', {
    body: { email: uniqueEmail('x'), password: 'password' },
  });
  expect(res.body.message).toBe('Invalid email or password');
});
