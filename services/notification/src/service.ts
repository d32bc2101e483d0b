import path from 'node:path';
import { loadEventSecretBox } from '@readiness/kit/outbox';
import { answerStudentExport, defineService } from '@readiness/kit/runtime';
import { configSchema } from './config';
import { createDeliveriesRepository, studentExportFiles } from './data-access/deliveries-repository';
import { notificationApi } from './entry-points/http/api';
import { adminAlertRequestedConsumer } from './entry-points/messaging/admin-alert-requested';
import { adminFactorChangedConsumer } from './entry-points/messaging/admin-factor-changed';
import { adminPasswordResetConsumer } from './entry-points/messaging/admin-password-reset';
import { certificateIssuedConsumer } from './entry-points/messaging/certificate-issued';
import { studentInvitationConsumers } from './entry-points/messaging/student-invitation';

/**
 * The notification service: mails what other services' events ask for, certificates with their PDF read from
 * object storage. Its `/api/admin` routes are guarded by
 * the runtime (admin tokens checked with auth's keys and revocations).
 */
export const notificationService = defineService({
  name: 'notification',
  config: configSchema,
  migrations: path.join(__dirname, 'data-access/migrations'),
  openapi: notificationApi.openapi,
  setup({ config, logger, database, mailer, storage, handleOnce }) {
    const repo = createDeliveriesRepository(database);
    const secrets = loadEventSecretBox({ config, logger });
    return {
      routes: notificationApi.routes(repo),
      subscriptions: [
        ...studentInvitationConsumers({
          repo,
          database,
          mailer,
          logger,
          secrets,
          contact: config.MAIL_CONTACT,
          maxAttempts: config.MAIL_MAX_ATTEMPTS,
          leaseSeconds: config.MAIL_LEASE_SECONDS,
        }),
        adminPasswordResetConsumer({
          repo,
          database,
          mailer,
          logger,
          secrets,
          publicOrigin: config.PUBLIC_ORIGIN,
          maxAttempts: config.MAIL_MAX_ATTEMPTS,
          leaseSeconds: config.MAIL_LEASE_SECONDS,
        }),
        adminFactorChangedConsumer({
          repo,
          database,
          mailer,
          logger,
          publicOrigin: config.PUBLIC_ORIGIN,
          maxAttempts: config.MAIL_MAX_ATTEMPTS,
          leaseSeconds: config.MAIL_LEASE_SECONDS,
        }),
        adminAlertRequestedConsumer({
          repo,
          database,
          mailer,
          logger,
          publicOrigin: config.PUBLIC_ORIGIN,
          maxAttempts: config.MAIL_MAX_ATTEMPTS,
          leaseSeconds: config.MAIL_LEASE_SECONDS,
        }),
        certificateIssuedConsumer({
          repo,
          database,
          mailer,
          logger,
          storage,
          maxAttempts: config.MAIL_MAX_ATTEMPTS,
          leaseSeconds: config.MAIL_LEASE_SECONDS,
        }),
        answerStudentExport('notification', { handleOnce }, studentExportFiles),
      ],
    };
  },
});
