import path from 'node:path';
import type { Registry } from 'prom-client';
import type { EventBus } from '../bus';
import { closeRedis, createRedis, createRedisStore, type KeyValueStore, type Redis } from '../cache';
import { migrate, migrationsFolder, type Database } from '../db';
import type { Logger } from '../logger';
import { createMailer, type Mailer } from '../mail';
import { kitMigrationsDir } from '../outbox';
import { createObjectStore, objectStoreConnection, type ObjectStore } from '../storage';
import { openServiceDatabase, startServiceBus } from './adapters';
import { declarationOf } from './declared';
import { loadDevServers } from './dev-servers';
import type { StartServiceOptions } from './run';
import type { ServiceModule } from './service';

/**
 * The folders a service's database is migrated from, in order: the kit's own tables (outbox, inbox, claims), then
 * the `.sql` folder the service declares (`migrations`). None when it declares no database.
 */
export function migrationDirs(module: { migrations?: string }): string[] | undefined {
  return module.migrations ? [kitMigrationsDir, migrationsFolder(module.migrations)] : undefined;
}

const DEFAULT_FROM = 'Readiness <no-reply@readiness.local>';
const DEFAULT_BUCKET = 'readiness';
const DEFAULT_REGION = 'us-east-1';

/** The keys of the kit's base config that choose and reach the adapters. */
export interface AdapterConfig {
  DATA_DIR?: string;
  DATABASE_URL?: string;
  DATABASE_POOL_MAX?: number;
  DATABASE_PREPARED_STATEMENTS?: boolean;
  AMQP_URL?: string;
  BUS_RETRY_DELAYS_MS?: number[];
  BUS_YIELD_CHECK_MS?: number;
  REDIS_URL?: string;
  SMTP_URL?: string;
  MAIL_FROM?: string;
  S3_ENDPOINT?: string;
  S3_ACCESS_KEY?: string;
  S3_SECRET_KEY?: string;
  S3_BUCKET?: string;
  S3_REGION?: string;
}

/** What the runtime opened for a service, to be closed in reverse order when it stops (or fails to start). */
export class OwnedResources {
  private readonly steps: Array<{ name: string; close: () => Promise<void> | void }> = [];
  constructor(private readonly logger: Logger) {}
  add(name: string, close: () => Promise<void> | void): void {
    this.steps.push({ name, close });
  }
  async closeAll(): Promise<void> {
    for (const step of this.steps.splice(0).reverse()) {
      try {
        await step.close();
      } catch (err) {
        this.logger.warn({ err, step: step.name }, 'closing an adapter failed');
      }
    }
  }
}

export interface ServiceAdapters {
  database?: Database;
  bus?: EventBus;
  /** The runtime started this bus (not the caller's nor the process's shared one): the service closes it. */
  ownsBus: boolean;
  redis?: Redis;
  kv?: KeyValueStore;
  mailer?: Mailer;
  storage?: ObjectStore;
}

interface Opening<O> {
  name: string;
  module: ServiceModule<never, unknown, O>;
  opts: StartServiceOptions<O>;
  config: AdapterConfig;
  dataDir: string;
  logger: Logger;
  registry: Registry;
  owned: OwnedResources;
}

/**
 * The adapters the module declares, each the production one when its URL is set, else what the caller or the
 * process shares, else the embedded default (DESIGN §4). Migrations run on the database before anything else.
 */
