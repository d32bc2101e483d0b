import { client, ROOT, startAuth, uniqueEmail, type Harness } from './harness';

let h: Harness;
let api: ReturnType<typeof client>;
let rootToken: string;

jest.setTimeout(120_000);

beforeAll(async () => {
  h = await startAuth('real', { TRUSTED_PROXIES: 'loopback' });
  api = client(h.url);
  rootToken = await api.login(ROOT.email, ROOT.password);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

/** Auth trusts its loopback proxy's X-Forwarded-For (TRUSTED_PROXIES), so each request can come from its own address. */
const login = (email: string, password: string, address: string) =>
  api.call('POST', '/api/auth/login', {
    body: { email, password },
    headers: { 'x-forwarded-for': address },
  });

/** Passwords auth has compared with a hash so far (its metric): what a burst may spend is bounded by the throttles. */
async function passwordChecks(): Promise<number> {
  const text = await (await fetch(`${h.service.internalUrl}/metrics`)).text();
  return Number(/^auth_password_checks_total(?:\{[^}]*\})? (\d+)$/m.exec(text)?.[1] ?? NaN);
}

const statuses = (replies: Array<{ status: number }>) =>
  replies.reduce<Record<number, number>>(
    (count, r) => ({ ...count, [r.status]: (count[r.status] ?? 0) + 1 }),
    {},
  );

test('when 100 wrong passwords for one account arrive at once from 100 addresses, then at most 10 are checked and the right one is refused while locked', async () => {
  const email = uniqueEmail('burst');
  await api.createAdmin(rootToken, { name: 'Burst Target', email, password: 'Right-pass-42', role: 'admin' });

  const checked = await passwordChecks();
  const replies = await Promise.all(
    Array.from({ length: 100 }, (_, i) => login(email, `wrong-guess-${i}`, `198.51.100.${i + 1}`)),
  );
  expect((await passwordChecks()) - checked).toBeLessThanOrEqual(10);
  const count = statuses(replies);
  expect(count[401]).toBeLessThanOrEqual(10);
  expect((count[401] ?? 0) + (count[429] ?? 0)).toBe(100);

  const right = await login(email, 'Right-pass-42', '203.0.113.7');
  expect(right.status).toBe(429);
  expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
});

test('when 150 logins arrive at once from one address, then at most 50 passwords are checked and the rest get 429', async () => {
  const checked = await passwordChecks();
  const replies = await Promise.all(
    Array.from({ length: 150 }, (_, i) => login(uniqueEmail(`spray-${i}`), 'wrong-guess', '192.0.2.99')),
  );
  expect((await passwordChecks()) - checked).toBeLessThanOrEqual(50);
  const count = statuses(replies);
  expect(count[401]).toBeLessThanOrEqual(50);
  expect((count[401] ?? 0) + (count[429] ?? 0)).toBe(150);
  // An unknown e-mail and a wrong password still get the same answer.
  expect(replies.find((r) => r.status === 401)?.body).toEqual({
    message: 'Invalid email or password',
    code: 'invalid_credentials',
  });
});

test('when an admin signs in successfully 60 times from one address, then they are never locked out', async () => {
  const email = uniqueEmail('regular');
  await api.createAdmin(rootToken, { name: 'Regular User', email, password: 'Right-pass-42', role: 'admin' });
  for (let i = 0; i < 60; i++) {
    const res = await login(email, 'Right-pass-42', '192.0.2.50');
    expect({ i, status: res.status }).toEqual({ i, status: 200 });
  }
});

describe('the current password of a password change', () => {
  const change = (token: string, currentPassword: string, address: string) =>
    api.call('POST', '/api/auth/change-password', {
      token,
      body: { currentPassword, newPassword: 'Brand-new-pass-77' },
      headers: { 'x-forwarded-for': address },
    });

  test('when 60 wrong current passwords arrive at once from 60 addresses, then at most 10 are checked and the right one is refused while locked', async () => {
    const email = uniqueEmail('change-burst');
    await api.createAdmin(rootToken, {
      name: 'Change Target',
      email,
      password: 'Right-pass-42',
      role: 'admin',
    });
    const token = await api.login(email, 'Right-pass-42');

    const checked = await passwordChecks();
    const replies = await Promise.all(
      Array.from({ length: 60 }, (_, i) => change(token, `wrong-guess-${i}`, `198.51.100.${i + 101}`)),
    );
    expect((await passwordChecks()) - checked).toBeLessThanOrEqual(10);
    const count = statuses(replies);
    expect(count[400]).toBeLessThanOrEqual(10);
    expect((count[400] ?? 0) + (count[429] ?? 0)).toBe(60);
    expect(replies.find((r) => r.status === 429)?.body).toMatchObject({
      code: 'too_many_password_attempts',
      message: 'Too many password attempts. Try again in 15 minutes.',
    });

    // Locked for the account: the right current password changes nothing, and sign-in is locked as well.
    const right = await change(token, 'Right-pass-42', '203.0.113.8');
    expect(right.status).toBe(429);
    expect((await login(email, 'Right-pass-42', '203.0.113.9')).status).toBe(429);
  });

  test('when 80 wrong current passwords for many accounts arrive at once from one address, then at most 50 are checked', async () => {
    // Created side by side: each creation ends by waiting for the next whole second, which they then share.
    const tokens = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const email = uniqueEmail(`change-spray-${i}`);
        await api.createAdmin(rootToken, {
          name: `Spray ${i}`,
          email,
          password: 'Right-pass-42',
          role: 'admin',
        });
        return api.login(email, 'Right-pass-42');
      }),
    );
    const checked = await passwordChecks();
    const replies = await Promise.all(
      Array.from({ length: 80 }, (_, i) => change(tokens[i % 8]!, `wrong-${i}`, '192.0.2.150')),
    );
    expect((await passwordChecks()) - checked).toBeLessThanOrEqual(50);
    const count = statuses(replies);
    expect(count[400]).toBeLessThanOrEqual(50);
    expect((count[400] ?? 0) + (count[429] ?? 0)).toBe(80);
  });
});
