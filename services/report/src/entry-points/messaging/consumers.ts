import {
  publishedVersion,
  recordedResult,
  type AssessmentVersionPublished,
  type ResultRecorded,
} from '@readiness/contracts';
import { on, type EventSubscription } from '@readiness/kit/runtime';
import type { ResultCopy, VersionCopy } from '../../data-access/records';
import type { Reports } from '../../domain/reports';

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

/**
 * One consumer per event: keep copies, issue certificates, mail them again, erase. Certificates (a result recorded, a
 * resend) yield to students waiting at the peak and are issued after; copies of versions and erasures do not.
 */
export function reportConsumers(reports: Reports): EventSubscription[] {
  return [
    on('report.assessment-published', {
      handle: (event) => reports.rememberVersion(toVersion(event)),
    }),
    on('report.result-recorded', {
      yieldsToStudents: true,
      async handle(event, meta) {
        await reports.recordResult(toResult(event), meta.id);
        if (event.passed) void reports.issuePending();
      },
    }),
    on('report.certificate-resend-requested', {
      yieldsToStudents: true,
      handle: (event, meta) => reports.resend({ resultId: event.resultId, actorId: event.actorId }, meta.id),
    }),
    on('report.result-deleted', {
      handle: (event) => reports.eraseResult(event.resultId),
    }),
    on('report.student-deleted', {
      handle: (event) => reports.eraseStudent(event.studentId),
    }),
  ];
}
