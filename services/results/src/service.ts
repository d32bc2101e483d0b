import path from 'node:path';
import { answerStudentExport, defineService } from '@readiness/kit/runtime';
import { configSchema } from './config';
import { studentExportFiles } from './data-access/student-export-repository';
import { createResults } from './domain/results';
import { resultsApi } from './entry-points/http/api';
import { resultsConsumers } from './entry-points/messaging/consumers';

const HOUR_MS = 60 * 60 * 1000;

/**
 * The results service: scores submitted attempts against its own copy of the version taken, records one result
 * per attempt, keeps the dashboard figures from the student events, and serves results to administrators under
 * /api/admin (the runtime's admin guard checks every call).
 */
export const resultsService = defineService({
  name: 'results',
  config: configSchema,
  migrations: path.join(__dirname, 'data-access/migrations'),
  openapi: resultsApi.openapi,
  setup({ config, database, handleOnce }) {
    const results = createResults({ database, handleOnce });
    return {
      routes: resultsApi.routes(results),
      subscriptions: [
        ...resultsConsumers(results, { versionWaitMs: config.RESULTS_VERSION_WAIT_HOURS * HOUR_MS }),
        answerStudentExport('results', { handleOnce }, (tx, student) =>
          studentExportFiles(tx, student.studentId),
        ),
      ],
    };
  },
});
