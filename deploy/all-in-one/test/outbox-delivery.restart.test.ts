import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { AdminPasswordResetSchema, create, encodePayload } from '@readiness/contracts';
import { createLogger } from '@readiness/kit/logger';
import { startMailCatcher } from '@readiness/dev-servers';
import { enqueue, loadEventSecretBox } from '@readiness/kit/outbox';
import { openServiceDatabase } from '@readiness/kit/runtime';
import { eventually } from '@readiness/testing';
import { api, SEED as SUPER, startProduct } from './launcher';

jest.setTimeout(240_000);

const logger = createLogger({ name: 'outbox-delivery-test', level: 'silent' });

type Mail = { to: string[]; subject: string; text: string };

async function caughtMail(base: string): Promise<Mail[]> {
  return (await api<Mail[]>(base, 'GET', '/dev/mail')).body as unknown as Mail[];
}

describe('events of `make start` across restarts', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'readiness-outbox-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  test('when an event was written to auth’s outbox just before the services started, then notification receives it and mails once', async () => {
    // A first start creates the databases; the event is then written while nothing runs.
    const first = await startProduct({}, { dataDir });
    await first.stop();
    const database = await openServiceDatabase({ service: 'auth', config: { DATA_DIR: dataDir }, logger });
    // Sealed with the key the first start generated in the data folder, as auth seals it.
    const secrets = loadEventSecretBox({ config: { DATA_DIR: dataDir, NODE_ENV: 'development' }, logger });
    await database.transaction((tx) =>
      enqueue(tx, {
        id: randomUUID(),
        name: 'auth.admin.password-reset.v1',
        payload: encodePayload(
          'auth.admin.password-reset.v1',
          create(AdminPasswordResetSchema, {
            adminId: randomUUID(),
            name: 'Early Bird',
            email: 'early@example.edu',
            sealedTemporaryPassword: secrets.seal('Tmp-early-4Kq9-Zx2'),
          }),
        ),
      }),
    );
    await database.close();

    const product = await startProduct({}, { dataDir });
    try {
      const mails = await eventually(async () => {
        const list = (await caughtMail(product.url)).filter((m) => m.to.includes('early@example.edu'));
        return list.length > 0 ? list : false;
      }, 'the mail of the early event');
      expect(mails[0]!.text).toContain('Tmp-early-4Kq9-Zx2');
      await new Promise((r) => setTimeout(r, 500));
      expect((await caughtMail(product.url)).filter((m) => m.to.includes('early@example.edu'))).toHaveLength(
        1,
      );
    } finally {
      await product.stop();
    }
  });

  test('when the whole process is killed with SIGKILL while the mail handler runs, then the next start on the same data sends the mail exactly once', async () => {
    // An SMTP server that accepts the connection and never answers: the handler is stuck mid-send.
    let connected!: () => void;
    const handlerRunning = new Promise<void>((resolve) => (connected = resolve));
    const sockets = new Set<net.Socket>();
    const silentSmtp = net.createServer((socket) => {
      sockets.add(socket);
      connected();
    });
    await new Promise<void>((resolve) => silentSmtp.listen(0, '127.0.0.1', resolve));
    const silentPort = (silentSmtp.address() as net.AddressInfo).port;
    const catcher = await startMailCatcher();
    const env = {
      SEED_ADMIN_EMAIL: SUPER.email,
      SEED_ADMIN_PASSWORD: SUPER.password,
      MAIL_LEASE_SECONDS: '2',
    };
    try {
      const crashing = await startProduct(
        { ...env, SMTP_URL: `smtp://127.0.0.1:${silentPort}` },
        { dataDir },
      );
      const token = (await api<{ token: string }>(crashing.url, 'POST', '/api/auth/login', { body: SUPER }))
        .body.token;
      const created = await api<{ admin: { _id: string } }>(crashing.url, 'POST', '/api/admin/admins', {
        token,
        body: { name: 'Grace Hopper', email: 'grace@example.edu', password: 'initial-pass', role: 'admin' },
      });
      expect(created.status).toBe(201);
      const reset = await api(
        crashing.url,
        'POST',
        `/api/admin/admins/${created.body.admin._id}/reset-password`,
        {
          token,
        },
      );
      expect(reset.status).toBe(200);
      await handlerRunning;
      await crashing.kill();

      const restarted = await startProduct({ ...env, SMTP_URL: catcher.url }, { dataDir });
      try {
        const mail = await catcher.waitFor((m) => m.to.includes('grace@example.edu'), 60_000);
        expect(mail.subject).toBe('Your Readiness admin password was reset');
        // Later redeliveries (retries, a relay pass) must find the mail sent.
        await new Promise((r) => setTimeout(r, 3_000));
        expect(catcher.list().filter((m) => m.to.includes('grace@example.edu'))).toHaveLength(1);
      } finally {
        await restarted.stop();
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silentSmtp.close(() => resolve()));
      await catcher.close();
    }
  });
});
