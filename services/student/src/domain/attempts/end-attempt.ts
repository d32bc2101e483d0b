import type { Tx } from '@readiness/kit/db';
import { enqueue } from '@readiness/kit/outbox';
import { closeAttempt, type AttemptRecord } from '../../data-access/attempts-repository';
import { ATTEMPT_SUBMITTED, submittedPayload } from '../events';
import { FILE_UPLOADED, type Answer } from '../versions';
import type { AttemptsContext } from './context';

/**
 * Ends an attempt in its transaction and queues the submitted event; returns the closed attempt, or undefined
 * when it was ended meanwhile (by the student or the deadline job). Used by the submit and the deadline job.
 */
export async function endAttempt(
  ctx: AttemptsContext,
  tx: Tx,
  a: AttemptRecord,
  student: { name: string; email: string },
  how: {
    answers: Answer[];
    finalisedBy: 'student' | 'deadline';
    late: boolean;
    idempotencyKey: string | null;
  },
) {
  const closed = await closeAttempt(tx, {
    attemptId: a.id,
    answers: how.answers,
    finalisedBy: how.finalisedBy,
    gradedFromAutosave: how.late,
    idempotencyKey: how.idempotencyKey,
  });
  if (!closed) return undefined;
  const v = await ctx.versions.version(a.versionId, tx);
  const fileQuestions = new Set(v.questions.filter((q) => q.type === 'file_upload').map((q) => q.id));
  // A late submit counts only the files uploaded before the deadline, as it counts the answers saved before it.
  const files = closed.files.filter(
    (f) => fileQuestions.has(f.questionId) && (!how.late || f.uploadedAt <= a.deadlineAt),
  );
  const answers = [
    ...how.answers.filter((x) => !fileQuestions.has(x.questionId)),
    ...files.map((f) => ({ questionId: f.questionId, answer: FILE_UPLOADED })),
  ];
  const end = Math.min((closed.submittedAt ?? new Date()).getTime(), closed.deadlineAt.getTime());
  await enqueue(tx, {
    name: ATTEMPT_SUBMITTED,
    payload: submittedPayload({
      attempt: closed,
      student,
      version: v.version,
      answers,
      files,
      timeSpentMinutes: Math.max(0, Math.floor((end - closed.startedAt.getTime()) / 60_000)),
      finalisedBy: how.finalisedBy,
      gradedFromAutosave: how.late,
    }),
  });
  return closed;
}
