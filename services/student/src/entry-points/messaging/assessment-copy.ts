import { publishedVersion } from '@readiness/contracts';
import type { Database } from '@readiness/kit/db';
import { on } from '@readiness/kit/runtime';
import { saveVersion } from '../../data-access/versions-repository';
import type { AssessmentVersion } from '../../domain/versions';

/**
 * Keeps every version whole (answer key included: never served, see `studentView`), the active one marked by the
 * time it was published as active. Republishing a version is an upsert, so a redelivery has no second effect.
 */
export const assessmentCopyConsumer = (database: Database) =>
  on('student.assessment-published', {
    async handle(event, meta) {
      const { timeLimitMinutes, active: _active, createdAt: _createdAt, ...rest } = publishedVersion(event);
      const version: AssessmentVersion = { ...rest, timeLimit: timeLimitMinutes };
      await saveVersion(database.db, version, event.active ? meta.occurredAt : null);
    },
  });
