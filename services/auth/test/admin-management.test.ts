import { eventually } from '@readiness/testing';
import { sql } from 'drizzle-orm';
import { decodePayload, type EventPayload } from '@readiness/contracts';
import { createRabbitBus, type EventBus } from '@readiness/kit/bus';
import { client, logger, ROOT, startAuth, uniqueEmail, type Harness } from './harness';

jest.setTimeout(30_000);

let h: Harness;
let api: ReturnType<typeof client>;
let rootToken: string;
let listener: EventBus;
/** The reset events as the notification service reads them: the sealed password opened with the shared key. */
const resets: Array<EventPayload<'auth.admin.password-reset.v1'> & { temporaryPassword: string }> = [];

beforeAll(async () => {
  h = await startAuth('real');
  api = client(h.url);
  rootToken = await api.login(ROOT.email, ROOT.password);
  // A separate consumer on the same vhost, as the notification service would be.
  listener = createRabbitBus({ url: h.amqpUrl as string, service: 'auth-test', logger });
  await listener.start();
  await listener.subscribe({
    queue: 'auth-test.password-reset',
    events: ['auth.admin.password-reset.v1'],
    handle: async (msg) => {
      const event = decodePayload('auth.admin.password-reset.v1', msg.payload);
      resets.push({ ...event, temporaryPassword: h.secrets.open(event.sealedTemporaryPassword) });
    },
  });
}, 60_000);

afterAll(async () => {
  await listener?.close();
  await h?.close();
});

test('when a super admin creates an admin, then it is listed; the same e-mail in other case is a 409', async () => {
  const email = uniqueEmail('Created');
  const res = await api.call<{ admin: Record<string, unknown> }>('POST', '/api/admin/admins', {
    token: rootToken,
    body: { name: '  Ada Lovelace ', email, password: 'created-pass', role: 'admin' },
  });
  expect(res.status).toBe(201);
  expect(res.body.admin).toMatchObject({
    name: 'Ada Lovelace',
    email: email.toLowerCase(),
    role: 'admin',
    status: 'active',
    lastLogin: null,
    mustChangePassword: true,
  });
  const list = await api.call<{ admins: Array<{ email: string }> }>('GET', '/api/admin/admins', {
    token: rootToken,
  });
  expect(list.body.admins.map((a) => a.email)).toContain(email.toLowerCase());

  const dup = await api.call('POST', '/api/admin/admins', {
    token: rootToken,
    body: { name: 'Someone', email: email.toUpperCase(), password: 'created-pass', role: 'admin' },
  });
  expect(dup.status).toBe(409);
  expect(dup.body.message).toBe('An admin with this email already exists');
});

