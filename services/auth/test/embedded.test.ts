import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decodePayload } from '@readiness/contracts';
import { createMemoryBus } from '@readiness/kit/bus';
import { loadEventSecretBox } from '@readiness/kit/outbox';
import { openServiceDatabase, startService } from '@readiness/kit/runtime';
import { authService } from '../src';
import { client, logger } from './harness';

jest.setTimeout(60_000);

const dataDir = mkdtempSync(path.join(tmpdir(), 'auth-embedded-'));
// As root the embedded PostgreSQL runs as nobody, which must reach the folder (mkdtemp makes it 0700).
chmodSync(dataDir, 0o755);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const config = {
  PORT: 0,
  HOST: '127.0.0.1',
  NODE_ENV: 'development' as const,
  LOG_LEVEL: 'silent' as const,
  DATA_DIR: dataDir,
};

test('when started on the embedded defaults without a seed, then admin@example.com gets a one-time password, tokens survive a restart, and a reset reaches the in-process bus', async () => {
  const database = await openServiceDatabase({ service: 'auth', config, logger });
  const bus = createMemoryBus({ logger, service: 'auth' });
  const resets: string[] = [];
  await bus.subscribe({
    queue: 'notification.admin-password-reset',
    events: ['auth.admin.password-reset.v1'],
    handle: async (msg) => {
      const sealed = decodePayload('auth.admin.password-reset.v1', msg.payload).sealedTemporaryPassword;
      resets.push(loadEventSecretBox({ config, logger }).open(sealed));
    },
  });
  await bus.start();
  try {
    const first = await startService(authService, { config, logger, adapters: { database, bus } });
    expect(first.exports.seededAdmin?.email).toBe('admin@example.com');
    const password = first.exports.seededAdmin?.password as string;
    expect(password.length).toBeGreaterThanOrEqual(16);
    expect(statSync(path.join(dataDir, 'auth', 'jwt-key.pem')).mode & 0o077).toBe(0);
    const api1 = client(first.url);
    // The generated password opens only the password change, as a temporary password after a reset does.
    const signIn = await api1.call<{ token: string; admin: { mustChangePassword: boolean } }>(
      'POST',
      '/api/auth/login',
      { body: { email: 'admin@example.com', password } },
    );
    expect(signIn.status).toBe(200);
    expect(signIn.body.admin.mustChangePassword).toBe(true);
    const blocked = await api1.call('GET', '/api/admin/admins', { token: signIn.body.token });
    expect(blocked.status).toBe(403);
    expect(blocked.body).toMatchObject({ code: 'password_change_required' });
    const changed = await api1.call<{ token: string; admin: { mustChangePassword: boolean } }>(
      'POST',
      '/api/auth/change-password',
      { token: signIn.body.token, body: { currentPassword: password, newPassword: 'Owner-chosen-pass-9' } },
    );
    expect(changed.status).toBe(200);
    expect(changed.body.admin.mustChangePassword).toBe(false);
    const token = changed.body.token;
    const created = await api1.createAdmin(token, {
      name: 'Second',
      email: 'second@example.com',
      password: 'second-pass',
      role: 'admin',
    });
    await first.stop();

    // Same data folder: same key, same admins, no second seed.
    const second = await startService(authService, { config, logger, adapters: { database, bus } });
    expect(second.exports.seededAdmin).toBeUndefined();
    const api2 = client(second.url);
    expect((await api2.call('GET', '/api/auth/me', { token })).status).toBe(200);
    expect(
      (await api2.call('POST', `/api/admin/admins/${created._id}/reset-password`, { token })).status,
    ).toBe(200);
    const deadline = Date.now() + 10_000;
    while (resets.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(resets).toHaveLength(1);
    const login = await api2.call<{ admin: { mustChangePassword: boolean } }>('POST', '/api/auth/login', {
      body: { email: 'second@example.com', password: resets[0] },
    });
    expect(login.status).toBe(200);
    expect(login.body.admin.mustChangePassword).toBe(true);

    // The in-memory throttle works the same way.
    for (let i = 0; i < 10; i++) {
      await api2.call('POST', '/api/auth/login', {
        body: { email: 'second@example.com', password: 'wrong-pass' },
      });
    }
    const locked = await api2.call('POST', '/api/auth/login', {
      body: { email: 'second@example.com', password: 'wrong-pass' },
    });
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBeTruthy();
    await second.stop();
  } finally {
    await bus.close();
    await database.close();
  }
});
