import type { Server } from 'node:http';
import path from 'node:path';
import type { RequestHandler } from 'express';
import client, { type Registry } from 'prom-client';
import { z } from 'zod';
import { consumerQueues } from '@readiness/contracts';
import { adminGuard, type JwtVerifier } from '../auth';
import type { EventBus, Subscription } from '../bus';
import { createRevocationList, type KeyValueStore, type Redis } from '../cache';
import { adminAuthEnv, loadConfig } from '../config';
import { runMigrationsCli, type Database } from '../db';
import { createHttpApp, listen, startInternalServer, type HttpApp } from '../http';
import { collectProcessMetrics } from '../metrics';
import { createLogger, type Logger } from '../logger';
import type { Mailer } from '../mail';
import { serveOpenApi } from '../openapi';
import { handleOnce, OutboxRelay } from '../outbox';
import { handleProcessErrors, Shutdown } from '../shutdown';
import { shutdownTracing } from '../tracing';
import type { ObjectStore, ObjectStoreConnection } from '../storage';
import { declarationOf } from './declared';
import { startJobs } from './jobs';
import { startYielding, type YieldingOptions } from './yielding';
import { migrationDirs, OwnedResources, openAdapters, type AdapterConfig } from './service-adapters';
import type { ServiceContext, ServiceModule, ServiceParts } from './service';

/** What every service of one process shares (the all-in-one launcher); none of it is closed by a service. */
export interface SharedAdapters {
  /**
   * Verifies admin tokens with keys already at hand (the all-in-one shares auth's once it started), so the admin
   * guard of the services after it needs no JWKS round trip.
   */
  adminVerifier?: JwtVerifier;
  /** The database of a service that sets no DATABASE_URL (the launcher's embedded server, a database each). */
  databaseUrl?: (service: string) => Promise<string>;
  bus?: EventBus;
  kv?: KeyValueStore;
  /** The SMTP server of services that set no SMTP_URL. */
  smtpUrl?: string;
  /** The S3 server of services that set no S3_ENDPOINT (the launcher's embedded one). */
  s3?: ObjectStoreConnection;
}

export interface StartServiceOptions<O> {
  /** The environment the config is read from (empty values count as unset); `process.env` by default. */
  env?: NodeJS.ProcessEnv;
  /** Config values parsed with the module's schema instead of reading `env` (tests). */
  config?: Record<string, unknown>;
  /** A config already parsed with the module's schema (a caller that parsed it itself). */
  parsedConfig?: unknown;
  /** The service's logger; one named after the service at its LOG_LEVEL by default. */
  logger?: Logger;
  shared?: SharedAdapters;
  /** Adapters made by the caller (tests): used as they are and never closed by the runtime. */
  adapters?: { database?: Database; bus?: EventBus; redis?: Redis; mailer?: Mailer; storage?: ObjectStore };
  /** What the module's `setup` accepts from an in-process caller. */
  options?: O;
  /** Leaves the outbox relay stopped until `startRelay()`: a launcher starts every relay after every subscription. */
  deferRelay?: boolean;
}

export interface RunningService<C, E> {
  name: string;
  config: C;
  logger: Logger;
  url: string;
  port: number;
  /** `/metrics` and `/readyz?verbose` (INTERNAL_PORT). */
  internalUrl: string;
  server: Server;
  http: HttpApp;
  database?: Database;
  bus?: EventBus;
  relay?: OutboxRelay;
  exports: E;
  /** Seconds an in-flight request gets to finish on stop before its connection is cut. */
  graceSeconds: number;
  startRelay(): void;
  /** First half of `stop`: readiness turns 503, new connections are refused, in-flight requests finish. */
  drain(): Promise<void>;
  /** Second half of `stop`: the periodic jobs, the relay, then what `setup` opened, then the adapters the runtime opened. */
  release(): Promise<void>;
  /** drain, then the bus this service owns (in-flight handlers finish), then release. Idempotent. */
  stop(): Promise<void>;
}

interface BaseConfig extends AdapterConfig {
  NODE_ENV: string;
  LOG_LEVEL: string;
  PORT: number;
  HOST: string;
  SHUTDOWN_GRACE_SECONDS?: number;
  INTERNAL_PORT?: number;
  TRUSTED_PROXIES?: string;
}

/**
 * A service of the system (one that has queues in the consumers table of the contracts) may only consume
 * from queues listed there with the same events: the other services declare them on the broker from that
 * table, before this one may have started.
 */
function checkListedConsumer(service: string, sub: Subscription): void {
  const ownPrefix = `${service}.`;
  if (!consumerQueues.some((q) => q.queue.startsWith(ownPrefix))) return;
  const listed = consumerQueues.find((q) => q.queue === sub.queue);
  const same =
    listed &&
    listed.events.length === sub.events.length &&
    listed.events.every((e) => sub.events.includes(e));
  if (!same) {
    throw new Error(
      `queue ${sub.queue} (${sub.events.join(', ')}) of ${service} is not in the consumers table of ` +
        'proto/src/consumers.ts with these events: add it there, so every service declares it',
    );
  }
}

