import { adminGuard, type JwtVerifier } from '@readiness/kit/auth';
import { createRevocationList } from '@readiness/kit/cache';
import { loadEventSecretBox } from '@readiness/kit/outbox';
import { defineService } from '@readiness/kit/runtime';
import { configSchema } from './config';
import { createDeliveriesRepository } from './data-access/deliveries-repository';
import { migrationsDir } from './data-access/migrations-dir';
import { openApi } from './entry-points/http/openapi';
import { adminPasswordResetConsumer } from './entry-points/messaging/admin-password-reset';

/** What an in-process caller may give the service (the all-in-one passes auth's verifier). */
export interface NotificationOptions {
  /** Verifies admin tokens with keys already at hand; otherwise one on `AUTH_JWKS_URL` / `AUTH_URL`. */
  verifier?: JwtVerifier;
}

/** The notification service: mails what other services' events ask for. */
export const notificationService = defineService({
  name: 'notification',
  config: configSchema,
  migrations: migrationsDir,
  bus: true,
  // The key-value store is where auth writes token revocations, read by the check on /api/admin.
  uses: { mailer: true, kv: true },
  openapi: openApi,
  setup({ config, logger, database, mailer, kv }, options: NotificationOptions | undefined) {
    const repo = createDeliveriesRepository(database);
    const revocations = kv && createRevocationList(kv);
    return {
      routes: (app) => {
        app.use(
          '/api/admin',
          adminGuard({ config, logger, verifier: options?.verifier, isRevoked: revocations?.isTokenRevoked }),
        );
      },
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
