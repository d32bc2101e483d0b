import { consumerQueues } from './consumers';
import type { EventName } from './index';

/**
 * The whole system in one table: which services exist, what each keeps and reaches, the events it publishes,
 * the admin paths it owns, and (with `consumerQueues`) the queues it consumes. The gateway's upstreams and routes
 * of those paths, the local stack, the chart's values and KEDA queue lists, the services' own declarations and the
 * jest projects are derived from it or checked against it (deploy/test/topology.checked.test.ts).
 */
export interface ServiceTopology {
  name: ServiceName;
  /** The port the local stack (`make stack`) gives it on localhost. */
  stackPort: number;
  /** What it uses: its own PostgreSQL database, RabbitMQ, Redis, object storage, an SMTP server. */
  uses: { postgres: boolean; rabbitmq: boolean; redis: boolean; s3: boolean; smtp: boolean };
  publishes: readonly EventName[];
  /**
   * The `/api/admin` prefixes it owns whole: the gateway sends every path under each to it, behind the admin
   * check, after the narrower rules of its own table (services/gateway/src/routes.ts), which hold the rest.
   */
  adminPaths?: readonly `/api/admin/${string}`[];
  /** Its image runs on the Dockerfile's runtime-chromium stage (Debian's Chromium, for the PDFs). */
  chromium?: boolean;
}

export type ServiceName =
  'auth' | 'assessment' | 'student' | 'results' | 'report' | 'notification' | 'integrations' | 'gateway';

const uses = (...kinds: Array<keyof ServiceTopology['uses']>): ServiceTopology['uses'] => ({
  postgres: kinds.includes('postgres'),
  rabbitmq: kinds.includes('rabbitmq'),
  redis: kinds.includes('redis'),
  s3: kinds.includes('s3'),
  smtp: kinds.includes('smtp'),
});

/**
 * In start order: the gateway last, once every upstream answers. Every service behind the gateway uses Redis for
 * the token revocations its admin check reads; RabbitMQ to publish (its outbox relay) or to consume its queues of
 * `consumerQueues`; object storage for question files (assessment), answer files (student), certificate PDFs
 * (report, and notification to attach them); SMTP to mail (notification). Integrations (LMS registrations and
 * launches, webhooks) publishes the audit trail's events and the disabling of a failing webhook endpoint.
 */
export const topology: readonly ServiceTopology[] = [
  {
    name: 'auth',
    stackPort: 8101,
    uses: uses('postgres', 'rabbitmq', 'redis'),
    publishes: [
      'auth.admin.created.v1',
      'auth.admin.updated.v1',
      'auth.admin.status-changed.v1',
      'auth.admin.password-reset.v1',
      'auth.admin.factor-changed.v1',
      'auth.student-export.answered.v1',
      'auth.admin-alert.requested.v1',
    ],
    adminPaths: ['/api/admin/admins', '/api/admin/audit-log', '/api/admin/security-settings'],
  },
  {
    name: 'assessment',
    stackPort: 8102,
    uses: uses('postgres', 'rabbitmq', 'redis', 's3'),
    publishes: ['assessment.version.published.v1', 'assessment.question-file.changed.v1'],
  },
  {
    name: 'student',
    stackPort: 8103,
    uses: uses('postgres', 'rabbitmq', 'redis', 's3'),
    publishes: [
      'student.student.invited.v1',
      'student.invitation.resent.v1',
      'student.reminder.requested.v1',
      'student.student.deleted.v1',
      'student.extra-time.changed.v1',
      'student.attempt.started.v1',
      'student.attempt.submitted.v1',
      'student.attempt.adjusted.v1',
      'student.lti-launch.accepted.v1',
      'student.export.requested.v1',
    ],
    adminPaths: ['/api/admin/live'],
  },
  {
    name: 'results',
    stackPort: 8104,
    uses: uses('postgres', 'rabbitmq', 'redis'),
    publishes: [
      'results.result.recorded.v1',
      'results.result.deleted.v1',
      'results.certificate.resend-requested.v1',
      'results.results.exported.v1',
      'results.student-export.answered.v1',
    ],
  },
  {
    name: 'report',
    stackPort: 8105,
    uses: uses('postgres', 'rabbitmq', 'redis', 's3'),
    publishes: [
      'report.certificate.issued.v2',
      'report.report.downloaded.v1',
      'report.student-export.answered.v1',
    ],
    chromium: true,
  },
  {
    name: 'notification',
    stackPort: 8106,
    uses: uses('postgres', 'rabbitmq', 'redis', 's3', 'smtp'),
    publishes: ['notification.student-export.answered.v1'],
    adminPaths: ['/api/admin/notifications'],
  },
  {
    name: 'integrations',
    stackPort: 8107,
    uses: uses('postgres', 'rabbitmq', 'redis'),
    publishes: [
      'integrations.lti-platform.changed.v1',
      'integrations.webhook-endpoint.changed.v1',
      'integrations.webhook-endpoint.disabled.v1',
      'integrations.student-export.answered.v1',
    ],
    adminPaths: ['/api/admin/lti', '/api/admin/webhooks'],
  },
  { name: 'gateway', stackPort: 8080, uses: uses('redis'), publishes: [] },
];

/** The services behind the gateway, each reached at its `<NAME>_URL`. */
export const upstreamNames = topology.filter((s) => s.name !== 'gateway').map((s) => s.name) as Array<
  Exclude<ServiceName, 'gateway'>
>;

/** The handler queues a service consumes, from the consumer table. */
export const queuesOf = (service: ServiceName): string[] =>
  consumerQueues.filter((q) => q.queue.startsWith(`${service}.`)).map((q) => q.queue);
