import type { Database } from '@readiness/kit/db';
import { on } from '@readiness/kit/runtime';
import { rememberAssessment } from '../../data-access/students-repository';

export const ASSESSMENT_PUBLISHED_QUEUE = 'student.assessment-published';

/** Keeps the active assessment's title and time limit, which the invitation mail names. */
export const assessmentCopyConsumer = (database: Database) =>
  on('assessment.version.published.v1', {
    queue: ASSESSMENT_PUBLISHED_QUEUE,
    async handle(event) {
      if (!event.active) return;
      await rememberAssessment(database.db, {
        version: event.version,
        title: event.title,
        timeLimitMinutes: event.timeLimitMinutes,
      });
    },
  });
