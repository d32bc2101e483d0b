import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  create,
  decodePayload,
  encodePayload,
  events as contracts,
  type EventInit,
  type EventName,
  type EventPayload,
} from '@readiness/contracts';
import { startEmbeddedS3 } from '@readiness/dev-servers';
import { createJwtVerifier } from '@readiness/kit/auth';
import { createMemoryBus, createRabbitBus, type BusMessage, type EventBus } from '@readiness/kit/bus';
import { closeRedis, createRedis, type Redis } from '@readiness/kit/cache';
import { openDatabase, type Database } from '@readiness/kit/db';
import { createLogger, type Logger } from '@readiness/kit/logger';
import type { Mailer } from '@readiness/kit/mail';
import {
  migrationDirs,
  startService,
  type RunningService,
  type ServiceModule,
  type SharedAdapters,
} from '@readiness/kit/runtime';
import type { z } from 'zod';
import { createTestDatabase, createTestRedis, createTestVhost, rewriteUrlPort } from './resources';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';
import { signTestJwt } from './tokens';

const TEST_ISSUER = 'readiness-auth';
const TEST_AUDIENCE = 'readiness-admin';

const signing = generateKeyPairSync('rsa', { modulusLength: 2048 });
const forger = generateKeyPairSync('rsa', { modulusLength: 2048 });
const kid = randomUUID();

/**
 * An admin token as auth signs it, with the key every service under test trusts; `forged` signs with a key auth
 * never published.
 */
export function testAdminToken(
  adminId: string = randomUUID(),
  options: { forged?: boolean; mustChangePassword?: boolean; role?: string } = {},
): string {
  return signTestJwt(
    {
      role: options.role ?? 'admin',
      sid: randomUUID(),
      ...(options.mustChangePassword ? { must_change_password: true } : {}),
    },
    options.forged ? forger.privateKey : signing.privateKey,
    {
      kid,
      subject: adminId,
      jwtid: randomUUID(),
      issuer: TEST_ISSUER,
      audience: TEST_AUDIENCE,
      expiresIn: 600,
    },
  );
}

/** The verifier a service under test checks admin tokens with: the public half of `testAdminToken`'s key. */
const testAdminVerifier = () =>
  createJwtVerifier({
    publicKeys: [{ kid, key: signing.publicKey }],
    issuer: TEST_ISSUER,
    audience: TEST_AUDIENCE,
  });

/** An event the bus delivered, decoded; over several names, narrowed by its name. */
export type SeenEvent<N extends EventName = EventName> = N extends EventName
  ? { id: string; name: N; payload: EventPayload<N> }
  : never;

export interface ServiceUnderTestOptions<O, W extends EventName = never> {
  /** `real`: a RabbitMQ vhost (and S3, Redis when asked); `embedded`: the memory bus and in-process defaults. */
  kind: 'real' | 'embedded';
  /** Config on top of the test defaults (port 0, silent logs, a temporary DATA_DIR). */
  config?: Record<string, unknown>;
  /** Events recorded, decoded, as the bus delivers them to a test queue. */
  watch?: readonly W[];
  /** An S3 server the service reaches through S3_ENDPOINT, which other services of the test may share. */
  s3?: boolean;
  /** `real`: a Redis prefix of its own, given to the service as its adapter. */
  redis?: boolean;
  /** `real`: RabbitMQ reached through a TCP proxy the test can cut. */
  brokerProxy?: boolean;
  /** Admin tokens checked with `testAdminVerifier` (true) or by the service's own config (false). */
  trustTestTokens?: boolean;
  /** What the process shares, on top of the test verifier (a key-value store, another verifier). */
  shared?: SharedAdapters;
  /** A mailer of the test's (the kit's SMTP catcher behind a proxy, say). */
  mailer?: Mailer;
  /** The bus's retry delays (100 and 200 ms by default). */
  retryDelaysMs?: number[];
  /** The service's own logger (the adapters the test opens log nothing). */
  logger?: Logger;
  options?: O;
}

