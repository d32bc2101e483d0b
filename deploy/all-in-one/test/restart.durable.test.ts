/*
 * What `make start` keeps across a crash, proved on one crash and one restart of the product on the same data: an
 * event written to an outbox while nothing ran, and a mail whose handler the SIGKILL interrupted, are each mailed
 * once by the next start; and signed-out, disabled and reset tokens stay refused, on the gateway and on every
 * service's own port, although the memory store that cached their revocations is new.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { AdminPasswordResetSchema, create, encodePayload } from '@readiness/contracts';
import { createLogger } from '@readiness/kit/logger';
import { startMailCatcher, type MailCatcher } from '@readiness/dev-servers';
import { enqueue, loadEventSecretBox } from '@readiness/kit/outbox';
import { openServiceDatabase } from '@readiness/kit/runtime';
import { api, SEED as SUPER, startProduct, type RunningProduct } from './launcher';
import {
  expectRefusedEverywhere,
  revokeThreeWays,
  UPSTREAMS,
  type Tokens,
  type Upstream,
} from './revocations';

jest.setTimeout(240_000);

const ROOT = path.resolve(__dirname, '../../..');
const logger = createLogger({ name: 'restart-durable-test', level: 'silent' });
const SEED = { SEED_ADMIN_EMAIL: SUPER.email, SEED_ADMIN_PASSWORD: SUPER.password };

let dataDir: string;
let catcher: MailCatcher;
let restarted: RunningProduct | undefined;
let tokens: Tokens;
const closers: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  if (!existsSync(path.join(ROOT, 'deploy/all-in-one/dist/main.js')))
    throw new Error('run `npx tsc -b` first');
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'readiness-restart-'));
  closers.push(() => rm(dataDir, { recursive: true, force: true }));
  // An SMTP server that accepts the connection and never answers: a mail handler is stuck mid-send.
  let connected!: () => void;
  const handlerRunning = new Promise<void>((resolve) => (connected = resolve));
  const sockets = new Set<net.Socket>();
  const silentSmtp = net.createServer((socket) => {
    sockets.add(socket);
    connected();
  });
  await new Promise<void>((resolve) => silentSmtp.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silentSmtp.close(() => resolve()));
  });
  catcher = await startMailCatcher();
  closers.push(() => catcher.close());
  const env = { ...SEED, MAIL_LEASE_SECONDS: '2' };

  const crashing = await startProduct(
    { ...env, SMTP_URL: `smtp://127.0.0.1:${(silentSmtp.address() as net.AddressInfo).port}` },
    { dataDir },
  );
  try {
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
    tokens = await revokeThreeWays(crashing.url);
  } finally {
    await crashing.kill();
  }

  // While nothing runs, an event is written to auth's outbox, sealed with the key the first start generated in the
  // data folder, as auth seals it.
  const database = await openServiceDatabase({ service: 'auth', config: { DATA_DIR: dataDir }, logger });
  try {
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
  } finally {
    await database.close();
  }

  restarted = await startProduct({ ...env, SMTP_URL: catcher.url }, { dataDir });
});

afterAll(async () => {
  await restarted?.stop();
  for (const close of closers.reverse()) await close();
});

const mailsTo = (to: string) => catcher.list().filter((m) => m.to.includes(to));

test('when an event was written to auth’s outbox while nothing ran, and a mail handler was killed with the whole process, then the next start mails each once', async () => {
  const early = await catcher.waitFor((m) => m.to.includes('early@example.edu'), 60_000);
  expect(early.text).toContain('Tmp-early-4Kq9-Zx2');
  const interrupted = await catcher.waitFor((m) => m.to.includes('grace@example.edu'), 60_000);
  expect(interrupted.subject).toBe('Your Readiness admin password was reset');
  // Later redeliveries (retries, a relay pass) must find the mails sent.
  await new Promise((r) => setTimeout(r, 3_000));
  expect([mailsTo('early@example.edu').length, mailsTo('grace@example.edu').length]).toEqual([1, 1]);
});

test('when `make start` starts again, then signed-out, disabled and reset tokens stay refused on the gateway and every service', async () => {
  const product = restarted!;
  // The launcher prints every service's own address: `auth http://127.0.0.1:…, assessment …`.
  const services = Object.fromEntries(
    UPSTREAMS.map((name) => [name, new RegExp(`\\b${name} (http://[0-9.:]+)`).exec(product.output())![1]]),
  ) as Record<Upstream, string>;
  await expectRefusedEverywhere(product.url, services, tokens);
});
