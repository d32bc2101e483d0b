import {
  languageOf,
  publishedVersion,
  timelineFacts,
  timestampDate,
  type EventPayload,
} from '@readiness/contracts';
import { on } from '@readiness/kit/runtime';
import type { AssessmentVersion } from '../../domain/assessment';
import type { Results, Submission } from '../../domain/results';

/** The version's copy: everything but whether it is active, and of its translations the titles. */
export function toVersion(e: EventPayload<'assessment.version.published.v1'>): AssessmentVersion {
  const { active: _active, translations = {}, ...version } = publishedVersion(e);
  const titles = Object.entries(translations).flatMap(([language, texts]) =>
    texts?.title ? [[language, texts.title] as const] : [],
  );
  return { ...version, titles: Object.fromEntries(titles) };
}

export function toSubmission(e: EventPayload<'student.attempt.submitted.v1'>): Submission {
  return {
    attemptId: e.attemptId,
    studentId: e.studentId,
    name: e.name,
    email: e.email,
    versionId: e.versionId,
    attemptNumber: e.attemptNumber,
    startedAt: e.startedAt ? timestampDate(e.startedAt) : null,
    submittedAt: e.submittedAt ? timestampDate(e.submittedAt) : new Date(),
    timeSpentMinutes: e.timeSpentMinutes,
    timeline: timelineFacts(e.timeline),
    language: languageOf(e.language),
    questionIds: e.questionIds,
    ltiLaunchId: e.ltiLaunchId,
    answers: e.answers.map((a) => ({
      questionId: a.questionId,
      answer: a.answer,
      ...(a.file
        ? {
            file: {
              key: a.file.key,
              originalName: a.file.originalName,
              size: Number(a.file.size),
              mimetype: a.file.mimetype,
            },
          }
        : {}),
    })),
  };
}

/**
 * The results service's subscriptions; each handler is thin, the domain does the work. The dashboard's figures of
 * invitations and starts yield to students waiting at the peak; scoring, and the versions it scores against, never do.
 */
export function resultsConsumers(results: Results, options: { versionWaitMs: number }) {
  return [
    on('results.version-published', {
      handle: (event, meta) => results.keepVersion(toVersion(event), event.active ? meta.occurredAt : null),
    }),
    on('results.student-invited', {
      yieldsToStudents: true,
      handle: (e) => results.studentInvited({ studentId: e.studentId, name: e.name, email: e.email }),
    }),
    on('results.invitation-resent', {
      yieldsToStudents: true,
      handle: (e) => results.studentInvited({ studentId: e.studentId, name: e.name, email: e.email }),
    }),
    on('results.student-deleted', {
      handle: async (e) => {
        await results.studentDeleted(e.studentId);
      },
    }),
    on('results.attempt-started', {
      yieldsToStudents: true,
      handle: (e) => results.attemptStarted({ studentId: e.studentId, attemptNumber: e.attemptNumber }),
    }),
    on('results.attempt-submitted', {
      // A submission can overtake its version's event (different queues); it waits for it, retried.
      waitHorizonMs: options.versionWaitMs,
      handle: (e, meta) => results.score(toSubmission(e), meta.id),
    }),
  ];
}
