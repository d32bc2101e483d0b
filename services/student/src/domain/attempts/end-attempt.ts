import { closeAttempt } from '../../data-access/attempts-repository';
import { latestLaunchOf } from '../../data-access/lti-identities-repository';
import type { AttemptFile, AttemptRecord, FinalisedBy } from '../../data-access/attempt-records';
import { ATTEMPT_SUBMITTED, submittedPayload } from '../events';
import { FILE_UPLOADED, type Answer } from '../versions';
import type { TimelineRow } from '../../data-access/timeline-repository';
import { attemptTimeline } from './attempt-timeline';
import { givenQuestions } from './paper';
import { minutesSpent } from './attempt-time';
import type { AttemptsContext, Runner } from './context';

/**
 * Ends an attempt with its submitted event in one statement (`closeAttempt`), from the attempt and files the
 * caller read: the event is built first, and the attempt ends only if it is still in progress with those files.
 * Returns the closed attempt, or undefined when it changed meanwhile (ended by another request or the deadline
 * job, or a file recorded or removed): the caller reads again. Used by the submit, the deadline job and an administrator's end.
 */
export async function endAttempt(
  ctx: AttemptsContext,
  runner: Runner,
  a: AttemptRecord & { files: AttemptFile[]; timeline: TimelineRow[] },
  student: { name: string; email: string },
  how: {
    answers: Answer[];
    finalisedBy: FinalisedBy;
    /** The administrator who ended it (finalisedBy 'admin'). */
    endedBy?: string;
    late: boolean;
    idempotencyKey: string | null;
    /** The database clock's time when the caller read the attempt: the submission's time. */
    now: Date;
  },
): Promise<(AttemptRecord & { files: AttemptFile[]; timeline: TimelineRow[] }) | undefined> {
  const v = await ctx.versions.version(a.versionId, runner);
  // Only the questions the attempt was given count: an answer to another (sent by hand) is dropped.
  const given = new Set(givenQuestions(v.questions, a.paper).map((q) => q.id));
  const fileQuestions = new Set(
    v.questions.filter((q) => q.type === 'file_upload' && given.has(q.id)).map((q) => q.id),
  );
  // A late submit counts only the files uploaded before the deadline, as it counts the answers saved before it.
  const files = a.files.filter(
    (f) => fileQuestions.has(f.questionId) && (!how.late || f.uploadedAt <= a.deadlineAt),
  );
  const answers = [
    ...how.answers.filter((x) => given.has(x.questionId) && !fileQuestions.has(x.questionId)),
    ...files.map((f) => ({ questionId: f.questionId, answer: FILE_UPLOADED })),
  ];
  const closed = {
    ...a,
    status: 'submitted' as const,
    submittedAt: how.now,
    answers: how.answers,
    idempotencyKey: how.idempotencyKey,
  };
  const timeSpentMinutes = minutesSpent(a, how.now);
  const ltiLaunchId = await latestLaunchOf(runner, a.studentId);
  const written = await closeAttempt(
    runner,
    {
      attemptId: a.id,
      filesSeq: a.filesSeq,
      submittedAt: how.now,
      timeSpentMinutes,
      answers: how.answers,
      finalisedBy: how.finalisedBy,
      gradedFromAutosave: how.late,
      idempotencyKey: how.idempotencyKey,
      endedBy: how.endedBy,
    },
    {
      name: ATTEMPT_SUBMITTED,
      payload: submittedPayload({
        attempt: closed,
        student,
        version: v.version,
        answers,
        files,
        timeSpentMinutes,
        finalisedBy: how.finalisedBy,
        gradedFromAutosave: how.late,
        timeline: attemptTimeline(a, a.timeline, { at: how.now, by: how.finalisedBy, actorId: how.endedBy }),
        ltiLaunchId,
      }),
    },
  );
  return written ? closed : undefined;
}
