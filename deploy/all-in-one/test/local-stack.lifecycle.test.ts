/*
 * The local stack as the fault suite and the benchmark use it: isolated databases and vhost on free ports,
 * a service killed and started again, and nothing left behind after stop(). On the same stack: revocations outlive
 * the Redis that caches them (signed-out, disabled and reset tokens stay refused after Redis loses every key, on the
 * gateway and on each service's own port).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { topology } from '@readiness/contracts';
import { createTestVhost, serverUrl, type TestVhost } from '@readiness/testing';
import { startLocalStack, type LocalStack } from '../src/local-stack';
import { SEED } from './launcher';
import { expectRefusedEverywhere, revokeThreeWays, UPSTREAMS, type Upstream } from './revocations';

jest.setTimeout(180_000);

const ROOT = path.resolve(__dirname, '../../..');
const name = `stack_${process.pid}_${Date.now().toString(36)}`;

async function databases(pgUrl: string): Promise<string[]> {
  const client = new Client({ connectionString: pgUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE datname LIKE $1 ORDER BY datname',
      [`${name}_%`],
    );
    return rows.map((r) => r.datname);
  } finally {
    await client.end();
  }
}

let stack: LocalStack | undefined;
let pgUrl: string;
let vhost: TestVhost;
/** A Redis database of its own, so emptying it as a lost Redis would touches no other test's keys. */
const REDIS_DB = 13;
let redisUrl: string;

beforeAll(async () => {
  if (!existsSync(path.join(ROOT, 'services/gateway/dist/main.js')))
    throw new Error('run `npx tsc -b` first');
  pgUrl = await serverUrl('postgres');
  vhost = await createTestVhost();
  const redis = new URL(await serverUrl('redis'));
  redis.pathname = `/${REDIS_DB}`;
  redisUrl = redis.toString();
});

afterAll(async () => {
  await stack?.stop();
  await vhost.close();
});

test('when an isolated stack starts, then every service answers through the gateway on its own databases and vhost', async () => {
  stack = await startLocalStack({
    name,
    isolate: true,
    ports: 'free',
    pgUrl,
    amqpUrl: vhost.url,
    redisUrl,
    env: { SEED_ADMIN_EMAIL: SEED.email, SEED_ADMIN_PASSWORD: SEED.password },
    output: 'buffer',
  });
  expect(await databases(pgUrl)).toEqual(
    topology
      .filter((row) => row.uses.postgres)
      .map((row) => `${name}_${row.name}`)
      .sort(),
  );
  expect(stack.vhost).toBe(vhost.vhost);
  const jwks = await fetch(`${stack.gatewayUrl}/.well-known/jwks.json`);
  expect(jwks.status).toBe(200);
  const metrics = await fetch(`${stack.service('student').internalUrl}/metrics`);
  expect(metrics.status).toBe(200);
  // The public port keeps the operational pages to itself.
  expect((await fetch(`${stack.service('student').url}/metrics`)).status).toBe(404);
  // One S3 server of its own for the services that keep files, in a process of its own.
  expect(stack.objectStorage.pid).toEqual(expect.any(Number));
  expect(stack.objectStorage.pid).not.toBe(process.pid);
  expect((await fetch(`${stack.objectStorage.endpoint}/`)).status).toBe(200);
});

test('when Redis loses every key, then signed-out, disabled and reset tokens stay refused on the gateway and every service', async () => {
  const running = stack!;
  const redis = new Redis(redisUrl);
  try {
    const tokens = await revokeThreeWays(running.gatewayUrl);
    const services = Object.fromEntries(UPSTREAMS.map((name) => [name, running.service(name).url])) as Record<
      Upstream,
      string
    >;
    await redis.flushdb();
    expect(await redis.dbsize()).toBe(0);
    await expectRefusedEverywhere(running.gatewayUrl, services, tokens);
  } finally {
    redis.disconnect();
  }
});

test('when a service is killed, then it is down until started again, on the same address', async () => {
  const running = stack!;
  const before = running.service('results').pid;
  expect(before).toBeDefined();
  await running.kill('results');
  expect(running.service('results').pid).toBeUndefined();
  await expect(fetch(`${running.service('results').url}/readyz`)).rejects.toThrow();
  await running.start('results');
  expect(running.service('results').pid).not.toEqual(before);
  expect((await fetch(`${running.service('results').url}/readyz`)).status).toBe(200);
});

test('when the stack stops, then its processes, databases and data folder are gone', async () => {
  const running = stack!;
  const pids = [
    ...(['gateway', 'student', 'report'] as const).map((s) => running.service(s).pid!),
    running.objectStorage.pid!,
  ];
  await running.stop();
  for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  expect(await databases(pgUrl)).toEqual([]);
  expect(existsSync(running.dataDir)).toBe(false);
  stack = undefined;
});
