/**
 * The local stack as the traces test and the operations rehearsals start it: built from `dist`, on fresh databases
 * of their own, their own RabbitMQ vhost and Redis database, the fault suite's admin seeded, output kept.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Pool } from 'pg';
import { createTestVhost, eventually, serverUrl, type TestVhost } from '@readiness/testing';
import {
  startLocalStack,
  type LocalStack,
  type LocalStackOptions,
  type StackServiceName,
} from '../../deploy/all-in-one/src/local-stack';
import { ADMIN } from '../faults/support/fault-stack';

const ROOT = path.resolve(__dirname, '../..');

export interface TestStack {
  stack: LocalStack;
  vhost: TestVhost;
  /** Stops the stack, then removes the vhost. */
  stop(): Promise<void>;
}

/** Options for a stack named `<prefix>_<pid>_<random>`, on Redis database `redisDatabase` (one per test file). */
export async function testStackOptions(
  prefix: string,
  redisDatabase: number,
  vhost: TestVhost,
  more: Pick<LocalStackOptions, 'env' | 'serviceEnv' | 'serviceRoot' | 'beforeStart'> = {},
): Promise<LocalStackOptions> {
  const redis = new URL(await serverUrl('redis'));
  redis.pathname = `/${redisDatabase}`;
  return {
    name: `${prefix}_${process.pid}_${randomBytes(3).toString('hex')}`,
    isolate: true,
    ports: 'free',
    pgUrl: await serverUrl('postgres'),
    amqpUrl: vhost.url,
    redisUrl: redis.toString(),
    output: 'buffer',
    env: { LOG_LEVEL: 'warn', ...more.env },
    serviceEnv: {
      ...more.serviceEnv,
      auth: { SEED_ADMIN_EMAIL: ADMIN.email, SEED_ADMIN_PASSWORD: ADMIN.password, ...more.serviceEnv?.auth },
    },
    serviceRoot: more.serviceRoot,
    beforeStart: more.beforeStart,
  };
}

/** Waits until the seeded assessment has reached the student service (its database) by its published event. */
export async function seededAssessmentIn(studentDatabaseUrl: string): Promise<void> {
  const studentDb = new Pool({ connectionString: studentDatabaseUrl, max: 1 });
  try {
    await eventually(
      async () =>
        (await studentDb.query('SELECT 1 FROM assessment_versions WHERE active_since IS NOT NULL'))
          .rowCount! > 0,
      'the seeded assessment in the student service',
      60_000,
    );
  } finally {
    await studentDb.end();
  }
}

/** Starts a test stack (see `testStackOptions`) and waits until students can be invited to the seeded assessment. */
export async function startTestStack(
  prefix: string,
  redisDatabase: number,
  more: Parameters<typeof testStackOptions>[3] = {},
): Promise<TestStack> {
  if (!existsSync(path.join(ROOT, 'services/gateway/dist/main.js')))
    throw new Error('build first: npx tsc -b && npm run build -w web');
  const vhost = await createTestVhost();
  let stack: LocalStack;
  try {
    stack = await startLocalStack(await testStackOptions(prefix, redisDatabase, vhost, more));
  } catch (err) {
    await vhost.close();
    throw err;
  }
  await seededAssessmentIn(stack.service('student').databaseUrl!);
  return {
    stack,
    vhost,
    stop: async () => {
      await stack.stop();
      await vhost.close();
    },
  };
}

export type { StackServiceName };