test('when an admin created with a chosen password signs in, then they must replace it before anything else, and afterwards have full access', async () => {
  const email = uniqueEmail('chosen');
  const chosen = 'chosen-by-root-7';
  const created = await api.call('POST', '/api/admin/admins', {
    token: rootToken,
    body: { name: 'Chosen For', email, password: chosen, role: 'super_admin' },
  });
  expect(created.status).toBe(201);

  const first = await api.call<{ token: string; admin: { mustChangePassword: boolean } }>(
    'POST',
    '/api/auth/login',
    { body: { email, password: chosen } },
  );
  expect(first.status).toBe(200);
  expect(first.body.admin.mustChangePassword).toBe(true);
  const pending = first.body.token;
  // Who they are, yes; anything else, not yet.
  expect((await api.call('GET', '/api/auth/me', { token: pending })).status).toBe(200);
  const blocked = await api.call('GET', '/api/admin/admins', { token: pending });
  expect(blocked.status).toBe(403);
  expect(blocked.body).toMatchObject({ code: 'password_change_required' });

  // Keeping the password the super admin knows is not a change; a wrong current password changes nothing.
  const same = await api.call('POST', '/api/auth/change-password', {
    token: pending,
    body: { currentPassword: chosen, newPassword: chosen },
  });
  expect(same.status).toBe(400);
  expect(same.body.message).toBe('New password must be different from the current password');
  const wrong = await api.call('POST', '/api/auth/change-password', {
    token: pending,
    body: { currentPassword: 'not-the-one-9', newPassword: 'their-own-pass-9' },
  });
  expect(wrong.status).toBe(400);
  expect((await api.call('GET', '/api/admin/admins', { token: pending })).status).toBe(403);

  const changed = await api.call<{ token: string; admin: { mustChangePassword: boolean } }>(
    'POST',
    '/api/auth/change-password',
    { token: pending, body: { currentPassword: chosen, newPassword: 'their-own-pass-9' } },
  );
  expect(changed.status).toBe(200);
  expect(changed.body.admin.mustChangePassword).toBe(false);
  expect((await api.call('GET', '/api/admin/admins', { token: changed.body.token })).status).toBe(200);

  // The password the super admin chose is gone; their own signs in with full access from the start.
  expect((await api.call('POST', '/api/auth/login', { body: { email, password: chosen } })).status).toBe(401);
  const again = await api.call<{ token: string; admin: { mustChangePassword: boolean } }>(
    'POST',
    '/api/auth/login',
    { body: { email, password: 'their-own-pass-9' } },
  );
  expect(again.body.admin.mustChangePassword).toBe(false);
  expect((await api.call('GET', '/api/admin/admins', { token: again.body.token })).status).toBe(200);
});

test.each([
  [
    { name: 'A', email: 'a@example.com', password: 'Unusual-pw-7', role: 'admin' },
    'Name must be at least 2 characters',
  ],
  [{ name: 'Ab', email: 'nope', password: 'Unusual-pw-7', role: 'admin' }, 'Invalid email address'],
  [
    { name: 'Ab', email: 'a@example.com', password: '123', role: 'admin' },
    'Password must be at least 6 characters',
  ],
  [{ name: 'Ab', email: 'a@example.com', password: 'Unusual-pw-7' }, 'Role is required'],
  [{ name: 'Ab', email: 'a@example.com', password: 'Unusual-pw-7', role: 'owner' }, 'Role is required'],
])('when creating with %j, then 400 says %s', async (body, message) => {
  const res = await api.call('POST', '/api/admin/admins', { token: rootToken, body });
  expect(res.status).toBe(400);
  expect(res.body.message).toBe(message);
});

