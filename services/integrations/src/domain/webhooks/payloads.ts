import { shownPercentage, timestampDate, type EventName, type EventPayload } from '@readiness/contracts';

/** The event types an endpoint can take, each from one of the product's own events. */
export const WEBHOOK_EVENTS = {
  'result.recorded': 'results.result.recorded.v1',
  'certificate.issued': 'report.certificate.issued.v2',
  'student.invited': 'student.student.invited.v1',
  'student.started': 'student.attempt.started.v1',
  'student.deleted': 'student.student.deleted.v1',
} as const satisfies Record<string, EventName>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as WebhookEventType[];
export type SourceEvent = (typeof WEBHOOK_EVENTS)[WebhookEventType];

/** The version of every body's shape; a change that is not only additive gets a new one (docs/webhooks.md). */
export const WEBHOOK_VERSION = 1;

/** Who an event is about, as the bodies that name the student carry it. */
const student = (e: { studentId: string; name: string; email: string }) => ({
  studentId: e.studentId,
  name: e.name,
  email: e.email,
});

const iso = (t: Parameters<typeof timestampDate>[0] | undefined) =>
  t ? timestampDate(t).toISOString() : null;

/**
 * What an endpoint is told of an event: its type, the shape's version, when it happened, and only the data its
 * receiver needs (no secrets, no links that sign someone in, no answers).
 */
export function webhookBody(
  type: WebhookEventType,
  event: EventPayload<SourceEvent>,
  occurredAt: Date,
): { studentId: string; body: Record<string, unknown> } {
  const envelope = (studentId: string, data: Record<string, unknown>) => ({
    studentId,
    body: { type, version: WEBHOOK_VERSION, timestamp: occurredAt.toISOString(), data },
  });
  switch (type) {
    case 'result.recorded': {
      const e = event as EventPayload<'results.result.recorded.v1'>;
      return envelope(e.studentId, {
        resultId: e.resultId,
        ...student(e),
        attemptNumber: e.attemptNumber,
        score: e.score,
        totalPoints: e.totalPoints,
        percentage: shownPercentage(e.score, e.totalPoints),
        passed: e.passed,
        passingScore: e.passingScore,
        assessmentCode: e.assessmentCode,
        assessmentTitle: e.assessmentTitle,
        assessmentVersion: e.version,
        completedAt: iso(e.completedAt),
      });
    }
    case 'certificate.issued': {
      const e = event as EventPayload<'report.certificate.issued.v2'>;
      return envelope(e.studentId, {
        resultId: e.resultId,
        ...student(e),
        assessmentCode: e.assessmentCode,
        assessmentTitle: e.assessmentTitle,
      });
    }
    case 'student.invited': {
      const e = event as EventPayload<'student.student.invited.v1'>;
      return envelope(e.studentId, {
        ...student(e),
        language: e.language || 'en',
        expiresAt: e.expiresAt || null,
      });
    }
    case 'student.started': {
      const e = event as EventPayload<'student.attempt.started.v1'>;
      return envelope(e.studentId, {
        studentId: e.studentId,
        attemptId: e.attemptId,
        attemptNumber: e.attemptNumber,
        assessmentVersion: e.version,
        startedAt: iso(e.startedAt),
        deadlineAt: iso(e.deadlineAt),
      });
    }
    case 'student.deleted': {
      const e = event as EventPayload<'student.student.deleted.v1'>;
      return envelope(e.studentId, { studentId: e.studentId });
    }
  }
}

/** The webhook event type of one of the product's events. */
export function webhookTypeOf(eventName: string): WebhookEventType | undefined {
  return WEBHOOK_EVENT_TYPES.find((t) => WEBHOOK_EVENTS[t] === eventName);
}
