/*
 * What `make start` keeps across a crash, proved on one crash and one restart of the product on the same data: an
 * event written to an outbox while nothing ran, and a mail whose handler the SIGKILL interrupted, are each mailed
 * once by the next start; and signed-out, disabled and reset tokens stay refused, on the gateway and on every
 * service's own port, although the memory store that cached their revocations is new. And how the launcher
 * supervises its children: killed with SIGKILL, the product takes its PostgreSQL server and its PDF browser with
 * it; its PostgreSQL killed, the product answers 503 until the supervisor has it back.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { AdminPasswordResetSchema, create, encodePayload } from '@readiness/contracts';
import { createLogger } from '@readiness/kit/logger';
import { startMailCatcher, type MailCatcher } from '@readiness/dev-servers';
import { enqueue, loadEventSecretBox } from '@readiness/kit/outbox';
import { openServiceDatabase } from '@readiness/kit/runtime';
import { eventually } from '@readiness/testing';
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

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Every process below `pid`, children first found through `ps`. */
function descendants(pid: number): Array<{ pid: number; command: string }> {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,comm='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .map(([p, pp, ...c]) => ({ pid: Number(p), ppid: Number(pp), command: c.join(' ') }));
  const found: Array<{ pid: number; command: string }> = [];
  const walk = (parent: number) => {
    for (const row of rows.filter((r) => r.ppid === parent)) {
      found.push({ pid: row.pid, command: row.command });
      walk(row.pid);
    }
  };
  walk(pid);
  return found;
}

const postmaster = (dir: string) =>
  Number(readFileSync(path.join(dir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);

let dataDir: string;
let catcher: MailCatcher;
let restarted: RunningProduct | undefined;
let tokens: Tokens;
/** The crashed product's PostgreSQL server and PDF browser, and those still running 15 s after its SIGKILL. */
let crashChildren: Array<{ pid: number; command: string }> = [];
let outlived: string[] = [];
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
  const env = {
    ...SEED,
    MAIL_LEASE_SECONDS: '2',
    PUPPETEER_EXECUTABLE_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  };

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
    crashChildren = await eventually(() => {
      const found = descendants(crashing.pid);
      return (
        found.some((c) => /chrom/i.test(c.command)) && found.some((c) => c.command === 'postgres') && found
      );
    }, 'the PDF browser and PostgreSQL to run under the product');
  } finally {
    await crashing.kill();
  }
  outlived = await eventually(
    () => crashChildren.every((c) => !alive(c.pid)),
    'the crashed product’s children to stop',
    15_000,
  ).then(
    () => [],
    () => crashChildren.filter((c) => alive(c.pid)).map((c) => `${c.command} ${c.pid}`),
  );

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

test('when the product is killed with SIGKILL, then its PostgreSQL server and its PDF browser stop with it', () => {
  expect(crashChildren.map((c) => c.command)).toEqual(
    expect.arrayContaining(['postgres', expect.stringMatching(/chrom/i)]),
  );
  expect(outlived).toEqual([]);
});

/** A call that needs the student service's database and is never throttled: an unknown invitation link. */
const unknownLink = (url: string) => api(url, 'GET', `/api/student/${'x'.repeat(43)}/assessment`);

test('when the embedded PostgreSQL is killed, then /readyz and the calls answer 503 until it is back within seconds, and then both work', async () => {
  const { url } = restarted!;
  expect((await fetch(`${url}/readyz`)).status).toBe(200);
  expect((await unknownLink(url)).status).toBe(404);

  const killed = postmaster(dataDir);
  process.kill(killed, 'SIGKILL');
  const at = Date.now();
  const seen = { readyz: new Set<number>(), call: new Set<number>() };
  await eventually(
    async () => {
      const [ready, call] = await Promise.all([
        fetch(`${url}/readyz`).then((r) => r.status),
        unknownLink(url),
      ]);
      seen.readyz.add(ready);
      seen.call.add(call.status);
      if (call.status === 503) expect(call.body).toMatchObject({ code: expect.any(String) });
      return ready === 200 && call.status === 404 && seen.readyz.has(503);
    },
    'the database to be back after the probe saw it gone',
    // Typically two to three seconds (the supervisor's restart and PostgreSQL's crash recovery); the bound leaves
    // room for a machine busy with other test files, and only catches a restart that does not come.
    30_000,
  );
  expect(Date.now() - at).toBeLessThan(30_000);
  expect([...seen.readyz].sort()).toEqual([200, 503]);
  expect(seen.call.has(503)).toBe(true);
  expect([...seen.call].every((s) => s === 404 || s === 503)).toBe(true);
  expect(postmaster(dataDir)).not.toBe(killed);
  expect(alive(killed)).toBe(false);
});
