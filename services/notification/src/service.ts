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
    // What every mail consumer needs: the delivery log, the mailer, and how often and how long a mail is tried.
    const mail = {
      repo,
      database,
      mailer,
      logger,
      maxAttempts: config.MAIL_MAX_ATTEMPTS,
      leaseSeconds: config.MAIL_LEASE_SECONDS,
    };
    const publicOrigin = config.PUBLIC_ORIGIN;
    return {
      routes: notificationApi.routes(repo),
      subscriptions: [
        ...studentInvitationConsumers({ ...mail, secrets, contact: config.MAIL_CONTACT }),
        adminPasswordResetConsumer({ ...mail, secrets, publicOrigin }),
        adminFactorChangedConsumer({ ...mail, publicOrigin }),
        adminAlertRequestedConsumer({ ...mail, publicOrigin }),
        certificateIssuedConsumer({ ...mail, storage }),
        answerStudentExport('notification', { handleOnce }, studentExportFiles),
      ],
    };
  },
});
