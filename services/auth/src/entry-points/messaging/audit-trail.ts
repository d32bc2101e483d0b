import {
  AttemptAdjustment,
  QuestionFileChange,
  ReportDocument,
  timestampDate,
  type AuditAction,
} from '@readiness/contracts';
import { on, type EventSubscription } from '@readiness/kit/runtime';
import type { AnnouncedAction, AuditTrail } from '../../domain/audit-trail';

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
    on('auth.audit-student-invited', {
      handle: (e, meta) =>
        studentNamed(meta.id, e, 'student.invited', {
          extraTimePercent: e.extraTimePercent,
          expiresAt: e.expiresAt,
        }),
    }),
    on('auth.audit-invitation-resent', {
      handle: (e, meta) => studentNamed(meta.id, e, 'student.invitation-resent', { expiresAt: e.expiresAt }),
    }),
    on('auth.audit-student-deleted', {
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
    on('auth.audit-result-deleted', {
      handle: async (e, meta) =>
        record(meta.id, e.actorId, 'result.deleted', await trail.studentTarget(e.studentId), {
          resultId: e.resultId,
        }),
    }),
    on('auth.audit-certificate-resend-requested', {
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
    on('auth.audit-attempt-adjusted', {
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
    on('auth.audit-extra-time-changed', {
      handle: (e, meta) =>
        studentNamed(meta.id, e, 'student.extra-time-changed', { extraTimePercent: e.extraTimePercent }),
    }),
    on('auth.audit-report-downloaded', {
      handle: (e, meta) =>
        record(
          meta.id,
          e.actorId,
          e.document === ReportDocument.CERTIFICATE ? 'certificate.downloaded' : 'report.downloaded',
          null,
          { resultId: e.resultId, fileName: e.fileName },
        ),
    }),
    on('auth.audit-results-exported', {
      handle: (e, meta) =>
        record(meta.id, e.actorId, 'results.exported', null, {
          format: 'csv',
          ...(e.search ? { search: e.search } : {}),
          status: e.status,
          rows: e.rows,
        }),
    }),
    on('auth.audit-question-file-changed', {
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
    on('auth.audit-version-published', {
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
