import { conflict, notFound } from '@readiness/kit/errors';
import { enqueue } from '@readiness/kit/outbox';
import { audit, deleteResult, findResult } from '../data-access/results-repository';
import { CERTIFICATE_RESEND_REQUESTED, RESULT_DELETED, deletedPayload, resendPayload } from './events';
import { NOT_PASSED_MESSAGE, RESULT_NOT_FOUND_MESSAGE, type ResultsDeps } from './results';

/** Deletes a result; the other services drop their copies from its event. */
export async function removeResult(deps: ResultsDeps, id: string, actorId: string): Promise<void> {
  await deps.database.transaction(async (tx) => {
    const gone = await deleteResult(tx, id);
    if (!gone) throw notFound(RESULT_NOT_FOUND_MESSAGE, 'result_not_found');
    await enqueue(tx, { name: RESULT_DELETED, payload: deletedPayload(gone, actorId) });
    await audit(tx, { actorId, action: 'result.deleted', resultId: id, studentId: gone.studentId });
  });
}

/** Asks the report service to mail a passed result's certificate again. */
export async function resendCertificate(deps: ResultsDeps, id: string, actorId: string): Promise<void> {
  await deps.database.transaction(async (tx) => {
    const result = await findResult(tx, id);
    if (!result) throw notFound(RESULT_NOT_FOUND_MESSAGE, 'result_not_found');
    if (!result.passed) throw conflict(NOT_PASSED_MESSAGE, 'not_passed');
    await enqueue(tx, { name: CERTIFICATE_RESEND_REQUESTED, payload: resendPayload(result, actorId) });
    await audit(tx, {
      actorId,
      action: 'certificate.resend-requested',
      resultId: id,
      studentId: result.studentId,
    });
  });
}
