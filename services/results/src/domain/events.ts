import { sectionFigures, timelineMessages, timestampFromDate, payloadOf } from '@readiness/contracts';
import type { ResultRecord } from './result';

export const RESULT_RECORDED = 'results.result.recorded.v1' as const;
export const RESULT_DELETED = 'results.result.deleted.v1' as const;
export const CERTIFICATE_RESEND_REQUESTED = 'results.certificate.resend-requested.v1' as const;
export const RESULTS_EXPORTED = 'results.results.exported.v1' as const;

/** A CSV export of the results, for the audit log: who, with which filters, how many rows. */
export const exportedPayload = (e: { actorId: string; search?: string; status: string; rows: number }) =>
  payloadOf(RESULTS_EXPORTED, {
    actorId: e.actorId,
    search: e.search ?? '',
    status: e.status,
    rows: e.rows,
  });

/**
 * Everything a consumer keeps of a result: the student service's copy, the report service's certificate, the
 * integrations service's grade for the LMS the student came from (`ltiLaunchId`, passed on from the submission).
 */
export const recordedPayload = (r: ResultRecord, ltiLaunchId = '') =>
  payloadOf(RESULT_RECORDED, {
    resultId: r.id,
    attemptId: r.attemptId,
    studentId: r.studentId,
    name: r.student.name,
    email: r.student.email,
    score: r.score,
    totalPoints: r.totalPoints,
    percentage: r.percentage,
    passed: r.passed,
    attemptNumber: r.attemptNumber,
    canRetake: r.canRetake,
    assessmentCode: r.assessmentCode,
    completedAt: timestampFromDate(r.completedAt),
    sections: r.sections.map((s) => ({ sectionId: s.id, ...sectionFigures(s) })),
    versionId: r.versionId,
    version: r.version,
    passingScore: r.passingScore,
    assessmentTitle: r.assessmentTitle,
    localizedTitle: r.localizedTitle,
    timeline: timelineMessages(r.timeline),
    language: r.language,
    ltiLaunchId,
    answers: r.answers.map((a) => ({
      questionId: a.questionId,
      answer: a.answer,
      isCorrect: a.isCorrect,
      points: a.points,
      maxPoints: a.maxPoints,
      sectionId: a.section,
      skipped: a.skipped === true,
      paperPosition: a.paperPosition ?? 0,
    })),
  });

export const deletedPayload = (r: ResultRecord, actorId: string) =>
  payloadOf(RESULT_DELETED, { resultId: r.id, attemptId: r.attemptId, studentId: r.studentId, actorId });

export const resendPayload = (r: ResultRecord, actorId: string) =>
  payloadOf(CERTIFICATE_RESEND_REQUESTED, {
    resultId: r.id,
    studentId: r.studentId,
    name: r.student.name,
    email: r.student.email,
    assessmentCode: r.assessmentCode,
    actorId,
  });
