import { every, on, type JobWaker } from '@readiness/kit/runtime';
import { nextScoreDue } from '../../data-access/scores-repository';
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
export function gradeConsumers(deps: GradesDeps, waker: JobWaker) {
  return [
    on('integrations.lti-launch-accepted', {
      handle: (e, meta) => linkStudent(deps, e.launchId, e.studentId, meta.id),
    }),
    on('integrations.result-recorded', {
      handle: async (e, meta) => {
        // A result of a student who came from no LMS has no score to send: the sender is not woken for it.
        if (await keepScore(deps, e, meta.id)) waker.wake();
      },
    }),
    on('integrations.result-deleted', {
      handle: (e, meta) => forgetResult(deps, e.resultId, meta.id),
    }),
    on('integrations.student-deleted', {
      handle: (e, meta) => forgetStudent(deps, e.studentId, meta.id),
    }),
  ];
}

/**
 * The grade sender: the scores due go to their LMS (one replica per score at a time), at once when this replica kept
 * them (the waker), else when the next is due, and at least every interval (scores another replica kept).
 */
export const gradeJob = (deps: GradesDeps, intervalMs: number, waker: JobWaker) =>
  every('lti-grades', intervalMs, () => sendDueScores(deps), {
    nextDue: () => nextScoreDue(deps.database.db),
    waker,
  });
