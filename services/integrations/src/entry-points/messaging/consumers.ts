import { every, on } from '@readiness/kit/runtime';
import {
  forgetResult,
  forgetStudent,
  keepScore,
  linkStudent,
  sendDueScores,
  type GradesDeps,
} from '../../domain/grades';

/**
 * What the integrations service keeps of other services' events: who each launch opened, the scores of students
 * who came from an LMS (to send to its gradebook), and the erasures of both.
 */
export function gradeConsumers(deps: GradesDeps) {
  return [
    on('integrations.lti-launch-accepted', {
      handle: (e, meta) => linkStudent(deps, e.launchId, e.studentId, meta.id),
    }),
    on('integrations.result-recorded', {
      handle: (e, meta) => keepScore(deps, e, meta.id),
    }),
    on('integrations.result-deleted', {
      handle: (e, meta) => forgetResult(deps, e.resultId, meta.id),
    }),
    on('integrations.student-deleted', {
      handle: (e, meta) => forgetStudent(deps, e.studentId, meta.id),
    }),
  ];
}

/** The grade sender: every interval, the scores due go to their LMS (one replica per score at a time). */
export const gradeJob = (deps: GradesDeps, intervalMs: number) =>
  every('lti-grades', intervalMs, () => sendDueScores(deps));
