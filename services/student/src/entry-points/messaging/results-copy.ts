import type { ServiceContext } from '@readiness/kit/runtime';
import { on } from '@readiness/kit/runtime';
import type { Attempts } from '../../domain/attempts';

/**
 * The student's copy of their results: kept once per event and per result id (the processed-messages row and the
 * copy are written in one statement), then the submits waiting on this replica are woken with it.
 */
export const resultsCopyConsumers = (
  attempts: Attempts,
  handleOnce: ServiceContext<unknown>['handleOnce'],
) => [
  on('student.result-recorded', {
    async handle(event, meta) {
      const copy = attempts.resultCopy(event);
      const { duplicate } = await handleOnce(
        'student.result-recorded',
        { eventId: meta.id, key: event.resultId },
        attempts.recordResult(copy),
      );
      attempts.resultRecorded(event.attemptId, copy, !duplicate);
    },
  }),
  on('student.result-deleted', {
    async handle(event, meta) {
      await handleOnce('student.result-deleted', meta.id, (tx) => attempts.dropResult(tx, event.resultId));
    },
  }),
  // The signed certificate link is kept with the result's copy (one statement, the same whatever the number of
  // deliveries); one issued before the copy arrived waits for it.
  on('student.certificate-issued', {
    handle: (event) => attempts.recordCertificate(event),
  }),
];
