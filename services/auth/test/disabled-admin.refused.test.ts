import { authForFile, uniqueEmail } from './harness';

/*
 * A disabled admin who signs in with their password is told why they cannot sign in; whoever does not know the
 * password gets the answer every wrong password gets, so the account's state is told to no one else.
 */
const auth = authForFile();

jest.setTimeout(60_000);

const PASSWORD = 'Disabled-pass-42';

async function disabledAdmin() {
  const email = uniqueEmail('disabled');
  const admin = await auth.api.createAdmin(auth.rootToken, {
    name: 'Disabled Admin',
    email,
    password: PASSWORD,
    role: 'admin',
  });
  const disabled = await auth.api.call('PATCH', `/api/admin/admins/${admin._id}/status`, {
    token: auth.rootToken,
    body: { status: 'disabled' },
  });
  expect(disabled.status).toBe(200);
  return { id: admin._id, email };
}

async function refusals(id: string) {
  const res = await auth.api.call<{
    entries: Array<{ action: string; target: { _id: string } | null; details: Record<string, unknown> }>;
  }>('GET', '/api/admin/audit-log?limit=200', { token: auth.rootToken });
  return res.body.entries
    .filter((e) => e.target?._id === id && e.action === 'admin.sign-in-refused')
    .map((e) => e.details.reason);
}

test('when a disabled admin signs in with the right password, then 401 says the account is disabled, with no token', async () => {
  const { id, email } = await disabledAdmin();
  const res = await auth.api.call('POST', '/api/auth/login', { body: { email, password: PASSWORD } });
  expect(res.status).toBe(401);
  expect(res.body).toEqual({
    message: 'Your account is disabled. Ask a super admin to enable it.',
    code: 'account_disabled',
  });
  expect(await refusals(id)).toEqual(['disabled']);
});

test('when someone signs in to a disabled account with a wrong password, then the answer is the usual "Invalid email or password"', async () => {
  const { id, email } = await disabledAdmin();
  const wrong = await auth.api.call('POST', '/api/auth/login', {
    body: { email, password: 'not-the-password' },
  });
  const nobody = await auth.api.call('POST', '/api/auth/login', {
    body: { email: uniqueEmail('nobody'), password: 'not-the-password' },
  });
  expect(wrong.status).toBe(401);
  expect(wrong.body).toEqual({ message: 'Invalid email or password', code: 'invalid_credentials' });
  expect(nobody.body).toEqual(wrong.body);
  expect(await refusals(id)).toEqual(['wrong_password']);
});
