import { closeRedis, createRedis, createRedisStore } from '@readiness/kit/cache';
import { loadConfig } from '@readiness/kit/config';
import { createLogger } from '@readiness/kit/logger';
import { createMailer, startMailCatcher } from '@readiness/kit/mail';
import { openServiceDatabase, startServiceBus } from '@readiness/kit/runtime';
import { handleProcessErrors, Shutdown } from '@readiness/kit/shutdown';
import { configSchema } from './config';
import { start } from './service';

/** Composition root: production adapters when their URLs are set, embedded defaults otherwise. */
async function main(): Promise<void> {
  const config = loadConfig(configSchema);
  const logger = createLogger({ name: 'notification', level: config.LOG_LEVEL });
  const shutdown = new Shutdown(logger);
  handleProcessErrors(logger, shutdown);

  const database = await openServiceDatabase({ service: 'notification', config, logger });
  shutdown.add('database', () => database.close());

  const bus = await startServiceBus({ service: 'notification', config, logger });

  let smtpUrl = config.SMTP_URL;
  if (!smtpUrl) {
    const catcher = await startMailCatcher({ logger });
    shutdown.add('mail catcher', () => catcher.close());
    smtpUrl = catcher.url;
    logger.warn({ smtpUrl }, 'SMTP_URL is not set: mail is caught in memory, not delivered');
  }
  const mailer = createMailer({ smtpUrl, from: config.MAIL_FROM, logger });
  shutdown.add('mailer', () => mailer.close());
  // Closed before the mailer (steps run last-added first): consumers stop and in-flight mails finish.
  shutdown.add('bus', () => bus.close());

  // The store auth writes token revocations to, read by the check on /api/admin.
  const redis = config.REDIS_URL
    ? createRedis({ url: config.REDIS_URL, keyPrefix: 'readiness:', logger })
    : undefined;
  if (redis) shutdown.add('redis', () => closeRedis(redis));
  const kv = redis && createRedisStore({ client: redis });

  const service = await start({ config, logger, database, bus, mailer, kv });
  shutdown.add('notification', () => service.stop());
  shutdown.onSignals();
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
