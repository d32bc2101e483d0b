import {
  AttemptAdjustment,
  QuestionFileChange,
  ReportDocument,
  timestampDate,
  type AuditAction,
} from '@readiness/contracts';
import { on, type EventSubscription } from '@readiness/kit/runtime';
import type { AnnouncedAction, AuditTrail } from '../../domain/audit-trail';

/** Auth's queues: one per event it writes into the audit log (proto/src/consumers.ts). */
export const AUDIT_QUEUES = {
  studentInvited: 'auth.audit-student-invited',
  invitationResent: 'auth.audit-invitation-resent',
  studentDeleted: 'auth.audit-student-deleted',
  resultDeleted: 'auth.audit-result-deleted',
  certificateResent: 'auth.audit-certificate-resend-requested',
  versionPublished: 'auth.audit-version-published',
  attemptAdjusted: 'auth.audit-attempt-adjusted',
  extraTimeChanged: 'auth.audit-extra-time-changed',
  questionFileChanged: 'auth.audit-question-file-changed',
  resultsExported: 'auth.audit-results-exported',
  reportDownloaded: 'auth.audit-report-downloaded',
} as const;

/** A save publishes its version in the transaction that wrote it; a version published later was made active again. */
const madeActiveAgain = (createdAt: Date | undefined, publishedAt: Date) =>
  createdAt !== undefined && publishedAt.getTime() - createdAt.getTime() > 5_000;

/** The admin actions the other services announce, into the audit log (each event written once). */
export function auditTrailConsumers(trail: AuditTrail): EventSubscription[] {
  const record = (
    eventId: string,
    actorId: string,
    action: AuditAction,
    target: AnnouncedAction['target'],
    details: Record<string, unknown>,
  ) => trail.record({ eventId, actorId, action, target, details });

  /** An event that names the student (an invitation, first or resent): kept, so later events can name them too. */
  async function studentNamed(
    eventId: string,
    e: { studentId: string; name: string; email: string; actorId: string },
    action: AuditAction,
    details: Record<string, unknown>,
  ): Promise<void> {
    const student = { id: e.studentId, name: e.name, email: e.email };
    await trail.rememberStudent(student);
    await record(eventId, e.actorId, action, student, details);
  }

  return [
    on('student.student.invited.v1', {
      queue: AUDIT_QUEUES.studentInvited,
      handle: (e, meta) =>
        studentNamed(meta.id, e, 'student.invited', {
          extraTimePercent: e.extraTimePercent,
          expiresAt: e.expiresAt,
        }),
    }),
    on('student.invitation.resent.v1', {
      queue: AUDIT_QUEUES.invitationResent,
      handle: (e, meta) => studentNamed(meta.id, e, 'student.invitation-resent', { expiresAt: e.expiresAt }),
    }),
    on('student.student.deleted.v1', {
      queue: AUDIT_QUEUES.studentDeleted,
      async handle(e, meta) {
        const known = await trail.studentTarget(e.studentId);
        await trail.record({
          eventId: meta.id,
          actorId: e.actorId,
          action: 'student.deleted',
          target: { ...known, email: known.email || e.email },
          details: {},
        });
        await trail.forgetStudent(e.studentId);
      },
    }),
    on('results.result.deleted.v1', {
      queue: AUDIT_QUEUES.resultDeleted,
      handle: async (e, meta) =>
        record(meta.id, e.actorId, 'result.deleted', await trail.studentTarget(e.studentId), {
          resultId: e.resultId,
        }),
    }),
    on('results.certificate.resend-requested.v1', {
      queue: AUDIT_QUEUES.certificateResent,
      handle: (e, meta) =>
        record(
          meta.id,
          e.actorId,
          'certificate.resend-requested',
          { id: e.studentId, name: e.name, email: e.email },
          {
            resultId: e.resultId,
            assessmentCode: e.assessmentCode,
          },
        ),
    }),
    on('student.attempt.adjusted.v1', {
      queue: AUDIT_QUEUES.attemptAdjusted,
      handle: (e, meta) => {
        const student = { id: e.studentId, name: e.name, email: e.email };
        const at = e.deadlineAt ? timestampDate(e.deadlineAt).toISOString() : undefined;
        return e.adjustment === AttemptAdjustment.ENDED
          ? record(meta.id, e.actorId, 'attempt.ended', student, {
              attemptId: e.attemptId,
              attemptNumber: e.attemptNumber,
              endedAt: at,
            })
          : record(meta.id, e.actorId, 'attempt.extended', student, {
              attemptId: e.attemptId,
              attemptNumber: e.attemptNumber,
              minutes: e.addedMinutes,
              deadlineAt: at,
            });
      },
    }),
    on('student.extra-time.changed.v1', {
      queue: AUDIT_QUEUES.extraTimeChanged,
      handle: (e, meta) =>
        studentNamed(meta.id, e, 'student.extra-time-changed', { extraTimePercent: e.extraTimePercent }),
    }),
    on('report.report.downloaded.v1', {
      queue: AUDIT_QUEUES.reportDownloaded,
      handle: (e, meta) =>
        record(
          meta.id,
          e.actorId,
          e.document === ReportDocument.CERTIFICATE ? 'certificate.downloaded' : 'report.downloaded',
          null,
          { resultId: e.resultId, fileName: e.fileName },
        ),
    }),
    on('results.results.exported.v1', {
      queue: AUDIT_QUEUES.resultsExported,
      handle: (e, meta) =>
        record(meta.id, e.actorId, 'results.exported', null, {
          format: 'csv',
          ...(e.search ? { search: e.search } : {}),
          status: e.status,
          rows: e.rows,
        }),
    }),
    on('assessment.question-file.changed.v1', {
      queue: AUDIT_QUEUES.questionFileChanged,
      handle: (e, meta) =>
        trail.record({
          eventId: meta.id,
          actorId: e.actorId,
          actorName: e.actorName,
          action:
            e.change === QuestionFileChange.UPLOADED
              ? 'assessment.question-file-uploaded'
              : 'assessment.question-file-removed',
          target: null,
          details: {
            originalName: e.originalName,
            filename: e.filename,
            ...(e.change === QuestionFileChange.UPLOADED ? { size: Number(e.size) } : {}),
            // A file some version still uses is only let go of by the draft, and kept.
            ...(e.change === QuestionFileChange.DETACHED ? { kept: true } : {}),
          },
        }),
    }),
    on('assessment.version.published.v1', {
      queue: AUDIT_QUEUES.versionPublished,
      async handle(e, meta) {
        // The seeded first version has nobody behind it: nothing an admin did.
        const actorId = e.publishedById || e.createdById;
        if (!actorId) return;
        await trail.record({
          eventId: meta.id,
          actorId,
          actorName: e.publishedByName || e.createdByName,
          action: madeActiveAgain(e.createdAt && timestampDate(e.createdAt), meta.occurredAt)
            ? 'assessment.version-activated'
            : 'assessment.version-saved',
          target: null,
          details: { version: e.version, title: e.title, changeNotes: e.changeNotes },
        });
      },
    }),
  ];
}
