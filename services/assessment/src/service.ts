import path from 'node:path';
import { defineService } from '@readiness/kit/runtime';
import { configSchema } from './config';
import { createAdminDirectory } from './data-access/admin-directory';
import { createVersionsRepository } from './data-access/versions-repository';
import { createAssessments } from './domain/assessments';
import { seedAssessment } from './domain/seed';
import { assessmentApi, assessmentRoutes } from './entry-points/http/api';
import { adminNameConsumers } from './entry-points/messaging/admin-names';

/**
 * The assessment service: versioned assessment content (every save a new version, one active) and question
 * files. Its admin routes live under /api/assessment and are checked with the runtime's admin guard; the
 * question-file download is public.
 */
export const assessmentService = defineService({
  name: 'assessment',
  config: configSchema,
  migrations: path.join(__dirname, 'data-access/migrations'),
  openapi: assessmentApi.openapi,
  async setup({ config, logger, database, storage, adminGuard }) {
    const repo = createVersionsRepository(database);
    const directory = config.AUTH_URL
      ? createAdminDirectory({ authUrl: config.AUTH_URL, logger })
      : undefined;
    const assessments = createAssessments({ database, repo, storage, logger, directory });
    if (config.ASSESSMENT_SEED && (await seedAssessment(assessments))) {
      logger.info('no assessment yet: the sample readiness assessment was created');
    }
    return {
      routes: assessmentRoutes({
        assessments,
        adminGuard,
        maxFileBytes: config.ASSESSMENT_FILE_MAX_BYTES,
        maxImportBytes: config.ASSESSMENT_IMPORT_MAX_BYTES,
      }),
      subscriptions: adminNameConsumers(repo),
    };
  },
});
