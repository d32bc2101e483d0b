/**
 * The all-in-one launcher behind `make start`: every service in one process, each on its own loopback
 * port, the gateway on PORT, and the embedded defaults in place of PostgreSQL, RabbitMQ, Redis, S3 and SMTP.
 */
import path from 'node:path';
import { existsSync } from 'node:fs';
import * as auth from '@readiness/auth';
import * as gateway from '@readiness/gateway';
import * as notification from '@readiness/notification';
import { createMemoryBus } from '@readiness/kit/bus';
import { createMemoryStore } from '@readiness/kit/cache';
import { loadConfig } from '@readiness/kit/config';
import { openDatabase, type Database } from '@readiness/kit/db';
import { createLogger } from '@readiness/kit/logger';
import { createMailer, startMailCatcher } from '@readiness/kit/mail';
import { handleProcessErrors, Shutdown } from '@readiness/kit/shutdown';
import { startEmbeddedS3 } from '@readiness/kit/storage';
import { launcherConfigSchema } from './config';

async function main(): Promise<void> {
  const config = loadConfig(launcherConfigSchema);
  const dataDir = path.resolve(config.DATA_DIR);
  const logger = createLogger({ name: 'readiness', level: config.LOG_LEVEL });
  const shutdown = new Shutdown(logger);
  handleProcessErrors(logger, shutdown);
  shutdown.onSignals();

  // Shared embedded infrastructure: one bus and one key-value store for every service of the process.
  const bus = createMemoryBus({ logger: logger.child({ component: 'bus' }) });
  await bus.start();
  shutdown.add('bus', () => bus.close());
  const kv = createMemoryStore();
  shutdown.add('kv', () => kv.close());
  const mail = await startMailCatcher({ logger: logger.child({ component: 'mail-catcher' }) });
  shutdown.add('mail catcher', () => mail.close());
  const s3 = await startEmbeddedS3({ directory: path.join(dataDir, 's3') });
  shutdown.add('s3', () => s3.close());

  const databases: Database[] = [];
  const database = async (service: string) => {
    const db = await openDatabase({ dataDir: path.join(dataDir, service, 'pg'), logger, name: service });
    databases.push(db);
    shutdown.add(`${service} database`, () => db.close());
    return db;
  };
  const serviceEnv = {
    ...process.env,
    NODE_ENV: config.NODE_ENV,
    LOG_LEVEL: config.LOG_LEVEL,
    DATA_DIR: dataDir,
    PUBLIC_ORIGIN: config.PUBLIC_ORIGIN,
    HOST: '127.0.0.1',
    PORT: '0',
    INTERNAL_PORT: '0',
    // The services sit behind the gateway on loopback: its X-Forwarded-For carries the client address.
    TRUSTED_PROXIES: 'loopback',
    // The embedded defaults stand in for these in this mode.
    DATABASE_URL: undefined,
    AMQP_URL: undefined,
    REDIS_URL: undefined,
    SMTP_URL: mail.url,
    S3_URL: s3.url,
  };

  const authService = await auth.start({
    config: auth.configSchema.parse(serviceEnv),
    // The launcher prints the seeded password once, in its summary; the service's own log line is for
    // running auth on its own.
    logger: createLogger({ name: 'auth', level: config.LOG_LEVEL, redact: ['seededAdmin.initialPassword'] }),
    database: await database('auth'),
    bus,
    kv,
  });
  shutdown.add('auth', () => authService.stop());

  const notificationConfig = notification.configSchema.parse(serviceEnv);
  const mailer = createMailer({ smtpUrl: mail.url, from: notificationConfig.MAIL_FROM, logger });
  shutdown.add('mailer', () => mailer.close());
  const notificationService = await notification.start({
    config: notificationConfig,
    logger: createLogger({ name: 'notification', level: config.LOG_LEVEL }),
    database: await database('notification'),
    bus,
    mailer,
  });
  shutdown.add('notification', () => notificationService.stop());

  const webDist = path.resolve(config.WEB_DIST_DIR);
  const gatewayService = await gateway.start({
    config: gateway.configSchema.parse({
      ...serviceEnv,
      HOST: config.HOST,
      PORT: String(config.PORT),
      INTERNAL_PORT: process.env.INTERNAL_PORT ?? '0',
      TRUSTED_PROXIES: process.env.TRUSTED_PROXIES,
      AUTH_URL: authService.url,
      NOTIFICATION_URL: notificationService.url,
      WEB_DIST_DIR: existsSync(path.join(webDist, 'index.html')) ? webDist : undefined,
      DEV_MAIL: 'true',
    }),
    logger: createLogger({ name: 'gateway', level: config.LOG_LEVEL }),
    verifier: authService.verifier,
    // The store auth writes revocations to: the gateway refuses signed-out tokens before proxying.
    kv,
    openApiFragments: gateway.openApiFragments,
    extraRoutes: (app) => app.use(notification.devMailRoutes(mail)),
  });
  shutdown.add('gateway', () => gatewayService.stop());

  const origin = `http://localhost:${gatewayService.port}`;
  const lines = [
    '',
    `Readiness is running at ${origin}`,
    `  admin portal   ${origin}/admin/login`,
    `  API docs       ${origin}/api/docs`,
    `  caught e-mail  ${origin}/dev/mail/view`,
    `  metrics        ${gatewayService.internalUrl}/metrics (internal port)`,
    `  services       auth ${authService.url}, notification ${notificationService.url}, gateway ${gatewayService.url}`,
    `  embedded       PGlite under ${dataDir}/<service>/pg, in-process bus, in-memory cache, S3 ${s3.url}, SMTP ${mail.url}`,
  ];
  if (authService.seededAdmin) {
    lines.push(
      '',
      '  First start: a super admin was created. This password is shown once; sign in and change it.',
      `    e-mail    ${authService.seededAdmin.email}`,
      `    password  ${authService.seededAdmin.password}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
