import { defineService } from '@readiness/kit/runtime';
import { configSchema } from './config';
import { createDeliveriesRepository } from './data-access/deliveries-repository';
import { migrationsDir } from './data-access/migrations-dir';
import { adminPasswordResetConsumer } from './entry-points/messaging/admin-password-reset';

/** The notification service: mails what other services' events ask for. */
export const notificationService = defineService({
  name: 'notification',
  config: configSchema,
  migrations: migrationsDir,
  bus: true,
  uses: { mailer: true },
  // Filled with the service's generated API description once it serves routes of its own.
  openapi: undefined,
  setup({ config, logger, database, mailer }) {
    const repo = createDeliveriesRepository(database);
    return {
      subscriptions: [
        adminPasswordResetConsumer({
          repo,
          database,
          mailer,
          logger,
          publicOrigin: config.PUBLIC_ORIGIN,
          maxAttempts: config.MAIL_MAX_ATTEMPTS,
          leaseSeconds: config.MAIL_LEASE_SECONDS,
        }),
      ],
    };
  },
});
