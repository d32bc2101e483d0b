/*
 * A fresh proof of the person before any change of a factor (issue 43, item 1): a valid token alone, a stolen one
 * say, adds no passkey or authenticator app, makes no recovery codes and resets no factor of its own. The hostile
 * cases: a session whose proof is older than the window, a proof given in another session, headers that claim a
 * proof, parallel bursts of wrong passwords and codes, and a passkey answer replayed. Each change is an event the
 * notification service mails, and an audit entry; a super admin's password reset also removes the admin's factors.
 */
import { FactorChange } from '@readiness/contracts';
import { eventually } from '@readiness/testing';
import { sql } from 'drizzle-orm';
import { generateSync } from 'otplib';
import { client, ROOT, startAuth, uniqueEmail, type Harness } from './harness';
import { SoftwarePasskey, type CeremonyOptions } from './software-passkey';

let h: Harness;
let api: ReturnType<typeof client>;
let rootToken: string;

jest.setTimeout(120_000);

beforeAll(async () => {
  h = await startAuth('real', { TRUSTED_PROXIES: 'loopback', STEP_UP_MINUTES: '5' }, undefined, [
    'auth.admin.factor-changed.v1',
  ]);
  api = client(h.url);
  rootToken = await api.login(ROOT.email, ROOT.password);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

type Refusal = { code?: string; message?: string };
const PASSWORD = 'Right-pass-42';

async function newAdmin(label: string, role = 'admin') {
  const email = uniqueEmail(label);
  const admin = await api.createAdmin(rootToken, { name: `Admin ${label}`, email, password: PASSWORD, role });
  return { id: admin._id, email, token: await api.login(email, PASSWORD) };
}

/** Moves every proof of the admin's sessions (their sign-ins included) back past the window. */
async function proofsExpire(adminId: string) {
  await h.database.execute(
    sql`UPDATE admin_sessions SET reauthenticated_at = now() - interval '6 minutes' WHERE admin_id = ${adminId}`,
  );
}

const reauthenticate = (token: string, body: unknown, headers?: Record<string, string>) =>
  api.call<{ methods: string[]; until: string | null } & Refusal>('POST', '/api/auth/reauthenticate', {
    token,
    body,
    headers,
  });

async function options(path: string, token: string): Promise<CeremonyOptions> {
  const res = await api.call<{ options: CeremonyOptions }>('POST', path, { token });
  expect(res.status).toBe(200);
  return res.body.options;
}

async function addPasskey(token: string, passkey = new SoftwarePasskey(), name = 'Work laptop') {
  const created = await options('/api/auth/mfa/passkeys/options', token);
  const res = await api.call<{ passkey: { id: string } }>('POST', '/api/auth/mfa/passkeys', {
    token,
    body: { name, passkey: passkey.register(created) },
  });
  expect(res.status).toBe(201);
  return { passkey, id: res.body.passkey.id };
}

const codeAt = (secret: string, offset = 0) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });

async function enrolApp(token: string) {
  const started = await api.call<{ secret: string }>('POST', '/api/auth/mfa/totp', { token });
  expect(started.status).toBe(200);
  const confirmed = await api.call('POST', '/api/auth/mfa/totp/confirm', {
    token,
    body: { code: codeAt(started.body.secret, -1) },
  });
  expect(confirmed.status).toBe(200);
  return started.body.secret;
}

/** Every change of a factor an admin can ask for from their Security page (and a super admin's reset of their own). */
const changes = (token: string, adminId: string, passkeyId: string, headers?: Record<string, string>) => [
  () => api.call<Refusal>('POST', '/api/auth/mfa/passkeys/options', { token, headers }),
  () =>
    api.call<Refusal>('POST', '/api/auth/mfa/passkeys', {
      token,
      headers,
      body: {
        name: 'Thief',
        passkey: new SoftwarePasskey().register({ challenge: 'bm90LWhhbmRlZC1vdXQ', user: { id: 'AAAA' } }),
      },
    }),
  () => api.call<Refusal>('DELETE', `/api/auth/mfa/passkeys/${passkeyId}`, { token, headers }),
  () => api.call<Refusal>('POST', '/api/auth/mfa/totp', { token, headers }),
  () => api.call<Refusal>('POST', '/api/auth/mfa/totp/confirm', { token, headers, body: { code: '123456' } }),
  () => api.call<Refusal>('POST', '/api/auth/mfa/recovery-codes', { token, headers }),
  () => api.call<Refusal>('POST', `/api/admin/admins/${adminId}/reset-mfa`, { token, headers }),
];

