import path from 'node:path';
import { Counter, type Registry } from 'prom-client';
import { consumerQueues } from '@readiness/contracts';
import { createMemoryBus, createRabbitBus, type EventBus } from '../bus';
import { openDatabase, type Database } from '../db';
import type { Logger } from '../logger';
import { loadDevServers } from './dev-servers';

/**
 * The adapters of a service's composition root (`main.ts`): the production adapter when its URL is
 * configured, the embedded default otherwise (DESIGN §4). Without `DATABASE_URL` the service starts its own
 * embedded PostgreSQL (`@readiness/dev-servers`, a local run only) under `${DATA_DIR}/postgres` with a database
 * named after it; closing the database stops that server too.
 */
export async function openServiceDatabase(opts: {
  service: string;
  config: {
    DATABASE_URL?: string;
    DATA_DIR: string;
    DATABASE_POOL_MAX?: number;
    DATABASE_PREPARED_STATEMENTS?: boolean;
  };
  logger: Logger;
  /** Counts the statements sent (`db_queries_total` on `/metrics`). */
  registry?: Registry;
}): Promise<Database> {
  const { service, config, logger, registry } = opts;
  const counter = registry
    ? new Counter({
        name: 'db_queries_total',
        help: 'Statements sent to PostgreSQL (each a round trip), BEGIN and COMMIT included',
        registers: [registry],
      })
    : undefined;
  const options = {
    logger,
    name: service,
    poolMax: config.DATABASE_POOL_MAX,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
    onQuery: counter ? () => counter.inc() : undefined,
  };
  if (config.DATABASE_URL) return openDatabase({ url: config.DATABASE_URL, ...options });
  const { startEmbeddedPostgres } = await loadDevServers('DATABASE_URL');
  const server = await startEmbeddedPostgres({ dataDir: path.join(config.DATA_DIR, 'postgres'), logger });
  try {
    const database = await openDatabase({ url: await server.ensureDatabase(service), ...options });
    return { ...database, close: () => database.close().finally(() => server.stop()) };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

/**
 * The bus of a service, started: RabbitMQ keeps connecting in the background when the broker is down. Its counters
 * (consumed, retried, dead-lettered) go to the service's `registry`, served on `/metrics`.
 */
export async function startServiceBus(opts: {
  service: string;
  config: { AMQP_URL?: string; BUS_RETRY_DELAYS_MS?: number[] };
  logger: Logger;
  registry?: Registry;
}): Promise<EventBus> {
  const { service, config, logger, registry } = opts;
  const retryDelaysMs = config.BUS_RETRY_DELAYS_MS;
  const bus = config.AMQP_URL
    ? createRabbitBus({
        url: config.AMQP_URL,
        service,
        logger,
        registry,
        retryDelaysMs,
        // Every other service's queues too: whichever service reaches the broker first creates them all.
        declareQueues: consumerQueues.filter((q) => !q.queue.startsWith(`${service}.`)),
      })
    : createMemoryBus({ logger, service, registry, retryDelaysMs });
  await bus.start();
  return bus;
}