test('when an admin is edited, then the change shows and taking another admin e-mail is a 409; unknown or malformed ids are 404', async () => {
  const first = await api.createAdmin(rootToken, {
    name: 'First',
    email: uniqueEmail(),
    password: 'first-pass',
    role: 'admin',
  });
  const otherEmail = uniqueEmail();
  await api.createAdmin(rootToken, {
    name: 'Other',
    email: otherEmail,
    password: 'other-pass',
    role: 'admin',
  });
  const newEmail = uniqueEmail('renamed');
  const res = await api.call<{ admin: Record<string, unknown> }>('PUT', `/api/admin/admins/${first._id}`, {
    token: rootToken,
    body: { name: 'Renamed', email: newEmail, role: 'super_admin' },
  });
  expect(res.status).toBe(200);
  expect(res.body.admin).toMatchObject({ name: 'Renamed', email: newEmail, role: 'super_admin' });
  const taken = await api.call('PUT', `/api/admin/admins/${first._id}`, {
    token: rootToken,
    body: { name: 'Renamed', email: otherEmail, role: 'admin' },
  });
  expect(taken.status).toBe(409);
  for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
    const missing = await api.call('PUT', `/api/admin/admins/${id}`, {
      token: rootToken,
      body: { name: 'Xx', email: uniqueEmail(), role: 'admin' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Admin not found');
  }
});

test('when a super admin tries to disable or demote themselves, then 400 and nothing changes', async () => {
  const me = await api.call<{ admin: { _id: string; email: string } }>('GET', '/api/auth/me', {
    token: rootToken,
  });
  const id = me.body.admin._id;
  const disable = await api.call('PATCH', `/api/admin/admins/${id}/status`, {
    token: rootToken,
    body: { status: 'disabled' },
  });
  expect(disable.status).toBe(400);
  expect(disable.body.message).toBe('You cannot disable your own account');
  const demote = await api.call('PUT', `/api/admin/admins/${id}`, {
    token: rootToken,
    body: { name: 'Root', email: ROOT.email, role: 'admin' },
  });
  expect(demote.status).toBe(400);
  expect(demote.body.message).toBe('You cannot remove your own super admin role');
  expect((await api.call('GET', '/api/admin/admins', { token: rootToken })).status).toBe(200);
});

test('when a super admin is demoted, then their very next super-admin call is refused with 403', async () => {
  const email = uniqueEmail('Demoted');
  const created = await api.createAdmin(rootToken, {
    name: 'Soon Demoted',
    email,
    password: 'demoted-pass',
    role: 'super_admin',
  });
  const token = await api.login(email, 'demoted-pass');
  // Read as a super admin first, so the account's row has just been looked up for this token.
  expect((await api.call('GET', '/api/admin/admins', { token })).status).toBe(200);

  const demote = await api.call('PUT', `/api/admin/admins/${created._id}`, {
    token: rootToken,
    body: { name: 'Soon Demoted', email, role: 'admin' },
  });
  expect(demote.status).toBe(200);

  expect((await api.call('GET', '/api/admin/admins', { token })).status).toBe(403);
  const me = await api.call<{ admin: { role: string } }>('GET', '/api/auth/me', { token });
  expect(me.body.admin.role).toBe('admin');
});

test('when two super admins demote each other at the same time, then exactly one succeeds and one super admin remains', async () => {
  const aEmail = uniqueEmail('pair-a');
  const bEmail = uniqueEmail('pair-b');
  const a = await api.createAdmin(rootToken, {
    name: 'Pair A',
    email: aEmail,
    password: 'pair-pass',
    role: 'super_admin',
  });
  const b = await api.createAdmin(rootToken, {
    name: 'Pair B',
    email: bEmail,
    password: 'pair-pass',
    role: 'super_admin',
  });
  const aToken = await api.login(aEmail, 'pair-pass');
  const bToken = await api.login(bEmail, 'pair-pass');
  // Everyone else steps aside so A and B are the last two active super admins.
  const rootId = (await api.call<{ admin: { _id: string } }>('GET', '/api/auth/me', { token: rootToken }))
    .body.admin._id;
  await h.database.execute(
    sql`UPDATE admins SET role = 'admin' WHERE role = 'super_admin' AND id NOT IN (${a._id}, ${b._id})`,
  );

  const [r1, r2] = await Promise.all([
    api.call('PUT', `/api/admin/admins/${b._id}`, {
      token: aToken,
      body: { name: 'Pair B', email: bEmail, role: 'admin' },
    }),
    api.call('PUT', `/api/admin/admins/${a._id}`, {
      token: bToken,
      body: { name: 'Pair A', email: aEmail, role: 'admin' },
    }),
  ]);
  // The loser finds itself demoted (403) or the target the last super admin (409), never both demoted.
  expect([r1.status, r2.status].filter((s) => s === 200)).toHaveLength(1);
  expect([403, 409]).toContain([r1.status, r2.status].find((s) => s !== 200));
  const rows = await h.database.execute<{ role: string }>(
    sql`SELECT role FROM admins WHERE id IN (${a._id}, ${b._id}) AND status = 'active'`,
  );
  expect(rows.map((r) => r.role).sort()).toEqual(['admin', 'super_admin']);

  // The survivor restores root so the remaining tests keep a super admin token.
  const survivor = r1.status === 200 ? aToken : bToken;
  const restored = await api.call('PUT', `/api/admin/admins/${rootId}`, {
    token: survivor,
    body: { name: 'Root', email: ROOT.email, role: 'super_admin' },
  });
  expect(restored.status).toBe(200);
});

test('when the password is reset, then the event carries a temporary password that signs in with mustChangePassword; old tokens die', async () => {
  const email = uniqueEmail('reset');
  const target = await api.createAdmin(rootToken, {
    name: 'Reset Me',
    email,
    password: 'original-pass',
    role: 'admin',
  });
  const oldToken = await api.login(email, 'original-pass');

  const res = await api.call('POST', `/api/admin/admins/${target._id}/reset-password`, { token: rootToken });
  expect(res.status).toBe(200);
  expect(res.body.message).toBe(
    `Password reset successfully. A temporary password has been sent to ${email}`,
  );

  const event = await eventually(
    () => resets.find((e) => e.adminId === target._id) ?? false,
    'the reset event',
  );
  expect(event).toMatchObject({ name: 'Reset Me', email });
  expect(event.temporaryPassword.length).toBeGreaterThanOrEqual(16);
  expect(event.temporaryPassword).toMatch(/[a-z]/);
  expect(event.temporaryPassword).toMatch(/[A-Z]/);
  expect(event.temporaryPassword).toMatch(/[0-9]/);
  expect(event.sealedTemporaryPassword).not.toContain(event.temporaryPassword);

  expect((await api.call('GET', '/api/auth/me', { token: oldToken })).status).toBe(401);
  expect(
    (await api.call('POST', '/api/auth/login', { body: { email, password: 'original-pass' } })).status,
  ).toBe(401);

  const login = await api.call<{ token: string; admin: { mustChangePassword: boolean } }>(
    'POST',
    '/api/auth/login',
    {
      body: { email, password: event.temporaryPassword },
    },
  );
  expect(login.status).toBe(200);
  expect(login.body.admin.mustChangePassword).toBe(true);
  const temp = login.body.token;
  const blocked = await api.call('POST', '/api/auth/refresh', { token: temp });
  expect(blocked.status).toBe(403);
  expect(blocked.body).toEqual({
    code: 'password_change_required',
    message: 'You must set a new password before continuing',
  });
  expect((await api.call('GET', '/api/auth/me', { token: temp })).status).toBe(200);

  const changed = await api.call<{ token: string; admin: { mustChangePassword: boolean } }>(
    'POST',
    '/api/auth/change-password',
    {
      token: temp,
      body: { currentPassword: event.temporaryPassword, newPassword: 'brand-new-pass' },
    },
  );
  expect(changed.status).toBe(200);
  expect(changed.body.admin.mustChangePassword).toBe(false);
  expect((await api.call('POST', '/api/auth/refresh', { token: changed.body.token })).status).toBe(200);
});

test('when admins are managed, then the audit log names actor, action and target, newest first', async () => {
  const email = uniqueEmail('audited');
  // Not signed in yet: the entry before the disable is the creation.
  const created = await api.call<{ admin: { _id: string } }>('POST', '/api/admin/admins', {
    token: rootToken,
    body: { name: 'Audited', email, password: 'audited-pass', role: 'admin' },
  });
  const target = created.body.admin;
  await api.call('PATCH', `/api/admin/admins/${target._id}/status`, {
    token: rootToken,
    body: { status: 'disabled' },
  });
  const res = await api.call<{
    entries: Array<{ action: string; createdAt: string; [key: string]: unknown }>;
  }>('GET', '/api/admin/audit-log?limit=5', {
    token: rootToken,
  });
  expect(res.status).toBe(200);
  const [latest, previous] = res.body.entries;
  expect(latest).toMatchObject({
    action: 'admin.status-changed',
    actor: { email: ROOT.email },
    target: { _id: target._id, name: 'Audited', email },
    details: { from: 'active', to: 'disabled' },
  });
  expect(previous).toMatchObject({ action: 'admin.created', target: { _id: target._id } });
  const older = await api.call<{ entries: Array<{ createdAt: string }> }>(
    'GET',
    `/api/admin/audit-log?before=${encodeURIComponent(latest!.createdAt!)}`,
    { token: rootToken },
  );
  expect(older.body.entries.every((e) => e.createdAt < latest!.createdAt!)).toBe(true);
});
