import {
  create,
  fromBinary,
  toBinary,
  type DescMessage,
  type MessageInitShape,
  type MessageShape,
} from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  AssessmentQuestionFileChangedSchema,
  AssessmentVersionPublishedSchema,
} from './gen/readiness/events/v1/assessment_pb';
import {
  AdminAlertRequestedSchema,
  AdminCreatedSchema,
  AdminFactorChangedSchema,
  AdminPasswordResetSchema,
  AdminStatusChangedSchema,
  AdminUpdatedSchema,
} from './gen/readiness/events/v1/auth_pb';
import { EnvelopeSchema, type Envelope } from './gen/readiness/events/v1/envelope_pb';
import { StudentExportAnsweredSchema } from './gen/readiness/events/v1/export_pb';
import {
  LtiPlatformChangedSchema,
  WebhookEndpointChangedSchema,
  WebhookEndpointDisabledSchema,
} from './gen/readiness/events/v1/integrations_pb';
import { ReportDownloadedSchema } from './gen/readiness/events/v1/report_pb';
import { CertificateIssuedSchema as CertificateIssuedV2Schema } from './gen/readiness/events/v2/report_pb';
import {
  CertificateResendRequestedSchema,
  ResultDeletedSchema,
  ResultsExportedSchema,
  ResultRecordedSchema,
} from './gen/readiness/events/v1/results_pb';
import {
  StudentAttemptAdjustedSchema,
  StudentAttemptStartedSchema,
  StudentAttemptSubmittedSchema,
  StudentDeletedSchema,
  StudentExportRequestedSchema,
  StudentExtraTimeChangedSchema,
  StudentInvitationResentSchema,
  StudentInvitedSchema,
  StudentLtiLaunchAcceptedSchema,
  StudentReminderRequestedSchema,
} from './gen/readiness/events/v1/student_pb';

export * from './gen/readiness/events/v1/assessment_pb';
export * from './gen/readiness/events/v1/auth_pb';
export * from './gen/readiness/events/v1/envelope_pb';
export * from './gen/readiness/events/v1/export_pb';
export * from './gen/readiness/events/v1/integrations_pb';
export * from './gen/readiness/events/v1/report_pb';
export * from './gen/readiness/events/v1/results_pb';
export * from './gen/readiness/events/v1/student_pb';
export * from './gen/readiness/events/v1/timeline_pb';
export {
  CertificateIssuedSchema as CertificateIssuedV2Schema,
  type CertificateIssued as CertificateIssuedV2,
} from './gen/readiness/events/v2/report_pb';
export { create, timestampDate, timestampFromDate };

/** Every event name with the schema of its payload. Names follow <context>.<entity>.<past-verb>.v<N>. */
export const events = {
  'auth.admin.created.v1': AdminCreatedSchema,
  'auth.admin.updated.v1': AdminUpdatedSchema,
  'auth.admin.status-changed.v1': AdminStatusChangedSchema,
  'auth.admin.password-reset.v1': AdminPasswordResetSchema,
  'auth.admin.factor-changed.v1': AdminFactorChangedSchema,
  'auth.admin-alert.requested.v1': AdminAlertRequestedSchema,
  'assessment.version.published.v1': AssessmentVersionPublishedSchema,
  'assessment.question-file.changed.v1': AssessmentQuestionFileChangedSchema,
  'student.student.invited.v1': StudentInvitedSchema,
  'student.invitation.resent.v1': StudentInvitationResentSchema,
  'student.reminder.requested.v1': StudentReminderRequestedSchema,
  'student.student.deleted.v1': StudentDeletedSchema,
  'student.extra-time.changed.v1': StudentExtraTimeChangedSchema,
  'student.attempt.started.v1': StudentAttemptStartedSchema,
  'student.attempt.submitted.v1': StudentAttemptSubmittedSchema,
  'student.attempt.adjusted.v1': StudentAttemptAdjustedSchema,
  'student.lti-launch.accepted.v1': StudentLtiLaunchAcceptedSchema,
  'results.result.recorded.v1': ResultRecordedSchema,
  'results.result.deleted.v1': ResultDeletedSchema,
  'results.certificate.resend-requested.v1': CertificateResendRequestedSchema,
  'results.results.exported.v1': ResultsExportedSchema,
  'report.certificate.issued.v2': CertificateIssuedV2Schema,
  'report.report.downloaded.v1': ReportDownloadedSchema,
  'integrations.lti-platform.changed.v1': LtiPlatformChangedSchema,
  'student.export.requested.v1': StudentExportRequestedSchema,
  'results.student-export.answered.v1': StudentExportAnsweredSchema,
  'report.student-export.answered.v1': StudentExportAnsweredSchema,
  'notification.student-export.answered.v1': StudentExportAnsweredSchema,
  'integrations.student-export.answered.v1': StudentExportAnsweredSchema,
  'auth.student-export.answered.v1': StudentExportAnsweredSchema,
  'integrations.webhook-endpoint.changed.v1': WebhookEndpointChangedSchema,
  'integrations.webhook-endpoint.disabled.v1': WebhookEndpointDisabledSchema,
} as const satisfies Record<string, DescMessage>;

