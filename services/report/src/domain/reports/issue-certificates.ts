import {
  claimPending,
  findCertificate,
  markIssued,
  recordFailure,
} from '../../data-access/reports-repository';
import { contextOf, traced } from '@readiness/kit/tracing';
import type { CertificateRecord } from '../../data-access/records';
import { issuedEvent, renderCertificate, storePdf, type ReportsDeps } from './context';

const RETRY_AFTER_SECONDS = 30;

/**
 * Issues each passed result's certificate exactly once: render, store, and announce it in the statement that
 * marks it issued. A sweep takes pending certificates as many at a time as the renderer has pages.
 */
export function certificateIssuer(deps: ReportsDeps) {
  const { database, storage, renderer, logger } = deps;
  let sweeping: Promise<void> | undefined;
  let again = false;

  /**
   * Renders, stores and announces one claimed certificate; the announcement is written with its `issued` mark.
   * Traced, in a span of the trace of the result that earned it (the announcement then continues that trace).
   */
  function issue(c: CertificateRecord): Promise<void> {
    return traced('certificate issue', { parent: contextOf(c.trace) }, () => issueNow(c));
  }

  async function issueNow(c: CertificateRecord): Promise<void> {
    try {
      const pdf = await renderCertificate(deps, c);
      await storePdf(deps, c.objectKey, pdf);
      const at = new Date();
      const issued = await markIssued(database.db, c.resultId, at, issuedEvent(deps, c, pdf, at, undefined));
      if (issued) {
        logger.info({ resultId: c.resultId }, 'certificate issued');
      } else if (!(await findCertificate(database.db, c.resultId))) {
        // Erased while it was rendering: the PDF just stored must not outlive it.
        await storage.remove(c.objectKey);
      }
    } catch (err) {
      logger.warn({ err, resultId: c.resultId }, 'certificate not rendered yet; it stays pending');
      await recordFailure(database.db, c.resultId, (err as Error).message, RETRY_AFTER_SECONDS).catch(
        () => undefined,
      );
    }
  }

  /**
   * Claims pending certificates as many at a time as the renderer has pages, in one statement, and issues them side
   * by side; again until fewer than that were free or the browser is gone.
   */
  async function sweep(): Promise<void> {
    do {
      again = false;
      while (renderer.status().available) {
        const batch = await claimPending(database.db, {
          leaseSeconds: deps.renderLeaseSeconds,
          limit: deps.concurrency,
        });
        await Promise.all(batch.map(issue));
        if (batch.length < deps.concurrency) break;
      }
    } while (again);
  }

  return {
    /** Starts a sweep, or asks the running one to look again when it ends. Never throws. */
    issuePending(): Promise<void> {
      if (sweeping) {
        again = true;
        return sweeping;
      }
      sweeping = sweep()
        .catch((err: unknown) => logger.error({ err }, 'issuing pending certificates failed'))
        .finally(() => {
          sweeping = undefined;
        });
      return sweeping;
    },

    /** Resolves once the sweep in progress, if any, has ended (a graceful stop). */
    settled: (): Promise<void> => sweeping ?? Promise.resolve(),
  };
}