export async function openAdapters<O>(
  open: Opening<O>,
  /** The bus is closed by the running service's stop (after its handlers finish); here only on a failed start. */
  closeOnFailure: Array<() => Promise<void>>,
): Promise<ServiceAdapters> {
  const { module } = open;
  const declared = declarationOf(module);
  const migrations = migrationDirs(module);
  const database = migrations ? await openDatabase(open, migrations) : undefined;
  let bus: EventBus | undefined;
  let ownsBus = false;
  if (declared.bus) {
    bus = open.opts.adapters?.bus ?? open.opts.shared?.bus;
    if (!bus) {
      const started = await startServiceBus({
        service: open.name,
        config: open.config,
        logger: open.logger,
        registry: open.registry,
      });
      bus = started;
      ownsBus = true;
      closeOnFailure.push(() => started.close());
    }
  }
  // The admin guard reads the revocations auth writes, so a guarded service gets the key-value store too.
  const { redis, kv } = declared.uses.kv || (module.adminGuard ?? true) ? openKeyValue(open) : {};
  const mailer = declared.uses.mailer ? await openMailer(open) : undefined;
  const storage = declared.uses.storage ? await openStorage(open) : undefined;
  return { database, bus, ownsBus, redis, kv, mailer, storage };
}

async function openDatabase<O>(open: Opening<O>, migrations: string[]): Promise<Database> {
  let database = open.opts.adapters?.database;
  if (!database) {
    const opened = await openServiceDatabase({
      service: open.name,
      config: {
        DATABASE_URL: open.config.DATABASE_URL ?? (await open.opts.shared?.databaseUrl?.(open.name)),
        DATA_DIR: open.dataDir,
        DATABASE_POOL_MAX: open.config.DATABASE_POOL_MAX,
        DATABASE_PREPARED_STATEMENTS: open.config.DATABASE_PREPARED_STATEMENTS,
      },
      logger: open.logger,
      registry: open.registry,
    });
    open.owned.add('database', () => opened.close());
    database = opened;
  }
  await migrate(database, migrations, open.logger);
  return database;
}

function openKeyValue<O>(open: Opening<O>): { redis?: Redis; kv?: KeyValueStore } {
  let redis = open.opts.adapters?.redis;
  if (!redis && open.config.REDIS_URL) {
    // One prefix for every service: the gateway reads the revocations auth writes.
    const client = createRedis({
      url: open.config.REDIS_URL,
      keyPrefix: 'readiness:',
      logger: open.logger,
      autoPipelining: true,
    });
    open.owned.add('redis', () => closeRedis(client));
    redis = client;
  }
  return { redis, kv: redis ? createRedisStore({ client: redis }) : open.opts.shared?.kv };
}

async function openMailer<O>(open: Opening<O>): Promise<Mailer> {
  if (open.opts.adapters?.mailer) return open.opts.adapters.mailer;
  let smtpUrl = open.config.SMTP_URL ?? open.opts.shared?.smtpUrl;
  if (!smtpUrl) {
    const { startMailCatcher } = await loadDevServers('SMTP_URL');
    const catcher = await startMailCatcher({ logger: open.logger });
    open.owned.add('mail catcher', () => catcher.close());
    smtpUrl = catcher.url;
    open.logger.warn({ smtpUrl }, 'SMTP_URL is not set: mail is caught in memory, not delivered');
  }
  const mailer = createMailer({ smtpUrl, from: open.config.MAIL_FROM ?? DEFAULT_FROM, logger: open.logger });
  open.owned.add('mailer', () => mailer.close());
  return mailer;
}

async function openStorage<O>(open: Opening<O>): Promise<ObjectStore> {
  if (open.opts.adapters?.storage) return open.opts.adapters.storage;
  const bucket = open.config.S3_BUCKET ?? DEFAULT_BUCKET;
  const region = open.config.S3_REGION ?? DEFAULT_REGION;
  let connection =
    objectStoreConnection({ ...open.config, S3_BUCKET: bucket, S3_REGION: region }) ?? open.opts.shared?.s3;
  if (!connection) {
    const { startEmbeddedS3 } = await loadDevServers('S3_ENDPOINT');
    const s3 = await startEmbeddedS3({ directory: path.join(open.dataDir, open.name, 's3') });
    open.owned.add('s3', () => s3.close());
    connection = s3;
  }
  const store = createObjectStore({
    endpoint: connection.endpoint,
    accessKey: connection.accessKey,
    secretKey: connection.secretKey,
    bucket,
    region,
    logger: open.logger,
  });
  open.owned.add('object storage', () => store.close());
  await store.ensureBucket();
  return store;
}
