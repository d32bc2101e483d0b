import { loadEventSecretBox } from '@readiness/kit/outbox';
import { defineService } from '@readiness/kit/runtime';
import { configSchema } from './config';
import { createDeliveriesRepository } from './data-access/deliveries-repository';
import { migrationsDir } from './data-access/migrations-dir';
import { openApi } from './entry-points/http/openapi';
import { adminPasswordResetConsumer } from './entry-points/messaging/admin-password-reset';

/**
 * The notification service: mails what other services' events ask for. Its `/api/admin` routes are guarded by
 * the runtime (admin tokens checked with auth's keys and revocations).
 */
export const notificationService = defineService({
  name: 'notification',
  config: configSchema,
  migrations: migrationsDir,
  bus: true,
  uses: { mailer: true },
  openapi: openApi,
  setup({ config, logger, database, mailer }) {
    const repo = createDeliveriesRepository(database);
    return {
      routes: () => undefined,
      subscriptions: [
        adminPasswordResetConsumer({
          repo,
          database,
          mailer,
          logger,
          secrets: loadEventSecretBox({ config, logger }),
          publicOrigin: config.PUBLIC_ORIGIN,
          maxAttempts: config.MAIL_MAX_ATTEMPTS,
          leaseSeconds: config.MAIL_LEASE_SECONDS,
        }),
      ],
    };
  },
});