export interface ServiceUnderTest<C, E, W extends EventName = EventName> {
  service: RunningService<C, E>;
  url: string;
  database: Database;
  bus: EventBus;
  dataDir: string;
  kind: 'real' | 'embedded';
  /** The RabbitMQ URL (with its vhost) of a `real` service. */
  amqpUrl?: string;
  /** The RabbitMQ vhost of a `real` service. */
  vhost?: string;
  redis?: Redis;
  proxy?: TcpProxy;
  /** The S3 server of a service started with `s3` (its config keys); empty without. */
  s3Config: Record<string, string>;
  /** Every watched event the bus delivered, decoded. */
  events: Array<SeenEvent<W>>;
  eventsNamed<N extends W>(name: N): Array<SeenEvent<N>>;
  /** An HTTP call with an admin token by default (`token: null` sends none), JSON in. */
  call(
    method: string,
    urlPath: string,
    options?: { token?: string | null; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  /** Publishes an event as its owner would; returns the envelope (publish it again to redeliver). */
  publish<N extends EventName>(name: N, payload: EventInit<N>, occurredAt?: Date): Promise<BusMessage>;
  /** Statements sent to PostgreSQL through the service's pool (outside transactions) while `fn` runs. */
  countQueries<T>(fn: () => Promise<T>): Promise<{ value: T; queries: number }>;
  /**
   * Another instance of the module on the same database (a replica), with its own memory bus; with `sameBroker`, a
   * `real` service's replica connects to the same vhost instead, as a second pod does (directly, not through the
   * proxy).
   */
  startReplica(
    config?: Record<string, unknown>,
    options?: { sameBroker?: boolean },
  ): Promise<RunningService<C, E>>;
  /** Runs on close, after the service stopped and before what the kit opened is closed. */
  onClose(close: () => Promise<void> | void): void;
  close(): Promise<void>;
}

const silent = createLogger({
  name: 'service-test',
  level: (process.env.TEST_LOG_LEVEL as 'silent' | undefined) ?? 'silent',
});

/**
 * A service in-process on port 0, started by the kit's runtime as `main.ts` starts it, against a fresh PostgreSQL
 * database and either a RabbitMQ vhost (`real`) or the memory bus (`embedded`): what every service's component
 * tests need, so a service's harness holds only its own fixtures.
 */
export async function startServiceUnderTest<S extends z.ZodType, E, O, W extends EventName = never>(
  module: ServiceModule<S, E, O>,
  opts: ServiceUnderTestOptions<O, W>,
): Promise<ServiceUnderTest<z.infer<S>, E, W>> {
  const logger = silent;
  const closers: Array<() => Promise<void> | void> = [];
  const dataDir = mkdtempSync(path.join(tmpdir(), `${module.name}-test-`));
  closers.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const real = opts.kind === 'real';
  const retryDelaysMs = opts.retryDelaysMs ?? [100, 200];
  const [db, vhost, testRedis] = await Promise.all([
    // The service's migrations are applied once per run to a template this database copies.
    createTestDatabase({ migrations: migrationDirs(module) }),
    real ? createTestVhost() : undefined,
    real && opts.redis ? createTestRedis() : undefined,
  ]);
  closers.push(db.close);
  if (vhost) closers.push(vhost.close);
  if (testRedis) closers.push(testRedis.close);
  const database = await openDatabase({ url: db.url, logger });
  closers.push(() => database.close());
  let proxy: TcpProxy | undefined;
  let bus: EventBus;
  if (vhost) {
    let url = vhost.url;
    if (opts.brokerProxy) {
      const target = new URL(vhost.url);
      const started = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5672) });
      proxy = started;
      closers.push(() => started.close());
      url = rewriteUrlPort(vhost.url, started.port);
    }
    bus = createRabbitBus({ url, service: module.name, logger, retryDelaysMs });
  } else {
    bus = createMemoryBus({ logger, service: module.name, retryDelaysMs });
  }
  closers.push(() => bus.close());
  const redis = testRedis
    ? createRedis({ url: testRedis.url, keyPrefix: testRedis.prefix, logger })
    : undefined;
  if (redis) closers.push(() => closeRedis(redis));
  const s3Config: Record<string, string> = {};
  if (opts.s3) {
    const s3 = await startEmbeddedS3({ directory: path.join(dataDir, 's3-server') });
    closers.push(() => s3.close());
    Object.assign(s3Config, {
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY: s3.accessKey,
      S3_SECRET_KEY: s3.secretKey,
    });
  }

  const events: Array<SeenEvent<W>> = [];
  if (opts.watch?.length) {
    await bus.subscribe({
      queue: `test.${module.name}-events`,
      events: [...opts.watch],
      handle: async (msg) => {
        const name = msg.name as W;
        events.push({ id: msg.id, name, payload: decodePayload(name, msg.payload) } as SeenEvent<W>);
      },
    });
  }
  await bus.start();

  const baseConfig = {
    PORT: 0,
    HOST: '127.0.0.1',
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    // The student service's waiting room forms a line only at an administrator's limit: the suite keeps this machine
    // busy, and its own pressure must not put a test's students in line (the waiting room's tests choose the mode).
    WAITING_ROOM: 'limit-only',
    ...s3Config,
    ...opts.config,
  };
  const shared: SharedAdapters = {
    ...(opts.trustTestTokens === false ? {} : { adminVerifier: testAdminVerifier() }),
    ...opts.shared,
  };
  const service = await startService(module, {
    config: baseConfig,
    logger: opts.logger ?? silent,
    adapters: { database, bus, redis, mailer: opts.mailer },
    shared,
    options: opts.options,
  });
  const ownClosers: Array<() => Promise<void> | void> = [];
  const stops: Array<() => Promise<void>> = [() => service.stop()];

  const token = testAdminToken();
  const pool = (database.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;

  return {
    service,
    url: service.url,
    database,
    bus,
    dataDir,
    kind: opts.kind,
    amqpUrl: vhost?.url,
    vhost: vhost?.vhost,
    redis,
    proxy,
    s3Config,
    events,
    eventsNamed: <N extends W>(name: N) =>
      events.filter((e) => e.name === name) as unknown as Array<SeenEvent<N>>,
    call(method, urlPath, options = {}) {
      const bearer = options.token === undefined ? token : options.token;
      return fetch(`${service.url}${urlPath}`, {
        method,
        headers: {
          ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
          ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
        },
        body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
      });
    },
    async publish(name, payload, occurredAt = new Date()) {
      const message: BusMessage = {
        id: randomUUID(),
        name,
        occurredAt,
        correlationId: randomUUID(),
        payload: encodePayload(name, create(contracts[name] as never, payload as never) as never),
      };
      await bus.publish([message]);
      return message;
    },
    async countQueries(fn) {
      const original = pool.query;
      let queries = 0;
      pool.query = function (this: unknown, ...args: unknown[]) {
        queries++;
        return original.apply(this, args);
      };
      try {
        return { value: await fn(), queries };
      } finally {
        pool.query = original;
      }
    },
    async startReplica(config = {}, { sameBroker = false } = {}) {
      const replicaDir = mkdtempSync(path.join(tmpdir(), `${module.name}-replica-`));
      closers.push(() => rmSync(replicaDir, { recursive: true, force: true }));
      if (sameBroker && !vhost) throw new Error('sameBroker: the service is not a `real` one');
      const replicaBus =
        sameBroker && vhost
          ? createRabbitBus({ url: vhost.url, service: module.name, logger, retryDelaysMs })
          : createMemoryBus({ logger, service: module.name, retryDelaysMs: [100, 200] });
      await replicaBus.start();
      closers.push(() => replicaBus.close());
      const replica = await startService(module, {
        config: {
          ...baseConfig,
          DATA_DIR: replicaDir,
          ...Object.fromEntries(Object.keys(s3Config).map((k) => [k, undefined])),
          ...config,
        },
        logger,
        adapters: { database, bus: replicaBus },
        shared,
        options: opts.options,
      });
      stops.push(() => replica.stop());
      return replica;
    },
    onClose(close) {
      ownClosers.push(close);
    },
    async close() {
      for (const stop of stops.reverse()) await stop();
      for (const close of ownClosers.reverse()) await close();
      for (const close of closers.reverse()) await close();
    },
  };
}
