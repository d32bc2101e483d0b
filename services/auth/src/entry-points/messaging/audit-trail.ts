import {
  AttemptAdjustment,
  LtiPlatformChange,
  QuestionFileChange,
  ReportDocument,
  timestampDate,
  VersionPublication,
  WebhookEndpointChange,
  type AuditAction,
  type EventPayload,
} from '@readiness/contracts';
import { on, type EventSubscription } from '@readiness/kit/runtime';
import type { AnnouncedAction, AuditTrail } from '../../domain/audit-trail';

type Target = AnnouncedAction['target'];

/** The admin actions the other services announce, into the audit log (each event written once). */
export const auditTrailConsumers = (trail: AuditTrail): EventSubscription[] =>
  [
    studentInvited,
    invitationResent,
    reminderRequested,
    studentDeleted,
    exportRequested,
    resultDeleted,
    certificateResendRequested,
    attemptAdjusted,
    extraTimeChanged,
    reportDownloaded,
    resultsExported,
    questionFileChanged,
    versionPublished,
    ltiPlatformChanged,
    webhookEndpointChanged,
  ].map((consumer) => consumer(trail));

const record = (
  trail: AuditTrail,
  eventId: string,
  actorId: string,
  action: AuditAction,
  target: Target,
  details: Record<string, unknown>,
) => trail.record({ eventId, actorId, action, target, details });

/** An event that names the student (an invitation, first or resent): kept, so later events can name them too. */
async function studentNamed(
  trail: AuditTrail,
  eventId: string,
  e: { studentId: string; name: string; email: string; actorId: string },
  action: AuditAction,
  details: Record<string, unknown>,
): Promise<void> {
  const student = { id: e.studentId, name: e.name, email: e.email };
  await trail.rememberStudent(student);
  await record(trail, eventId, e.actorId, action, student, details);
}

const studentInvited = (trail: AuditTrail) =>
  on('auth.audit-student-invited', {
    handle: (e, meta) =>
      studentNamed(trail, meta.id, e, 'student.invited', {
        extraTimePercent: e.extraTimePercent,
        expiresAt: e.expiresAt,
      }),
  });

const invitationResent = (trail: AuditTrail) =>
  on('auth.audit-invitation-resent', {
    handle: (e, meta) =>
      studentNamed(trail, meta.id, e, 'student.invitation-resent', { expiresAt: e.expiresAt }),
  });

/** An administrator's "Send a reminder now"; the reminder job's own reminders (no actor) are nobody's action. */
const reminderRequested = (trail: AuditTrail) =>
  on('auth.audit-reminder-requested', {
    async handle(e, meta) {
      if (!e.actorId) return;
      await studentNamed(trail, meta.id, e, 'student.reminded', {
        reminderNumber: e.reminderNumber,
        expiresAt: e.expiresAt,
      });
    },
  });

/** A subject-access export of everything the product holds about a student. */
const exportRequested = (trail: AuditTrail) =>
  on('auth.audit-export-requested', {
    handle: (e, meta) => studentNamed(trail, meta.id, e, 'student.data-exported', { exportId: e.exportId }),
  });

const studentDeleted = (trail: AuditTrail) =>
  on('auth.audit-student-deleted', {
    async handle(e, meta) {
      const known = await trail.studentTarget(e.studentId);
      await record(
        trail,
        meta.id,
        e.actorId,
        'student.deleted',
        { ...known, email: known.email || e.email },
        // The product's own erasures (actor "system") say why: "retention".
        e.reason ? { reason: e.reason } : {},
      );
      await trail.forgetStudent(e.studentId);
    },
  });

const resultDeleted = (trail: AuditTrail) =>
  on('auth.audit-result-deleted', {
    handle: async (e, meta) =>
      record(trail, meta.id, e.actorId, 'result.deleted', await trail.studentTarget(e.studentId), {
        resultId: e.resultId,
      }),
  });

const certificateResendRequested = (trail: AuditTrail) =>
  on('auth.audit-certificate-resend-requested', {
    handle: (e, meta) =>
      record(
        trail,
        meta.id,
        e.actorId,
        'certificate.resend-requested',
        { id: e.studentId, name: e.name, email: e.email },
        { resultId: e.resultId, assessmentCode: e.assessmentCode },
      ),
  });

const attemptAdjusted = (trail: AuditTrail) =>
  on('auth.audit-attempt-adjusted', {
    handle: (e, meta) => {
      const student = { id: e.studentId, name: e.name, email: e.email };
      const at = e.deadlineAt ? timestampDate(e.deadlineAt).toISOString() : undefined;
      const attempt = { attemptId: e.attemptId, attemptNumber: e.attemptNumber };
      return e.adjustment === AttemptAdjustment.ENDED
        ? record(trail, meta.id, e.actorId, 'attempt.ended', student, { ...attempt, endedAt: at })
        : record(trail, meta.id, e.actorId, 'attempt.extended', student, {
            ...attempt,
            minutes: e.addedMinutes,
            deadlineAt: at,
          });
    },
  });

const extraTimeChanged = (trail: AuditTrail) =>
  on('auth.audit-extra-time-changed', {
    handle: (e, meta) =>
      studentNamed(trail, meta.id, e, 'student.extra-time-changed', { extraTimePercent: e.extraTimePercent }),
  });

const reportDownloaded = (trail: AuditTrail) =>
  on('auth.audit-report-downloaded', {
    handle: (e, meta) =>
      record(
        trail,
        meta.id,
        e.actorId,
        e.document === ReportDocument.CERTIFICATE ? 'certificate.downloaded' : 'report.downloaded',
        null,
        { resultId: e.resultId, fileName: e.fileName },
      ),
  });

