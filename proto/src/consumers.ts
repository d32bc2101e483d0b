import type { EventName } from './index';

/** One handler queue of one service, and the events bound to it. */
export interface ConsumerQueue {
  /** `<service>.<handler>`. */
  queue: string;
  events: readonly EventName[];
}

/**
 * Who consumes what, for the whole system (docs/events.md). Every service declares all of these queues on
 * the broker when it connects, not only its own, so an event published before its consumer first started
 * (the seeded assessment on a fresh install, where every service starts at once) waits in the consumer's
 * queue instead of being routed only to the queues that happened to exist. A service refuses to start
 * with a handler queue of its own that is missing here or bound to other events.
 */
export const consumerQueues: readonly ConsumerQueue[] = [
  { queue: 'auth.audit-student-invited', events: ['student.student.invited.v1'] },
  { queue: 'auth.audit-invitation-resent', events: ['student.invitation.resent.v1'] },
  { queue: 'auth.audit-student-deleted', events: ['student.student.deleted.v1'] },
  { queue: 'auth.audit-result-deleted', events: ['results.result.deleted.v1'] },
  { queue: 'auth.audit-certificate-resend-requested', events: ['results.certificate.resend-requested.v1'] },
  { queue: 'auth.audit-version-published', events: ['assessment.version.published.v1'] },
  { queue: 'auth.audit-attempt-adjusted', events: ['student.attempt.adjusted.v1'] },
  { queue: 'auth.audit-extra-time-changed', events: ['student.extra-time.changed.v1'] },
  { queue: 'auth.audit-question-file-changed', events: ['assessment.question-file.changed.v1'] },
  { queue: 'auth.audit-results-exported', events: ['results.results.exported.v1'] },
  { queue: 'auth.audit-report-downloaded', events: ['report.report.downloaded.v1'] },
  { queue: 'assessment.admin-created', events: ['auth.admin.created.v1'] },
  { queue: 'assessment.admin-updated', events: ['auth.admin.updated.v1'] },
  { queue: 'student.assessment-published', events: ['assessment.version.published.v1'] },
  { queue: 'student.result-recorded', events: ['results.result.recorded.v1'] },
  { queue: 'student.result-deleted', events: ['results.result.deleted.v1'] },
  { queue: 'student.certificate-issued', events: ['report.certificate.issued.v2'] },
  { queue: 'results.version-published', events: ['assessment.version.published.v1'] },
  { queue: 'results.student-invited', events: ['student.student.invited.v1'] },
  { queue: 'results.invitation-resent', events: ['student.invitation.resent.v1'] },
  { queue: 'results.student-deleted', events: ['student.student.deleted.v1'] },
  { queue: 'results.attempt-started', events: ['student.attempt.started.v1'] },
  { queue: 'results.attempt-submitted', events: ['student.attempt.submitted.v1'] },
  { queue: 'report.assessment-published', events: ['assessment.version.published.v1'] },
  { queue: 'report.result-recorded', events: ['results.result.recorded.v1'] },
  { queue: 'report.certificate-resend-requested', events: ['results.certificate.resend-requested.v1'] },
  { queue: 'report.result-deleted', events: ['results.result.deleted.v1'] },
  { queue: 'report.student-deleted', events: ['student.student.deleted.v1'] },
  { queue: 'notification.admin-password-reset', events: ['auth.admin.password-reset.v1'] },
  { queue: 'notification.admin-factor-changed', events: ['auth.admin.factor-changed.v1'] },
  { queue: 'notification.certificate-issued', events: ['report.certificate.issued.v2'] },
  { queue: 'notification.student-invited', events: ['student.student.invited.v1'] },
  { queue: 'notification.invitation-resent', events: ['student.invitation.resent.v1'] },
  { queue: 'notification.student-deleted', events: ['student.student.deleted.v1'] },
];
