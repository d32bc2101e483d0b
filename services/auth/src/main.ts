import { closeRedis, createRedis } from '@readiness/kit/cache';
import { loadConfig } from '@readiness/kit/config';
import { createLogger } from '@readiness/kit/logger';
import { openServiceDatabase, startServiceBus } from '@readiness/kit/runtime';
import { handleProcessErrors, Shutdown } from '@readiness/kit/shutdown';
import { configSchema } from './config';
import { start } from './service';

/** Composition root: production adapters when their URLs are set, embedded defaults otherwise. */
async function main(): Promise<void> {
  const config = loadConfig(configSchema);
  const logger = createLogger({ name: 'auth', level: config.LOG_LEVEL });
  const shutdown = new Shutdown(logger);
  handleProcessErrors(logger, shutdown);

  const database = await openServiceDatabase({ service: 'auth', config, logger });
  shutdown.add('database', () => database.close());

  const bus = await startServiceBus({ service: 'auth', config, logger });
  shutdown.add('bus', () => bus.close());

  // The same prefix as the gateway's client: the gateway reads the revocations this service writes.
  const redis = config.REDIS_URL
    ? createRedis({ url: config.REDIS_URL, keyPrefix: 'readiness:', logger })
    : undefined;
  if (redis) shutdown.add('redis', () => closeRedis(redis));

  const service = await start({ config, logger, database, bus, redis });
  shutdown.add('auth', () => service.stop());
  shutdown.onSignals();
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
