import path from 'node:path';
import { createMemoryBus, createRabbitBus, type EventBus } from '../bus';
import { openDatabase, type Database } from '../db';
import type { Logger } from '../logger';

/**
 * The adapters of a service's composition root (`main.ts`): the production adapter when its URL is
 * configured, the embedded default otherwise (DESIGN §4).
 */
export function openServiceDatabase(opts: {
  service: string;
  config: { DATABASE_URL?: string; DATA_DIR: string };
  logger: Logger;
}): Promise<Database> {
  const { service, config, logger } = opts;
  return openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATABASE_URL ? undefined : path.join(config.DATA_DIR, service, 'pg'),
    logger,
    name: service,
  });
}

/** The bus of a service, started: RabbitMQ keeps connecting in the background when the broker is down. */
export async function startServiceBus(opts: {
  service: string;
  config: { AMQP_URL?: string };
  logger: Logger;
}): Promise<EventBus> {
  const { service, config, logger } = opts;
  const bus = config.AMQP_URL
    ? createRabbitBus({ url: config.AMQP_URL, service, logger })
    : createMemoryBus({ logger, service });
  await bus.start();
  return bus;
}
