import { timestampDate } from '@readiness/contracts';
import { on, type EventSubscription } from '@readiness/kit/runtime';
import type { AuditTrail } from '../../domain/audit-trail';

/** Auth's queues: one per event it writes into the audit log (proto/src/consumers.ts). */
export const AUDIT_QUEUES = {
  studentInvited: 'auth.audit-student-invited',
  invitationResent: 'auth.audit-invitation-resent',
  studentDeleted: 'auth.audit-student-deleted',
  resultDeleted: 'auth.audit-result-deleted',
  certificateResent: 'auth.audit-certificate-resend-requested',
  versionPublished: 'auth.audit-version-published',
} as const;

/** A save publishes its version in the transaction that wrote it; a version published later was made active again. */
const madeActiveAgain = (createdAt: Date | undefined, publishedAt: Date) =>
  createdAt !== undefined && publishedAt.getTime() - createdAt.getTime() > 5_000;

/** The admin actions the other services announce, into the audit log (each event written once). */
export function auditTrailConsumers(trail: AuditTrail): EventSubscription[] {
  return [
    on('student.student.invited.v1', {
      queue: AUDIT_QUEUES.studentInvited,
      async handle(e, meta) {
        const student = { id: e.studentId, name: e.name, email: e.email };
        await trail.rememberStudent(student);
        await trail.record({
          eventId: meta.id,
          actorId: e.actorId,
          action: 'student.invited',
          target: student,
          details: { extraTimePercent: e.extraTimePercent, expiresAt: e.expiresAt },
        });
      },
    }),
    on('student.invitation.resent.v1', {
      queue: AUDIT_QUEUES.invitationResent,
      async handle(e, meta) {
        const student = { id: e.studentId, name: e.name, email: e.email };
        await trail.rememberStudent(student);
        await trail.record({
          eventId: meta.id,
          actorId: e.actorId,
          action: 'student.invitation-resent',
          target: student,
          details: { expiresAt: e.expiresAt },
        });
      },
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
      async handle(e, meta) {
        await trail.record({
          eventId: meta.id,
          actorId: e.actorId,
          action: 'result.deleted',
          target: await trail.studentTarget(e.studentId),
          details: { resultId: e.resultId },
        });
      },
    }),
    on('results.certificate.resend-requested.v1', {
      queue: AUDIT_QUEUES.certificateResent,
      async handle(e, meta) {
        await trail.record({
          eventId: meta.id,
          actorId: e.actorId,
          action: 'certificate.resend-requested',
          target: { id: e.studentId, name: e.name, email: e.email },
          details: { resultId: e.resultId, assessmentCode: e.assessmentCode },
        });
      },
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
