import { enqueue } from '@readiness/kit/outbox';
import { findCertificate } from '../../data-access/reports-repository';
import { issuedEvent, storedOrRendered, type ReportsDeps } from './context';

/** One more certificate mail per request (an event per request); nothing for a result without one. */
export async function resendCertificate(
  deps: ReportsDeps,
  request: { resultId: string; actorId: string },
  eventId: string,
): Promise<void> {
  const certificate = await findCertificate(deps.database.db, request.resultId);
  if (!certificate || certificate.status !== 'issued') {
    deps.logger.warn(
      { resultId: request.resultId, status: certificate?.status ?? 'none' },
      'resend requested for a certificate not issued; its first mail carries it',
    );
    return;
  }
  const pdf = await storedOrRendered(deps, certificate);
  await deps.handleOnce('report.resend-requested', eventId, async (tx) => {
    if (!(await findCertificate(tx, request.resultId))) return;
    await enqueue(
      tx,
      issuedEvent(deps, certificate, pdf, certificate.issuedAt!, { actorId: request.actorId }),
    );
  });
}
