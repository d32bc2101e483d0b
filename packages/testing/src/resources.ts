import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { serverUrl } from './servers';

const run = promisify(execFile);

function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

export function rewriteUrlPort(url: string, port: number, host = '127.0.0.1'): string {
  const u = new URL(url);
  u.hostname = host;
  u.port = String(port);
  return u.toString();
}

export interface TestDatabase {
  url: string;
  name: string;
  close(): Promise<void>;
}

/** A fresh, empty PostgreSQL database; dropped (with its connections) on close. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = await serverUrl('postgres');
  const name = uniqueName('test');
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    name,
    close: async () => {
      const c = new Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

export interface TestVhost {
  url: string;
  vhost: string;
  close(): Promise<void>;
}

function managementBase(): { base: string; auth: string } {
  const u = new URL(process.env.TEST_AMQP_MANAGEMENT_URL ?? 'http://guest:guest@127.0.0.1:15672');
  const auth = Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString(
    'base64',
  );
  return { base: `${u.protocol}//${u.host}`, auth };
}

async function management(method: 'PUT' | 'DELETE', path: string, body?: unknown): Promise<boolean> {
  const { base, auth } = managementBase();
  try {
    const res = await fetch(`${base}/api${path}`, {
      method,
      headers: { authorization: `Basic ${auth}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok && res.status !== 404)
      throw new Error(`RabbitMQ management ${method} ${path}: ${res.status}`);
    return true;
  } catch (err) {
    if ((err as Error).message.startsWith('RabbitMQ management')) throw err;
    return false; // management API not reachable: fall back to rabbitmqctl
  }
}

/** A fresh RabbitMQ vhost the default user may use; deleted (with its queues) on close. */
export async function createTestVhost(): Promise<TestVhost> {
  const amqpUrl = await serverUrl('rabbitmq');
  const vhost = uniqueName('test');
  const user = decodeURIComponent(new URL(amqpUrl).username || 'guest');
  const viaApi =
    (await management('PUT', `/vhosts/${encodeURIComponent(vhost)}`)) &&
    (await management('PUT', `/permissions/${encodeURIComponent(vhost)}/${encodeURIComponent(user)}`, {
      configure: '.*',
      write: '.*',
      read: '.*',
    }));
  if (!viaApi) {
    await run('rabbitmqctl', ['add_vhost', vhost]);
    await run('rabbitmqctl', ['set_permissions', '-p', vhost, user, '.*', '.*', '.*']);
  }
  const u = new URL(amqpUrl);
  u.pathname = `/${encodeURIComponent(vhost)}`;
  return {
    url: u.toString(),
    vhost,
    close: async () => {
      if (!(await management('DELETE', `/vhosts/${encodeURIComponent(vhost)}`))) {
        await run('rabbitmqctl', ['delete_vhost', vhost]);
      }
    },
  };
}

export interface TestRedis {
  url: string;
  /** Key prefix reserved for this test file; every key under it is deleted on close. */
  prefix: string;
  close(): Promise<void>;
}

export async function createTestRedis(): Promise<TestRedis> {
  const url = await serverUrl('redis');
  const prefix = `${uniqueName('test')}:`;
  return {
    url,
    prefix,
    close: async () => {
      const { Redis } = await import('ioredis');
      const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect();
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
          cursor = next;
          if (keys.length) await redis.del(...keys);
        } while (cursor !== '0');
      } finally {
        redis.disconnect();
      }
    },
  };
}