/** The service's background consumers, paused while students wait (`yieldsToStudents`); none without a store to ask. */
function yieldToStudents(
  parts: ServiceParts<unknown>,
  given: Omit<YieldingOptions, 'queues' | 'bus' | 'kv'> & { bus?: EventBus; kv?: KeyValueStore },
): { stop(): Promise<void> } | undefined {
  const queues = (parts.subscriptions ?? [])
    .filter((s) => s.subscription.yieldsToStudents)
    .map((s) => s.subscription.queue);
  const { bus, kv } = given;
  if (!queues.length || !bus) return undefined;
  if (!kv) {
    given.logger.warn(
      { queues },
      'no key-value store to read the waiting room from: background work never yields',
    );
    return undefined;
  }
  return startYielding({ ...given, queues, bus, kv });
}

/** Stops accepting connections, lets in-flight requests finish within the grace, then cuts what is left. */
function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

const missingAdapter = (service: string) => (what: string) => () => {
  throw new Error(`${service} uses ${what} without declaring it in its service module`);
};

/**
 * The admin guard, made on first use: read through the kit's one definition, so a service whose schema leaves
 * AUTH_URL out has nothing to verify tokens with (unless it shares a verifier), and its admin routes refuse
 * every request.
 */
function lazyAdminGuard(
  config: unknown,
  logger: Logger,
  kv: KeyValueStore | undefined,
  verifier: JwtVerifier | undefined,
): () => RequestHandler {
  let built: RequestHandler | undefined;
  return () => {
    if (built) return built;
    const revocations = kv && createRevocationList(kv);
    built = adminGuard({
      config: z.object(adminAuthEnv).parse(config),
      logger,
      verifier,
      isRevoked: revocations ? (claims) => revocations.isTokenRevoked(claims) : undefined,
    });
    return built;
  };
}

/** What `setup` is given; an adapter the module did not declare throws with a message saying so. */
function serviceContext<C>(
  given: Pick<ServiceContext<C>, 'name' | 'config' | 'logger' | 'registry' | 'redis' | 'kv'> & {
    guard: () => RequestHandler;
  },
  adapters: { database?: Database; bus?: EventBus; mailer?: Mailer; storage?: ObjectStore },
): ServiceContext<C> {
  const missing = missingAdapter(given.name);
  const { database: db, bus, mailer, storage } = adapters;
  const { guard, ...rest } = given;
  return {
    ...rest,
    get database() {
      return db ?? missing('a database (migrations)')();
    },
    get bus() {
      return bus ?? missing('the bus (bus or publishes)')();
    },
    get mailer() {
      return mailer ?? missing('a mailer (uses.mailer)')();
    },
    get storage() {
      return storage ?? missing('object storage (uses.storage)')();
    },
    get adminGuard() {
      return guard();
    },
    handleOnce: (consumer, message, effect) =>
      handleOnce(db ?? missing('a database (migrations)')(), consumer, message, effect),
  };
}

/**
 * Starts one service from its module: config, logger, adapters (the production adapter when its URL is set,
 * what the caller shares or the embedded default otherwise), migrations, `setup`, subscriptions, HTTP with
 * health, readiness and metrics, then the outbox relay, in that order, so every subscription is in place before
 * any event is published. The same function serves `main.ts`, the component tests and the all-in-one launcher.
 */