const resultsExported = (trail: AuditTrail) =>
  on('auth.audit-results-exported', {
    handle: (e, meta) =>
      record(trail, meta.id, e.actorId, 'results.exported', null, {
        format: 'csv',
        ...(e.search ? { search: e.search } : {}),
        status: e.status,
        rows: e.rows,
      }),
  });

const questionFileChanged = (trail: AuditTrail) =>
  on('auth.audit-question-file-changed', {
    handle: (e, meta) => {
      const uploaded = e.change === QuestionFileChange.UPLOADED;
      return trail.record({
        eventId: meta.id,
        actorId: e.actorId,
        actorName: e.actorName,
        action: uploaded ? 'assessment.question-file-uploaded' : 'assessment.question-file-removed',
        target: null,
        details: {
          originalName: e.originalName,
          filename: e.filename,
          ...(uploaded ? { size: Number(e.size) } : {}),
          // A file some version still uses is only let go of by the draft, and kept.
          ...(e.change === QuestionFileChange.DETACHED ? { kept: true } : {}),
        },
      });
    },
  });

const versionPublished = (trail: AuditTrail) =>
  on('auth.audit-version-published', {
    async handle(e, meta) {
      // The seeded first version has nobody behind it: nothing an admin did.
      const actorId = e.publishedById || e.createdById;
      if (!actorId) return;
      await trail.record({
        eventId: meta.id,
        actorId,
        actorName: e.publishedByName || e.createdByName,
        action: madeActiveAgain(e, meta.occurredAt)
          ? 'assessment.version-activated'
          : 'assessment.version-saved',
        target: null,
        details: { version: e.version, title: e.title, changeNotes: e.changeNotes },
      });
    },
  });

/**
 * Whether the event published an earlier version made active again rather than a new one saved: the event says
 * so. An event from an assessment service older than `publication` does not; for it, as before, a save publishes
 * its version in the transaction that wrote it, so a version published over 5 seconds after it was made was made
 * active again.
 */
function madeActiveAgain(e: EventPayload<'assessment.version.published.v1'>, occurredAt: Date): boolean {
  if (e.publication !== VersionPublication.UNSPECIFIED)
    return e.publication === VersionPublication.REACTIVATED;
  return e.createdAt !== undefined && occurredAt.getTime() - timestampDate(e.createdAt).getTime() > 5_000;
}

const LTI_PLATFORM_ACTIONS: Record<LtiPlatformChange, AuditAction | undefined> = {
  [LtiPlatformChange.UNSPECIFIED]: undefined,
  [LtiPlatformChange.REGISTERED]: 'lti.platform-registered',
  [LtiPlatformChange.UPDATED]: 'lti.platform-updated',
  [LtiPlatformChange.DISABLED]: 'lti.platform-disabled',
  [LtiPlatformChange.ENABLED]: 'lti.platform-enabled',
  [LtiPlatformChange.DELETED]: 'lti.platform-deleted',
};

/** A super admin's change to an LMS registration (the integrations service). */
const ltiPlatformChanged = (trail: AuditTrail) =>
  on('auth.audit-lti-platform-changed', {
    async handle(e, meta) {
      const action = LTI_PLATFORM_ACTIONS[e.change];
      if (!action) return;
      await record(trail, meta.id, e.actorId, action, null, {
        platformId: e.platformId,
        name: e.name,
        issuer: e.issuer,
        clientId: e.clientId,
        deploymentIds: e.deploymentIds,
      });
    },
  });

const WEBHOOK_ENDPOINT_ACTIONS: Record<WebhookEndpointChange, AuditAction | undefined> = {
  [WebhookEndpointChange.UNSPECIFIED]: undefined,
  [WebhookEndpointChange.ADDED]: 'webhook.endpoint-added',
  [WebhookEndpointChange.UPDATED]: 'webhook.endpoint-updated',
  [WebhookEndpointChange.DISABLED]: 'webhook.endpoint-disabled',
  [WebhookEndpointChange.ENABLED]: 'webhook.endpoint-enabled',
  [WebhookEndpointChange.SECRET_ROTATED]: 'webhook.endpoint-secret-rotated',
  [WebhookEndpointChange.DELETED]: 'webhook.endpoint-deleted',
};

/**
 * A super admin's change to a webhook endpoint, or the product's disabling of one that failed for the give-up time
 * (nobody's action: no actor). The entry concerns the endpoint, named by its URL (the events never carry its secret).
 */
const webhookEndpointChanged = (trail: AuditTrail) =>
  on('auth.audit-webhook-endpoint-changed', {
    async handle(e, meta) {
      const target = { id: e.endpointId, name: e.url, email: '' };
      if (meta.name === 'integrations.webhook-endpoint.disabled.v1') {
        const disabled = e as EventPayload<'integrations.webhook-endpoint.disabled.v1'>;
        await record(trail, meta.id, '', 'webhook.endpoint-disabled-failing', target, {
          description: disabled.description,
          reason: disabled.reason,
          ...(disabled.failingSince
            ? { failingSince: timestampDate(disabled.failingSince).toISOString() }
            : {}),
        });
        return;
      }
      const changed = e as EventPayload<'integrations.webhook-endpoint.changed.v1'>;
      const action = WEBHOOK_ENDPOINT_ACTIONS[changed.change];
      if (!action) return;
      await record(trail, meta.id, changed.actorId, action, target, {
        description: changed.description,
        events: changed.events,
      });
    },
  });