const FORGED_HEADERS = {
  'x-reauthenticated': 'true',
  'x-step-up': '1',
  'x-sudo-mode': 'on',
  'x-forwarded-for': '127.0.0.1',
};

test('when a session has not proved its person within the window, then every change of a factor is refused with 403 reauthentication_required and changes nothing, forged headers or not', async () => {
  const a = await newAdmin('stale', 'super_admin');
  const { id: passkeyId } = await addPasskey(a.token);
  await proofsExpire(a.id);
  const mine = () => h.eventsNamed('auth.admin.factor-changed.v1').filter((e) => e.payload.adminId === a.id);
  await eventually(() => mine().length === 1, 'the passkey-added event');

  for (const headers of [undefined, FORGED_HEADERS]) {
    for (const change of changes(a.token, a.id, passkeyId, headers)) {
      const res = await change();
      expect([res.status, res.body.code]).toEqual([403, 'reauthentication_required']);
      expect(res.body.message).toBe(
        'Confirm it is you to continue: enter your password, or use your authenticator app or a passkey.',
      );
    }
  }
  const state = await api.call<{ reauthentication: { methods: string[]; until: string | null } }>(
    'GET',
    '/api/auth/mfa',
    { token: a.token },
  );
  expect(state.body.reauthentication).toEqual({ methods: ['password', 'passkey'], until: null });
  const stored = await h.database.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM admin_passkeys WHERE admin_id = ${a.id}`,
  );
  expect(stored[0]?.n).toBe(1);
  expect(mine().map((e) => e.payload.change)).toEqual([FactorChange.PASSKEY_ADDED]);
});

test('when the admin proves it is them with their password, then this session may change factors until the window ends, and another session of theirs may not', async () => {
  const a = await newAdmin('window');
  const other = await api.login(a.email, PASSWORD);
  await proofsExpire(a.id);

  const wrong = await reauthenticate(a.token, { password: 'not-my-password' });
  expect([wrong.status, wrong.body.code, wrong.body.message]).toEqual([
    400,
    'wrong_password',
    'The password is not correct.',
  ]);
  const proved = await reauthenticate(a.token, { password: PASSWORD });
  expect(proved.status).toBe(200);
  expect(proved.body.methods).toEqual(['password']);
  const until = new Date(proved.body.until!).getTime();
  expect(until).toBeGreaterThan(Date.now() + 4 * 60_000);
  expect(until).toBeLessThanOrEqual(Date.now() + 5 * 60_000 + 1_000);

  // The proof is this session's: the other session of the same admin is still refused.
  const elsewhere = await api.call<Refusal>('POST', '/api/auth/mfa/passkeys/options', { token: other });
  expect([elsewhere.status, elsewhere.body.code]).toEqual([403, 'reauthentication_required']);

  await addPasskey(a.token);

  // Past the window the same session needs a new proof.
  await proofsExpire(a.id);
  const expired = await api.call<Refusal>('POST', '/api/auth/mfa/recovery-codes', { token: a.token });
  expect([expired.status, expired.body.code]).toEqual([403, 'reauthentication_required']);

  const audit = await api.call<{
    entries: Array<{ action: string; target: { _id: string } | null; details: unknown }>;
  }>('GET', '/api/admin/audit-log?limit=200', { token: rootToken });
  const mine = audit.body.entries.filter((e) => e.target?._id === a.id);
  expect(mine.filter((e) => e.action === 'admin.reauthenticated').map((e) => e.details)).toEqual([
    { method: 'password' },
  ]);
});

test('when a code or a passkey proves it is them, then the change goes through, and neither the code nor the answer proves anything twice', async () => {
  const a = await newAdmin('factor-proof');
  const secret = await enrolApp(a.token);
  const { passkey } = await addPasskey(a.token);
  await proofsExpire(a.id);

  const code = codeAt(secret);
  expect((await reauthenticate(a.token, { code })).status).toBe(200);
  await proofsExpire(a.id);
  const again = await reauthenticate(a.token, { code });
  expect([again.status, again.body.code]).toEqual([400, 'invalid_code']);

  const asked = await options('/api/auth/reauthenticate/passkey-options', a.token);
  const answer = passkey.answer(asked);
  const byPasskey = await reauthenticate(a.token, { passkey: answer });
  expect(byPasskey.status).toBe(200);
  expect(byPasskey.body.methods).toEqual(['password', 'totp', 'passkey']);
  const codes = await api.call<{ recoveryCodes: string[] }>('POST', '/api/auth/mfa/recovery-codes', {
    token: a.token,
  });
  expect(codes.status).toBe(200);
  expect(codes.body.recoveryCodes).toHaveLength(10);

  await proofsExpire(a.id);
  const replayed = await reauthenticate(a.token, { passkey: answer });
  // A refused answer is a wrong proof, never a sign-out (400, not 401).
  expect([replayed.status, replayed.body.code]).toEqual([400, 'passkey_not_verified']);
  // Another admin's session cannot use this admin's passkey challenge.
  const b = await newAdmin('factor-proof-b');
  const theirs = await reauthenticate(b.token, {
    passkey: passkey.answer(await options('/api/auth/reauthenticate/passkey-options', a.token)),
  });
  expect(theirs.status).toBe(400);
});

test('when wrong passwords at the step-up arrive in a parallel burst from many addresses, then at most 10 are checked, and the account is locked for sign-in too', async () => {
  const a = await newAdmin('burst');
  const replies = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      reauthenticate(a.token, { password: `wrong-${i}` }, { 'x-forwarded-for': `198.51.100.${i + 1}` }),
    ),
  );
  const count = replies.reduce<Record<number, number>>(
    (c, r) => ({ ...c, [r.status]: (c[r.status] ?? 0) + 1 }),
    {},
  );
  expect(count[400]).toBeLessThanOrEqual(10);
  expect((count[400] ?? 0) + (count[429] ?? 0)).toBe(40);
  const right = await reauthenticate(a.token, { password: PASSWORD }, { 'x-forwarded-for': '203.0.113.7' });
  expect([right.status, right.body.code]).toEqual([429, 'too_many_password_attempts']);
  const login = await api.call('POST', '/api/auth/login', {
    body: { email: a.email, password: PASSWORD },
    headers: { 'x-forwarded-for': '203.0.113.8' },
  });
  expect(login.status).toBe(429);
});

test('when wrong codes at the step-up arrive in a parallel burst, then at most 5 are checked before the code lockout', async () => {
  const a = await newAdmin('code-burst');
  await enrolApp(a.token);
  const replies = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      reauthenticate(a.token, { code: String(100000 + i) }, { 'x-forwarded-for': `198.51.100.${i + 60}` }),
    ),
  );
  const statuses = replies.map((r) => r.status);
  expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(5);
  expect(statuses.filter((s) => s === 429)).toHaveLength(20 - statuses.filter((s) => s === 400).length);
});

test('when factors change, then each is a factor-changed event for the notification mail, and a super admin resets their own factors only with a proof', async () => {
  const a = await newAdmin('events', 'super_admin');
  const secret = await enrolApp(a.token);
  const { id } = await addPasskey(a.token, new SoftwarePasskey(), 'Phone');
  expect((await api.call('POST', '/api/auth/mfa/recovery-codes', { token: a.token })).status).toBe(200);
  expect((await api.call('DELETE', `/api/auth/mfa/passkeys/${id}`, { token: a.token })).status).toBe(204);
  expect(
    (await api.call('POST', '/api/auth/mfa/totp/disable', { token: a.token, body: { code: codeAt(secret) } }))
      .status,
  ).toBe(204);
  await addPasskey(a.token, new SoftwarePasskey(), 'Key');
  await proofsExpire(a.id);
  const refused = await api.call<Refusal>('POST', `/api/admin/admins/${a.id}/reset-mfa`, { token: a.token });
  expect(refused.body.code).toBe('reauthentication_required');
  expect((await reauthenticate(a.token, { password: PASSWORD })).status).toBe(200);
  expect((await api.call('POST', `/api/admin/admins/${a.id}/reset-mfa`, { token: a.token })).status).toBe(
    200,
  );

  const seen = await eventually(() => {
    const mine = h.eventsNamed('auth.admin.factor-changed.v1').filter((e) => e.payload.adminId === a.id);
    return mine.length === 7 ? mine : false;
  }, 'seven factor changes');
  expect(seen.map((e) => [e.payload.change, e.payload.factorName])).toEqual([
    [FactorChange.AUTHENTICATOR_ADDED, ''],
    [FactorChange.PASSKEY_ADDED, 'Phone'],
    [FactorChange.RECOVERY_CODES_REPLACED, ''],
    [FactorChange.PASSKEY_REMOVED, 'Phone'],
    [FactorChange.AUTHENTICATOR_REMOVED, ''],
    [FactorChange.PASSKEY_ADDED, 'Key'],
    [FactorChange.FACTORS_RESET, ''],
  ]);
  expect(seen[0]!.payload).toMatchObject({ email: a.email, name: 'Admin events', actorId: a.id });
});

test("when a super admin resets an admin's password, then the admin's passkeys, app and recovery codes go too, audited and mailed, so a passkey someone added no longer signs in", async () => {
  const a = await newAdmin('password-reset');
  await enrolApp(a.token);
  const { passkey } = await addPasskey(a.token);
  const reset = await api.call<{ admin: { mfaEnabled: boolean } }>(
    'POST',
    `/api/admin/admins/${a.id}/reset-password`,
    { token: rootToken },
  );
  expect(reset.status).toBe(200);
  expect(reset.body.admin.mfaEnabled).toBe(false);

  const asked = await api.call<{ options: CeremonyOptions }>('POST', '/api/auth/login/passkey/options');
  const signIn = await api.call('POST', '/api/auth/login/passkey', {
    body: { passkey: passkey.answer(asked.body.options) },
  });
  expect(signIn.status).toBe(401);
  const left = await h.database.execute<{ passkeys: number; apps: number; codes: number }>(
    sql`SELECT (SELECT count(*)::int FROM admin_passkeys WHERE admin_id = ${a.id}) AS passkeys,
               (SELECT count(*)::int FROM admin_totp WHERE admin_id = ${a.id}) AS apps,
               (SELECT count(*)::int FROM admin_recovery_codes WHERE admin_id = ${a.id}) AS codes`,
  );
  expect(left[0]).toEqual({ passkeys: 0, apps: 0, codes: 0 });

  const audit = await api.call<{
    entries: Array<{ action: string; target: { _id: string } | null; details: unknown }>;
  }>('GET', '/api/admin/audit-log?limit=200', { token: rootToken });
  const mine = audit.body.entries.filter((e) => e.target?._id === a.id);
  expect(mine.find((e) => e.action === 'admin.mfa-reset')?.details).toEqual({
    hadFactor: true,
    reason: 'password-reset',
  });
  const resetEvent = await eventually(
    () =>
      h
        .eventsNamed('auth.admin.factor-changed.v1')
        .find((e) => e.payload.adminId === a.id && e.payload.change === FactorChange.FACTORS_RESET) ?? false,
    'the reset event',
  );
  const root = (await api.call<{ admin: { _id: string } }>('GET', '/api/auth/me', { token: rootToken })).body;
  expect(resetEvent?.payload).toMatchObject({ actorId: root.admin._id, actorName: 'Super Admin' });
});
