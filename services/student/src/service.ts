import { loadEventSecretBox } from '@readiness/kit/outbox';
import { defineService } from '@readiness/kit/runtime';
import { configSchema } from './config';
import { migrationsDir } from './data-access/migrations-dir';
import { INVITATION_RESENT, STUDENT_DELETED, STUDENT_INVITED } from './domain/events';
import { createStudents } from './domain/students';
import { openApi } from './entry-points/http/openapi';
import { studentRoutes } from './entry-points/http/routes';
import { assessmentCopyConsumer } from './entry-points/messaging/assessment-copy';

/**
 * The student service: invited students, their invitation links and the invitation events the notification
 * service mails. Its admin routes live under /api/admin/students, guarded by the runtime's admin guard.
 */
export const studentService = defineService({
  name: 'student',
  config: configSchema,
  migrations: migrationsDir,
  bus: true,
  publishes: [STUDENT_INVITED, INVITATION_RESENT, STUDENT_DELETED],
  openapi: openApi,
  setup({ config, logger, database, notifyOutbox }) {
    const students = createStudents({
      database,
      secrets: loadEventSecretBox({ config, logger }),
      publicOrigin: config.PUBLIC_ORIGIN,
      inviteTtlDays: config.INVITE_TTL_DAYS,
      notifyOutbox,
    });
    return {
      routes: studentRoutes({ students, importMaxBytes: config.STUDENT_IMPORT_MAX_BYTES }),
      subscriptions: [assessmentCopyConsumer(database)],
    };
  },
});
