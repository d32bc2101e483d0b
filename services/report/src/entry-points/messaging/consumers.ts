import {
  publishedVersion,
  recordedResult,
  type AssessmentVersionPublished,
  type ResultRecorded,
} from '@readiness/contracts';
import { on, type EventSubscription } from '@readiness/kit/runtime';
import type { ResultCopy, VersionCopy } from '../../data-access/records';
import type { Reports } from '../../domain/reports';

export const QUEUES = {
  versionPublished: 'report.assessment-published',
  resultRecorded: 'report.result-recorded',
  resendRequested: 'report.certificate-resend-requested',
  resultDeleted: 'report.result-deleted',
  studentDeleted: 'report.student-deleted',
} as const;

const toVersion = (e: AssessmentVersionPublished): VersionCopy => {
  const v = publishedVersion(e);
  return {
    versionId: v.versionId,
    version: v.version,
    title: v.title,
    sections: v.sections,
    questions: v.questions.map(({ id, type, question, section, points, options }) => ({
      id,
      type,
      question,
      section,
      points,
      options,
    })),
  };
};

const toResult = (e: ResultRecorded): ResultCopy => {
  const { canRetake: _canRetake, ...result } = recordedResult(e);
  return result;
};

/** One consumer per event: keep copies, issue certificates, mail them again, erase. */
export function reportConsumers(reports: Reports): EventSubscription[] {
  return [
    on('assessment.version.published.v1', {
      queue: QUEUES.versionPublished,
      handle: (event) => reports.rememberVersion(toVersion(event)),
    }),
    on('results.result.recorded.v1', {
      queue: QUEUES.resultRecorded,
      async handle(event, meta) {
        await reports.recordResult(toResult(event), meta.id);
        if (event.passed) void reports.issuePending();
      },
    }),
    on('results.certificate.resend-requested.v1', {
      queue: QUEUES.resendRequested,
      handle: (event, meta) => reports.resend({ resultId: event.resultId, actorId: event.actorId }, meta.id),
    }),
    on('results.result.deleted.v1', {
      queue: QUEUES.resultDeleted,
      handle: (event) => reports.eraseResult(event.resultId),
    }),
    on('student.student.deleted.v1', {
      queue: QUEUES.studentDeleted,
      handle: (event) => reports.eraseStudent(event.studentId),
    }),
  ];
}
