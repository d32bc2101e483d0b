import net from 'node:net';

/**
 * Where the test servers are: the local PostgreSQL, RabbitMQ and Redis by default, overridden by
 * TEST_DATABASE_URL, TEST_AMQP_URL (+ TEST_AMQP_MANAGEMENT_URL) and TEST_REDIS_URL. When a server is
 * not reachable and a Docker engine is, one container per kind is started with testcontainers.
 */
export interface Servers {
  databaseUrl: string;
  amqpUrl: string;
  amqpManagementUrl: string;
  redisUrl: string;
}

const defaults = {
  databaseUrl: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  amqpUrl: process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
  amqpManagementUrl: process.env.TEST_AMQP_MANAGEMENT_URL ?? 'http://guest:guest@127.0.0.1:15672',
  redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
};

export function reachable(url: string, timeoutMs = 1000): Promise<boolean> {
  const u = new URL(url);
  const port =
    Number(u.port) || { 'postgres:': 5432, 'amqp:': 5672, 'redis:': 6379, 'http:': 80 }[u.protocol] || 80;
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const HOW_TO_START = {
  postgres:
    "start PostgreSQL on 127.0.0.1:5432 (e.g. 'pg_ctlcluster 15 main start') or set TEST_DATABASE_URL",
  rabbitmq:
    "start RabbitMQ on 127.0.0.1:5672 with the management plugin ('rabbitmq-plugins enable rabbitmq_management; rabbitmq-server -detached') or set TEST_AMQP_URL and TEST_AMQP_MANAGEMENT_URL",
  redis: "start Redis on 127.0.0.1:6379 ('redis-server --daemonize yes') or set TEST_REDIS_URL",
};

const containers = new Map<string, Promise<string>>();

async function dockerAvailable(): Promise<boolean> {
  return reachable('http://127.0.0.1:2375', 300).then(async (tcp) => {
    if (tcp || process.env.DOCKER_HOST) return true;
    const fs = await import('node:fs');
    return fs.existsSync('/var/run/docker.sock');
  });
}

/** The testcontainers path: only used where no local server answers and a Docker engine does. */
async function fromContainer(kind: keyof typeof HOW_TO_START): Promise<string> {
  let started = containers.get(kind);
  if (!started) {
    started = (async () => {
      const { GenericContainer } = await import('testcontainers');
      if (kind === 'postgres') {
        const c = await new GenericContainer('postgres:16-alpine')
          .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
          .withExposedPorts(5432)
          .start();
        return `postgres://postgres@${c.getHost()}:${c.getMappedPort(5432)}/postgres`;
      }
      if (kind === 'rabbitmq') {
        const c = await new GenericContainer('rabbitmq:3-management-alpine')
          .withExposedPorts(5672, 15672)
          .start();
        process.env.TEST_AMQP_MANAGEMENT_URL = `http://guest:guest@${c.getHost()}:${c.getMappedPort(15672)}`;
        return `amqp://guest:guest@${c.getHost()}:${c.getMappedPort(5672)}`;
      }
      const c = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
      return `redis://${c.getHost()}:${c.getMappedPort(6379)}`;
    })();
    containers.set(kind, started);
  }
  return started;
}

async function resolve(kind: keyof typeof HOW_TO_START, url: string): Promise<string> {
  if (await reachable(url)) return url;
  if (await dockerAvailable()) return fromContainer(kind);
  throw new Error(`Test server not reachable at ${new URL(url).host}: ${HOW_TO_START[kind]}.`);
}

let resolved: Promise<Servers> | undefined;

export function servers(): Promise<Servers> {
  resolved ??= (async () => {
    const [databaseUrl, amqpUrl, redisUrl] = await Promise.all([
      resolve('postgres', defaults.databaseUrl),
      resolve('rabbitmq', defaults.amqpUrl),
      resolve('redis', defaults.redisUrl),
    ]);
    return {
      databaseUrl,
      amqpUrl,
      redisUrl,
      amqpManagementUrl: process.env.TEST_AMQP_MANAGEMENT_URL ?? defaults.amqpManagementUrl,
    };
  })();
  return resolved;
}

/** Resolves one kind only, so a test file that needs PostgreSQL does not require RabbitMQ. */
export async function serverUrl(kind: 'postgres' | 'rabbitmq' | 'redis'): Promise<string> {
  const url = { postgres: defaults.databaseUrl, rabbitmq: defaults.amqpUrl, redis: defaults.redisUrl }[kind];
  return resolve(kind, url);
}
