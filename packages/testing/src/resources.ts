import { createHash, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { listMigrations, migrate, openDatabase } from '@readiness/kit/db';
import { createLogger } from '@readiness/kit/logger';
import { Client } from 'pg';
import { serverUrl } from './servers';

const run = promisify(execFile);
const silent = createLogger({ name: 'test-resources', level: 'silent' });

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

/**
 * A fresh PostgreSQL database, dropped (with its connections) on close. Empty by default; with `migrations` (the
 * folders a service migrates, in order) it is a copy of a template database that those migrations were applied to
 * once, so a service under test finds its schema in place instead of running every migration again.
 */
export async function createTestDatabase(options: { migrations?: string[] } = {}): Promise<TestDatabase> {
  const adminUrl = await serverUrl('postgres');
  const name = uniqueName('test');
  const template = options.migrations?.length
    ? await migratedTemplate(adminUrl, options.migrations)
    : undefined;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrl(adminUrl, name),
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

function databaseUrl(adminUrl: string, name: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Any constant works; every test process that makes templates takes this lock (one server-wide session lock). */
const TEMPLATE_LOCK_KEY = 727_001_002;
const TEMPLATE_PREFIX = 'readiness_template_';
const templates = new Map<string, Promise<string>>();

/**
 * The name of a template database with `dirs` migrated, keyed by a hash of the folders' migration files (names and
 * contents): made once per server and per set of migrations, under a session lock so parallel test workers wait for
 * the one that makes it. A template whose migrations changed is another key; the stale ones of the same folders
 * are dropped when their successor is made.
 */
function migratedTemplate(adminUrl: string, dirs: string[]): Promise<string> {
  const folders = createHash('sha256').update(dirs.join('\n')).digest('hex').slice(0, 8);
  const content = createHash('sha256');
  for (const { name, checksum } of listMigrations(dirs)) content.update(`${name}\0${checksum}\0`);
  const name = `${TEMPLATE_PREFIX}${folders}_${content.digest('hex').slice(0, 16)}`;
  let made = templates.get(name);
  if (!made) {
    made = makeTemplate(adminUrl, name, `${TEMPLATE_PREFIX}${folders}_`, dirs);
    templates.set(name, made);
    made.catch(() => templates.delete(name));
  }
  return made;
}

async function makeTemplate(adminUrl: string, name: string, family: string, dirs: string[]): Promise<string> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
    const found = await admin.query<{ datname: string; datistemplate: boolean }>(
      'SELECT datname, datistemplate FROM pg_database WHERE datname LIKE $1',
      [`${family}%`],
    );
    if (found.rows.some((row) => row.datname === name && row.datistemplate)) return name;
    // Another set of these folders' migrations (an older checkout), or a template left half made by a killed run.
    for (const row of found.rows) {
      if (row.datistemplate) await admin.query(`ALTER DATABASE "${row.datname}" IS_TEMPLATE false`);
      await admin.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
    }
    await admin.query(`CREATE DATABASE "${name}"`);
    const database = await openDatabase({ url: databaseUrl(adminUrl, name), logger: silent });
    try {
      await migrate(database, dirs);
    } finally {
      await database.close();
    }
    await admin.query(`ALTER DATABASE "${name}" IS_TEMPLATE true ALLOW_CONNECTIONS false`);
    return name;
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]).catch(() => undefined);
    await admin.end();
  }
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

