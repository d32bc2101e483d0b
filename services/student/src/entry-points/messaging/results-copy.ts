import type { ServiceContext } from '@readiness/kit/runtime';
import { on } from '@readiness/kit/runtime';
import type { Attempts } from '../../domain/attempts';

export const RESULT_RECORDED_QUEUE = 'student.result-recorded';
export const RESULT_DELETED_QUEUE = 'student.result-deleted';
export const CERTIFICATE_ISSUED_QUEUE = 'student.certificate-issued';

/**
 * The student's copy of their results: kept once per event and per result id (the processed-messages row and the
 * copy are written in one statement), then the submits waiting on this replica are woken with it.
 */
export const resultsCopyConsumers = (
  attempts: Attempts,
  handleOnce: ServiceContext<unknown>['handleOnce'],
) => [
  on('results.result.recorded.v1', {
    queue: RESULT_RECORDED_QUEUE,
    async handle(event, meta) {
      const copy = attempts.resultCopy(event);
      const { duplicate } = await handleOnce(
        RESULT_RECORDED_QUEUE,
        { eventId: meta.id, key: event.resultId },
        { writes: (firstSight) => attempts.recordResult(copy, firstSight) },
      );
      attempts.resultRecorded(event.attemptId, copy, !duplicate);
    },
  }),
  on('results.result.deleted.v1', {
    queue: RESULT_DELETED_QUEUE,
    async handle(event, meta) {
      await handleOnce(RESULT_DELETED_QUEUE, meta.id, (tx) => attempts.dropResult(tx, event.resultId));
    },
  }),
  // The signed certificate link is kept with the result's copy (one statement, the same whatever the number of
  // deliveries); one issued before the copy arrived waits for it.
  on('report.certificate.issued.v2', {
    queue: CERTIFICATE_ISSUED_QUEUE,
    handle: (event) => attempts.recordCertificate(event),
  }),
];