export async function startService<S extends z.ZodType, E, O>(
  module: ServiceModule<S, E, O>,
  opts: StartServiceOptions<O> = {},
): Promise<RunningService<z.infer<S>, E>> {
  const config = (opts.parsedConfig ??
    (opts.config
      ? module.config.parse(opts.config)
      : loadConfig(module.config, opts.env ?? process.env))) as z.infer<S>;
  const base = config as BaseConfig;
  const { name } = module;
  const logger = opts.logger ?? createLogger({ name, level: base.LOG_LEVEL as 'info' });
  const owned = new OwnedResources(logger);
  const closeOnFailure: Array<() => Promise<void>> = [];
  const missing = missingAdapter(name);

  try {
    const registry: Registry = new client.Registry();
    registry.setDefaultLabels({ service: name });
    collectProcessMetrics(registry);

    const { database, bus, ownsBus, redis, kv, mailer, storage } = await openAdapters(
      {
        name,
        module: module as unknown as ServiceModule<never, unknown, O>,
        opts,
        config: base,
        dataDir: path.resolve(base.DATA_DIR ?? '.data'),
        logger,
        registry,
        owned,
      },
      closeOnFailure,
    );
    const guarded = module.adminGuard ?? true;

    const relay =
      database && bus && declarationOf(module).publishes.length
        ? new OutboxRelay({ database, publisher: bus, logger, source: name, registry })
        : undefined;
    const guard = lazyAdminGuard(config, logger, kv, opts.shared?.adminVerifier);
    const ctx = serviceContext<z.infer<S>>(
      { name, config, logger, registry, redis, kv, guard },
      {
        database,
        bus,
        mailer,
        storage,
      },
    );

    const parts: ServiceParts<E> = await module.setup(ctx, opts.options as O);
    if (parts.stop) owned.add('service', parts.stop);
    if (parts.subscriptions?.length && !bus) missing('the bus (bus: true)')();
    for (const sub of parts.subscriptions ?? []) {
      checkListedConsumer(name, sub.subscription);
      await bus!.subscribe(sub.subscription);
    }
    if (parts.subscriptions?.length && bus?.unsubscribe) {
      const queues = parts.subscriptions.map((sub) => sub.subscription.queue);
      owned.add('subscriptions', () =>
        Promise.all(queues.map((q) => bus.unsubscribe!(q))).then(() => undefined),
      );
    }
    const consumes = Boolean(parts.subscriptions?.length);
    const yielding = yieldToStudents(parts, { bus, kv, logger, registry, checkMs: base.BUS_YIELD_CHECK_MS });
    if (yielding) closeOnFailure.push(() => yielding.stop());

    const http =
      parts.app ??
      createHttpApp({
        name,
        logger,
        registry,
        // A publisher stays ready while the broker is away (its outbox keeps the events); a consumer does not.
        readiness: async () =>
          (!database || (await database.ping())) &&
          (!consumes || bus!.ready()) &&
          (!parts.readiness || (await parts.readiness())),
        trustedProxies: base.TRUSTED_PROXIES,
        routes: (app) => {
          if (module.openapi) serveOpenApi(app, module.openapi);
          if (guarded) app.use('/api/admin', guard());
          parts.routes?.(app);
        },
      });
    const running = await listen(parts.requestListener ?? http.app, base.PORT, base.HOST);
    closeOnFailure.push(() => running.close());
    // `/metrics` and verbose readiness: never on the public port.
    const internal = await startInternalServer(http, base);
    closeOnFailure.push(() => internal.close());
    parts.listening?.(running.server);
    logger.info({ url: running.url, internalUrl: internal.url }, `${name} service listening`);

    const graceSeconds = base.SHUTDOWN_GRACE_SECONDS ?? 10;
    let relayStarted = false;
    const startRelay = () => {
      if (relayStarted || !relay) return;
      relayStarted = true;
      relay.start();
    };
    if (!opts.deferRelay) startRelay();
    const jobs = parts.jobs?.length ? startJobs(parts.jobs, logger, registry) : undefined;

    let draining: Promise<void> | undefined;
    let releasing: Promise<void> | undefined;
    let stopping: Promise<void> | undefined;
    const drain = () =>
      (draining ??= (async () => {
        http.setDraining();
        parts.draining?.();
        await yielding?.stop();
        await closeServer(running.server, graceSeconds * 1000);
        await internal.close();
      })());
    const release = () =>
      (releasing ??= (async () => {
        await jobs?.stop();
        await relay?.stop();
        await owned.closeAll();
      })());
    return {
      name,
      config,
      logger,
      url: running.url,
      port: running.port,
      internalUrl: internal.url,
      server: running.server,
      http,
      database,
      bus,
      relay,
      exports: parts.exports as E,
      graceSeconds,
      startRelay,
      drain,
      release,
      stop: () =>
        (stopping ??= (async () => {
          await drain();
          // Consumers stop and in-flight handlers finish while the database and mailer are still open.
          if (ownsBus) await bus?.close();
          await release();
        })()),
    };
  } catch (err) {
    for (const close of closeOnFailure) await close().catch(() => undefined);
    await owned.closeAll();
    throw err;
  }
}

/**
 * The whole `main.ts` of a service: reads the environment, starts the service, and stops it gracefully on
 * SIGTERM/SIGINT (each shutdown step gets the grace plus a margin). A failed start prints why and exits 1.
 */
export function runMain<S extends z.ZodType, E, O>(module: ServiceModule<S, E, O>, options?: O): void {
  // `node dist/main.js migrate`: the migration Job applies the declared migrations and exits.
  if (process.argv[2] === 'migrate') return migrateMain(module);
  startService(module, { options })
    .then((service) => {
      const shutdown = new Shutdown(service.logger, (service.graceSeconds + 5) * 1000);
      handleProcessErrors(service.logger, shutdown);
      // Last of all: the spans of the requests and handlers that finished during the stop are exported.
      shutdown.add('traces', shutdownTracing);
      shutdown.add(module.name, () => service.stop());
      shutdown.onSignals();
    })
    .catch((err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    });
}

function migrateMain(module: { name: string; migrations?: string }): void {
  const dirs = migrationDirs(module);
  if (!dirs) {
    console.error(`${module.name} declares no migrations`);
    process.exit(1);
  }
  runMigrationsCli(module.name, dirs);
}
