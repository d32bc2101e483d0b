import { closeRedis, createRedis } from '@readiness/kit/cache';
import { loadConfig } from '@readiness/kit/config';
import { createLogger } from '@readiness/kit/logger';
import { handleProcessErrors, Shutdown } from '@readiness/kit/shutdown';
import { configSchema } from './config';
import { openApiFragments } from './openapi-fragments';
import { start } from './service';

async function main(): Promise<void> {
  const config = loadConfig(configSchema);
  const logger = createLogger({ name: 'gateway', level: config.LOG_LEVEL });
  const shutdown = new Shutdown(logger);
  handleProcessErrors(logger, shutdown);

  const redis = config.REDIS_URL
    ? createRedis({ url: config.REDIS_URL, keyPrefix: 'readiness:', logger, autoPipelining: true })
    : undefined;
  if (redis) shutdown.add('redis', () => closeRedis(redis));

  const gateway = await start({ config, logger, redis, openApiFragments });
  shutdown.add('gateway', () => gateway.stop());
  shutdown.onSignals();
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