export type EventName = keyof typeof events;
export type EventPayload<N extends EventName> = MessageShape<(typeof events)[N]>;
/** What `create` takes to make an event's payload: its fields, each optional. */
export type EventInit<N extends EventName> = MessageInitShape<(typeof events)[N]>;

export function isEventName(name: string): name is EventName {
  return Object.prototype.hasOwnProperty.call(events, name);
}

export function encodePayload<N extends EventName>(name: N, payload: EventPayload<N>): Uint8Array {
  return toBinary(events[name] as DescMessage, payload as never);
}

/** An event's payload from its fields, by name: the schema is the table's, so no caller names it again. */
export function payloadOf<N extends EventName>(name: N, init: EventInit<N>): Uint8Array {
  const schema = events[name] as DescMessage;
  return toBinary(schema, create(schema, init as never));
}

export function decodePayload<N extends EventName>(name: N, bytes: Uint8Array): EventPayload<N> {
  return fromBinary(events[name] as DescMessage, bytes) as EventPayload<N>;
}

export interface EnvelopeFields {
  id: string;
  name: string;
  occurredAt: Date;
  correlationId?: string;
  traceparent?: string;
  tracestate?: string;
  source?: string;
  payload: Uint8Array;
}

export function encodeEnvelope(fields: EnvelopeFields): Uint8Array {
  return toBinary(
    EnvelopeSchema,
    create(EnvelopeSchema, {
      id: fields.id,
      name: fields.name,
      occurredAt: timestampFromDate(fields.occurredAt),
      correlationId: fields.correlationId ?? '',
      traceparent: fields.traceparent ?? '',
      tracestate: fields.tracestate ?? '',
      source: fields.source ?? '',
      payload: fields.payload,
    }),
  );
}

/** Throws on bytes that are not an envelope with an id and a name (a malformed message). */
export function decodeEnvelope(bytes: Uint8Array): EnvelopeFields {
  const env: Envelope = fromBinary(EnvelopeSchema, bytes);
  if (!env.id || !env.name) throw new Error('malformed envelope: id and name are required');
  return {
    id: env.id,
    name: env.name,
    occurredAt: env.occurredAt ? timestampDate(env.occurredAt) : new Date(0),
    correlationId: env.correlationId || undefined,
    traceparent: env.traceparent || undefined,
    tracestate: env.tracestate || undefined,
    source: env.source || undefined,
    payload: env.payload,
  };
}
export {
  boundOnDemand,
  consumerQueues,
  consumers,
  type ConsumerQueue,
  type QueueEvents,
  type QueueName,
} from './consumers';
export { queuesOf, topology, upstreamNames, type ServiceName, type ServiceTopology } from './topology';
export * from './shapes';
export * from './api-schemas';
export * from './audit-actions';
export * from './lti-launch-ticket';
