/*
 * Revocations outlive the store that caches them: a signed-out session, a disabled admin and a reset password
 * keep their old tokens refused after `make start` restarts (its memory store is new) and after the local
 * stack's Redis loses every key, on the gateway and on each service's own port.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { createTestVhost, serverUrl, type TestVhost } from '@readiness/testing';
import { startLocalStack, type StackServiceName } from '../src/local-stack';
import { api, createAdminPastFirstSignIn, SEED as SUPER, startProduct } from './launcher';

jest.setTimeout(300_000);

const ROOT = path.resolve(__dirname, '../../..');
const SEED = { SEED_ADMIN_EMAIL: SUPER.email, SEED_ADMIN_PASSWORD: SUPER.password };
const PASSWORD = 'staff-password-1';

/** One admin route of each service: 401 for a refused token, anything else once the token is accepted. */
const PROBES: Record<Exclude<StackServiceName, 'gateway'>, string> = {
  auth: '/api/auth/me',
  assessment: '/api/assessment/versions',
  student: '/api/admin/students',
  results: '/api/admin/results',
  report: `/api/admin/results/${randomUUID()}/pdf`,
  notification: `/api/admin/notifications/deliveries?studentIds=${randomUUID()}`,
  integrations: '/api/admin/lti/platforms',
};
type Upstream = keyof typeof PROBES;
const UPSTREAMS = Object.keys(PROBES) as Upstream[];

interface Tokens {
  live: string;
  signedOut: string;
  disabled: string;
  reset: string;
}

/** Signs in three admins and revokes each one's token a different way; the super admin's token stays live. */
async function revokeThreeWays(base: string): Promise<Tokens> {
  const login = async (email: string, password: string) => {
    const res = await api<{ token: string }>(base, 'POST', '/api/auth/login', { body: { email, password } });
    expect(res.status).toBe(200);
    return res.body.token;
  };
  const live = await login(SUPER.email, SUPER.password);
  const staff: Record<string, { id: string; token: string }> = {};
  for (const who of ['signed-out', 'disabled', 'reset']) {
    const email = `${who}-${randomUUID().slice(0, 8)}@example.edu`;
    const created = await createAdminPastFirstSignIn(base, live, {
      name: `Staff ${who}`,
      email,
      password: PASSWORD,
      role: 'admin',
    });
    staff[who] = { id: created._id, token: await login(email, PASSWORD) };
  }
  expect(
    (await api(base, 'POST', '/api/auth/logout', { token: staff['signed-out']!.token })).status,
  ).toBeLessThan(300);
  const disabled = await api(base, 'PATCH', `/api/admin/admins/${staff['disabled']!.id}/status`, {
    token: live,
    body: { status: 'disabled' },
  });
  expect(disabled.status).toBe(200);
  const reset = await api(base, 'POST', `/api/admin/admins/${staff['reset']!.id}/reset-password`, {
    token: live,
  });
  expect(reset.status).toBe(200);
  return {
    live,
    signedOut: staff['signed-out']!.token,
    disabled: staff['disabled']!.token,
    reset: staff['reset']!.token,
  };
}

/** The status each token gets on each probe: through the gateway and on every service's own port. */
async function statuses(gateway: string, services: Record<Upstream, string>, token: string) {
  const seen: Record<string, number> = {};
  for (const name of UPSTREAMS) {
    const path = PROBES[name];
    seen[`gateway ${name}`] = (await api(gateway, 'GET', path, { token })).status;
    seen[name] = (await api(services[name], 'GET', path, { token })).status;
  }
  return seen;
}

async function expectRefusedEverywhere(gateway: string, services: Record<Upstream, string>, tokens: Tokens) {
  for (const token of [tokens.signedOut, tokens.disabled, tokens.reset]) {
    const seen = await statuses(gateway, services, token);
    expect(Object.entries(seen).filter(([, status]) => status !== 401)).toEqual([]);
  }
  // The check is not a blanket refusal: the token nobody revoked still works everywhere.
  const live = await statuses(gateway, services, tokens.live);
  expect(Object.entries(live).filter(([, status]) => status === 401 || status >= 500)).toEqual([]);
}

beforeAll(() => {
  if (!existsSync(path.join(ROOT, 'deploy/all-in-one/dist/main.js')))
    throw new Error('run `npx tsc -b` first');
});

test('when `make start` restarts, then signed-out, disabled and reset tokens stay refused on the gateway and every service', async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'readiness-revocation-'));
  try {
    const first = await startProduct(SEED, { dataDir });
    let tokens: Tokens;
    try {
      tokens = await revokeThreeWays(first.url);
    } finally {
      await first.stop();
    }
    const again = await startProduct(SEED, { dataDir });
    try {
      // The launcher prints every service's own address: `auth http://127.0.0.1:…, assessment …`.
      const services = Object.fromEntries(
        UPSTREAMS.map((name) => [name, new RegExp(`\\b${name} (http://[0-9.:]+)`).exec(again.output())![1]]),
      ) as Record<Upstream, string>;
      await expectRefusedEverywhere(again.url, services, tokens);
    } finally {
      await again.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

describe('the local stack', () => {
  let vhost: TestVhost;
  // A Redis database of its own, so emptying it as a lost Redis would touches no other test's keys.
  const REDIS_DB = 13;

  beforeAll(async () => {
    vhost = await createTestVhost();
  });
  afterAll(async () => {
    await vhost.close();
  });

  test('when Redis loses every key, then signed-out, disabled and reset tokens stay refused on the gateway and every service', async () => {
    const redisUrl = new URL(await serverUrl('redis'));
    redisUrl.pathname = `/${REDIS_DB}`;
    const stack = await startLocalStack({
      name: `revoke_${process.pid}_${Date.now().toString(36)}`,
      isolate: true,
      ports: 'free',
      pgUrl: await serverUrl('postgres'),
      amqpUrl: vhost.url,
      redisUrl: redisUrl.toString(),
      env: SEED,
      output: 'buffer',
    });
    const redis = new Redis(redisUrl.toString());
    try {
      const tokens = await revokeThreeWays(stack.gatewayUrl);
      const services = Object.fromEntries(UPSTREAMS.map((name) => [name, stack.service(name).url])) as Record<
        Upstream,
        string
      >;
      await redis.flushdb();
      expect(await redis.dbsize()).toBe(0);
      await expectRefusedEverywhere(stack.gatewayUrl, services, tokens);
    } finally {
      redis.disconnect();
      await stack.stop();
    }
  });
});
