import type { EventName } from './index';

/**
 * Who consumes what, for the whole system (docs/events.md). Every service declares all of these queues on
 * the broker when it connects, not only its own, so an event published before its consumer first started
 * (the seeded assessment on a fresh install, where every service starts at once) waits in the consumer's
 * queue instead of being routed only to the queues that happened to exist. A service subscribes by the queue's
 * name (`on('results.attempt-submitted', { handle })`): the events, and the payload's type, come from here.
 */
export const consumers = {
  'auth.audit-student-invited': ['student.student.invited.v1'],
  'auth.audit-invitation-resent': ['student.invitation.resent.v1'],
  'auth.audit-reminder-requested': ['student.reminder.requested.v1'],
  'auth.audit-student-deleted': ['student.student.deleted.v1'],
  'auth.audit-result-deleted': ['results.result.deleted.v1'],
  'auth.audit-certificate-resend-requested': ['results.certificate.resend-requested.v1'],
  'auth.audit-version-published': ['assessment.version.published.v1'],
  'auth.audit-attempt-adjusted': ['student.attempt.adjusted.v1'],
  'auth.audit-extra-time-changed': ['student.extra-time.changed.v1'],
  'auth.audit-question-file-changed': ['assessment.question-file.changed.v1'],
  'auth.audit-results-exported': ['results.results.exported.v1'],
  'auth.audit-report-downloaded': ['report.report.downloaded.v1'],
  'auth.audit-lti-platform-changed': ['integrations.lti-platform.changed.v1'],
  'auth.audit-export-requested': ['student.export.requested.v1'],
  'auth.export-requested': ['student.export.requested.v1'],
  'auth.audit-webhook-endpoint-changed': [
    'integrations.webhook-endpoint.changed.v1',
    'integrations.webhook-endpoint.disabled.v1',
  ],
  'auth.alert-webhook-endpoint-disabled': ['integrations.webhook-endpoint.disabled.v1'],
  'assessment.admin-created': ['auth.admin.created.v1'],
  'assessment.admin-updated': ['auth.admin.updated.v1'],
  'student.assessment-published': ['assessment.version.published.v1'],
  'student.result-recorded': ['results.result.recorded.v1'],
  'student.result-deleted': ['results.result.deleted.v1'],
  'student.certificate-issued': ['report.certificate.issued.v2'],
  'student.export-answered': [
    'results.student-export.answered.v1',
    'report.student-export.answered.v1',
    'notification.student-export.answered.v1',
    'integrations.student-export.answered.v1',
    'auth.student-export.answered.v1',
  ],
  'results.version-published': ['assessment.version.published.v1'],
  'results.student-invited': ['student.student.invited.v1'],
  'results.invitation-resent': ['student.invitation.resent.v1'],
  'results.student-deleted': ['student.student.deleted.v1'],
  'results.attempt-started': ['student.attempt.started.v1'],
  'results.attempt-submitted': ['student.attempt.submitted.v1'],
  'results.export-requested': ['student.export.requested.v1'],
  'report.assessment-published': ['assessment.version.published.v1'],
  'report.result-recorded': ['results.result.recorded.v1'],
  'report.certificate-resend-requested': ['results.certificate.resend-requested.v1'],
  'report.result-deleted': ['results.result.deleted.v1'],
  'report.student-deleted': ['student.student.deleted.v1'],
  'report.export-requested': ['student.export.requested.v1'],
  'notification.admin-password-reset': ['auth.admin.password-reset.v1'],
  'notification.admin-factor-changed': ['auth.admin.factor-changed.v1'],
  'notification.admin-alert-requested': ['auth.admin-alert.requested.v1'],
  'notification.certificate-issued': ['report.certificate.issued.v2'],
  'notification.student-invited': ['student.student.invited.v1'],
  'notification.invitation-resent': ['student.invitation.resent.v1'],
  'notification.reminder-requested': ['student.reminder.requested.v1'],
  'notification.student-deleted': ['student.student.deleted.v1'],
  'notification.export-requested': ['student.export.requested.v1'],
  'integrations.lti-launch-accepted': ['student.lti-launch.accepted.v1'],
  'integrations.result-recorded': ['results.result.recorded.v1'],
  'integrations.result-deleted': ['results.result.deleted.v1'],
  'integrations.student-deleted': ['student.student.deleted.v1'],
  'integrations.export-requested': ['student.export.requested.v1'],
  'integrations.webhooks': [
    'results.result.recorded.v1',
    'report.certificate.issued.v2',
    'student.student.invited.v1',
    'student.attempt.started.v1',
    'student.student.deleted.v1',
  ],
} as const satisfies Record<string, readonly EventName[]>;

/** A handler queue of the table: `<service>.<handler>`. */
export type QueueName = keyof typeof consumers;

/**
 * Queues bound only to the events their service's configuration needs at the time, by that service
 * (`EventBus.bindOnDemand`), not by every service that declares them: the integrations service's webhook queue
 * takes an event only while an endpoint wants its type, and its grades queue the results only while an LMS is
 * connected. An installation with neither pays no delivery for them (docs/events.md, "Bound on demand").
 */
export const boundOnDemand: ReadonlySet<QueueName> = new Set<QueueName>([
  'integrations.webhooks',
  'integrations.result-recorded',
]);
/** The events bound to a queue of the table. */
export type QueueEvents<Q extends QueueName> = (typeof consumers)[Q][number];

/** One handler queue of one service, and the events bound to it. */
export interface ConsumerQueue {
  /** `<service>.<handler>`. */
  queue: QueueName;
  events: readonly EventName[];
  /** Bound by its service to what its configuration needs (`boundOnDemand`); declared unbound by the others. */
  onDemand: boolean;
}

/** The table as a list, in its order. */
export const consumerQueues: readonly ConsumerQueue[] = Object.entries(consumers).map(([queue, events]) => ({
  queue: queue as QueueName,
  events,
  onDemand: boundOnDemand.has(queue as QueueName),
}));
