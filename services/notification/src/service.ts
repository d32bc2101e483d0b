import type { Server } from 'node:http';
import type { EventBus } from '@readiness/kit/bus';
import { migrate, type Database } from '@readiness/kit/db';
import { createHttpApp, listen, startInternalServer, type HttpApp } from '@readiness/kit/http';
import type { Logger } from '@readiness/kit/logger';
import type { Mailer } from '@readiness/kit/mail';
import { kitMigrationsDir } from '@readiness/kit/outbox';
import type { Registry } from 'prom-client';
import { configSchema, type NotificationConfig, type NotificationConfigInput } from './config';
import { createDeliveriesRepository } from './data-access/deliveries-repository';
import { migrationsDir } from './data-access/migrations-dir';
import { adminPasswordResetConsumer } from './entry-points/messaging/admin-password-reset';

export interface NotificationDeps {
  /** Parsed config, or raw values parsed here. */
  config: NotificationConfig | NotificationConfigInput;
  logger: Logger;
  database: Database;
  /** Delivers the events that mail someone. */
  bus: EventBus;
  mailer: Mailer;
  registry?: Registry;
}

export interface RunningNotificationService {
  url: string;
  port: number;
  /** `/metrics` and `/readyz?verbose`. */
  internalUrl: string;
  http: HttpApp;
  server: Server;
  stop(): Promise<void>;
}

export async function start(deps: NotificationDeps): Promise<RunningNotificationService> {
  const config = configSchema.parse(deps.config);
  const { logger, database, bus, mailer } = deps;
  await migrate(database, [kitMigrationsDir, migrationsDir], logger);

  const repo = createDeliveriesRepository(database);
  await bus.subscribe(
    adminPasswordResetConsumer({
      repo,
      mailer,
      logger,
      publicOrigin: config.PUBLIC_ORIGIN,
      maxAttempts: config.MAIL_MAX_ATTEMPTS,
    }),
  );

  const http = createHttpApp({
    name: 'notification',
    logger,
    registry: deps.registry,
    readiness: async () => bus.ready() && (await database.ping()),
    trustedProxies: config.TRUSTED_PROXIES,
    routes: () => undefined,
  });
  const running = await listen(http.app, config.PORT, config.HOST);
  const internal = await startInternalServer(http, config);
  logger.info({ port: running.port }, 'notification service listening');

  return {
    url: running.url,
    port: running.port,
    internalUrl: internal.url,
    http,
    server: running.server,
    stop: async () => {
      http.setDraining();
      await running.close();
      await internal.close();
    },
  };
}