async function management(method: 'GET' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
  const { base, auth } = managementBase();
  try {
    const res = await fetch(`${base}/api${path}`, {
      method,
      headers: { authorization: `Basic ${auth}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok && res.status !== 404)
      throw new Error(`RabbitMQ management ${method} ${path}: ${res.status}`);
    if (method === 'GET') return res.status === 404 ? [] : await res.json();
    return true;
  } catch (err) {
    if ((err as Error).message.startsWith('RabbitMQ management')) throw err;
    return false; // management API not reachable: fall back to rabbitmqctl
  }
}

/**
 * The vhosts this process made and has handed back, emptied: a broker takes seconds to start a vhost (its message
 * stores) and as long to stop one, so a test process reuses its own instead of making one per test file.
 */
const idleVhosts: string[] = [];
const POOL_PREFIX = 'test_pool_';
let staleSwept = false;

/**
 * A RabbitMQ vhost of its own, the default user allowed everything, that holds no queue, exchange of its own or
 * connection when handed out; emptied (or deleted) on close.
 */
export async function createTestVhost(): Promise<TestVhost> {
  const amqpUrl = await serverUrl('rabbitmq');
  const vhost = idleVhosts.pop() ?? (await makeVhost(amqpUrl));
  const u = new URL(amqpUrl);
  u.pathname = `/${encodeURIComponent(vhost)}`;
  let closed = false;
  return {
    url: u.toString(),
    vhost,
    close: async () => {
      if (closed) return;
      closed = true;
      if (await emptyVhost(vhost).catch(() => false)) idleVhosts.push(vhost);
      else await deleteVhost(vhost);
    },
  };
}

async function makeVhost(amqpUrl: string): Promise<string> {
  if (!staleSwept) {
    staleSwept = true;
    void sweepStaleVhosts();
  }
  const vhost = uniqueName(POOL_PREFIX.slice(0, -1));
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
  return vhost;
}

async function deleteVhost(vhost: string): Promise<void> {
  if (!(await management('DELETE', `/vhosts/${encodeURIComponent(vhost)}`))) {
    await run('rabbitmqctl', ['delete_vhost', vhost]);
  }
}

/**
 * Closes the vhost's connections and deletes its queues and the exchanges the test declared, so the next test file
 * finds it as new. False when the management API does not answer (the vhost is then deleted instead).
 */
async function emptyVhost(vhost: string): Promise<boolean> {
  const v = encodeURIComponent(vhost);
  const connections = await management('GET', `/vhosts/${v}/connections?columns=name`);
  if (!Array.isArray(connections)) return false;
  for (const { name } of connections as Array<{ name: string }>) {
    // A connection closing on its own as it is deleted answers 500 (its process is gone): the wait below checks.
    await management('DELETE', `/connections/${encodeURIComponent(name)}`).catch(() => undefined);
  }
  const queues = (await management('GET', `/queues/${v}?columns=name`)) as Array<{ name: string }>;
  for (const { name } of queues) await management('DELETE', `/queues/${v}/${encodeURIComponent(name)}`);
  const exchanges = (await management('GET', `/exchanges/${v}?columns=name`)) as Array<{ name: string }>;
  for (const { name } of exchanges.filter((e) => e.name !== '' && !e.name.startsWith('amq.'))) {
    await management('DELETE', `/exchanges/${v}/${encodeURIComponent(name)}`);
  }
  // A closed connection leaves the list a moment later; one still open after that keeps the vhost from reuse.
  for (let wait = 0; wait < 20; wait++) {
    const left = (await management('GET', `/vhosts/${v}/connections?columns=name`)) as unknown[];
    if (left.length === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/**
 * The routing keys that bind `queue` to `exchange` in a test vhost, sorted: what the broker delivers to the queue
 * (the management API, else `rabbitmqctl list_bindings`).
 */
export async function boundRoutingKeys(vhost: string, exchange: string, queue: string): Promise<string[]> {
  const v = encodeURIComponent(vhost);
  const path = `/bindings/${v}/e/${encodeURIComponent(exchange)}/q/${encodeURIComponent(queue)}`;
  const viaApi = await management('GET', path);
  if (Array.isArray(viaApi))
    return (viaApi as Array<{ routing_key: string }>).map((b) => b.routing_key).sort();
  const { stdout } = await run('rabbitmqctl', [
    'list_bindings',
    '-q',
    '--no-table-headers',
    '-p',
    vhost,
    'source_name',
    'destination_name',
    'routing_key',
  ]);
  return stdout
    .split('\n')
    .map((line) => line.split('\t'))
    .filter(([source, destination]) => source === exchange && destination === queue)
    .map(([, , key]) => key!)
    .sort();
}

/** Deletes the pooled vhosts of test processes that are gone (their process ended before it could). */
async function sweepStaleVhosts(): Promise<void> {
  const all = await management('GET', '/vhosts?columns=name').catch(() => false);
  if (!Array.isArray(all)) return;
  for (const { name } of all as Array<{ name: string }>) {
    const pid = new RegExp(`^${POOL_PREFIX}(\\d+)_`).exec(name)?.[1];
    if (pid && !processAlive(Number(pid))) await deleteVhost(name).catch(() => undefined);
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
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
