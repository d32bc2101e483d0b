import type { Database, Tx } from '@readiness/kit/db';
import { AppError, notFound } from '@readiness/kit/errors';
import type { Logger } from '@readiness/kit/logger';
import { enqueue, type MessageKey } from '@readiness/kit/outbox';
import type { ObjectStore } from '@readiness/kit/storage';
import {
  addCertificate,
  claimPending,
  deleteResult,
  deleteStudent,
  findCertificate,
  findCertificateByCode,
  findResult,
  findVersion,
  markIssued,
  recordFailure,
  saveResult,
  saveVersion,
} from '../data-access/reports-repository';
import type { RenderOptions } from '../rendering/renderer';
import { CERTIFICATE_ISSUED, issuedPayload } from './events';
import type { LinkSigner } from './links';
import type { CertificateRecord, ResultCopy, VersionCopy } from '../data-access/records';
import { certificateHtml } from './templates/certificate';
import { reportHtml } from './templates/report';

/** What the domain needs of the PDF renderer. */
export interface PdfRenderer {
  render(html: string, options?: RenderOptions): Promise<Buffer>;
  status(): { available: boolean };
}

export interface ReportsDeps {
  database: Database;
  storage: ObjectStore;
  renderer: PdfRenderer;
  fontFaces: string;
  links: LinkSigner;
  logger: Logger;
  handleOnce<T>(
    consumer: string,
    message: string | MessageKey,
    effect: (tx: Tx) => Promise<T>,
  ): Promise<{ duplicate: boolean; result?: T }>;
  notifyOutbox(): void;
  providerName: string;
  signatory: string;
  linkTtlHours: number;
  /** Longer than a render: a claim older than this belongs to a worker that died. */
  renderLeaseSeconds: number;
  /** Certificates rendered at once by the issuer (the renderer's pool size). */
  concurrency: number;
}

export interface PdfFile {
  pdf: Buffer;
  fileName: string;
}

export interface Verification {
  valid: true;
  name: string;
  assessmentTitle: string;
  percentage: number;
  issuedAt: string;
}

const RETRY_AFTER_SECONDS = 30;

/** `Ada Lovelace` → `Ada-Lovelace`, as SPEC §7 names the files. */
const hyphenated = (name: string) => name.trim().replace(/\s+/g, '-');

/** Every certificate of a student under one prefix, so erasing the student erases them all. */
export const certificateKey = (studentId: string, resultId: string) =>
  `certificates/${encodeURIComponent(studentId)}/${encodeURIComponent(resultId)}.pdf`;

/** Codes are matched as they are printed: upper case, no spaces around them. */
export const normaliseCode = (code: string) => code.trim().toUpperCase();

const NO_CERTIFICATE = () => notFound('No certificate has this code');
const RESULT_NOT_FOUND = () => notFound('Result not found');

/**
 * The report service's use cases: keep copies of versions and results, issue each passed result's certificate
 * exactly once (render, store, announce), mail it again on request, serve PDFs and verify codes, erase on request.
 */
export function createReports(deps: ReportsDeps) {
  const { database, storage, renderer, logger } = deps;
  const db = database.db;

  const renderCertificate = async (c: CertificateRecord) =>
    renderer.render(
      await certificateHtml(
        {
          name: c.name,
          assessmentTitle: c.assessmentTitle,
          percentage: c.percentage,
          awardedAt: c.awardedAt,
          code: c.code,
          verificationUrl: deps.links.verificationUrl(c.code),
          providerName: deps.providerName,
          signatory: deps.signatory,
        },
        deps.fontFaces,
      ),
      { landscape: true },
    );

  const store = (key: string, pdf: Buffer) => storage.put(key, pdf, { contentType: 'application/pdf' });

  const issuedEvent = (
    c: CertificateRecord,
    pdf: Buffer,
    issuedAt: Date,
    resend: { actorId: string } | undefined,
  ) => {
    const expiresAt = new Date(Date.now() + deps.linkTtlHours * 3600_000);
    return {
      name: CERTIFICATE_ISSUED,
      payload: issuedPayload({
        certificate: c,
        pdf,
        issuedAt,
        downloadUrl: deps.links.downloadUrl(c.code, expiresAt),
        downloadUrlExpiresAt: expiresAt,
        verificationUrl: deps.links.verificationUrl(c.code),
        resend: Boolean(resend),
        actorId: resend?.actorId ?? '',
      }),
    };
  };

  let sweeping: Promise<void> | undefined;
  let again = false;

  /** Renders, stores and announces one claimed certificate; the announcement commits with its `issued` mark. */
  async function issue(c: CertificateRecord): Promise<void> {
    try {
      const pdf = await renderCertificate(c);
      await store(c.objectKey, pdf);
      const issued = await database.transaction(async (tx) => {
        const at = await markIssued(tx, c.resultId);
        if (at) await enqueue(tx, issuedEvent(c, pdf, at, undefined));
        return at;
      });
      if (issued) {
        deps.notifyOutbox();
        logger.info({ resultId: c.resultId }, 'certificate issued');
      } else if (!(await findCertificate(db, c.resultId))) {
        // Erased while it was rendering: the PDF just stored must not outlive it.
        await storage.remove(c.objectKey);
      }
    } catch (err) {
      logger.warn({ err, resultId: c.resultId }, 'certificate not rendered yet; it stays pending');
      await recordFailure(db, c.resultId, (err as Error).message, RETRY_AFTER_SECONDS).catch(() => undefined);
    }
  }

  /** Takes pending certificates one at a time and issues them, until none is free or the browser is gone. */
  async function worker(): Promise<void> {
    while (renderer.status().available) {
      const [certificate] = await claimPending(db, { leaseSeconds: deps.renderLeaseSeconds, limit: 1 });
      if (!certificate) return;
      await issue(certificate);
    }
  }

  /** Issues every pending certificate whose lease is free, with as many workers as the renderer has pages. */
  async function sweep(): Promise<void> {
    do {
      again = false;
      await Promise.all(Array.from({ length: deps.concurrency }, worker));
    } while (again);
  }

  return {
    rememberVersion: (version: VersionCopy) => saveVersion(db, version),

    /** Keeps the result; a pass gets its certificate, pending until the issuer renders it. */
    async recordResult(result: ResultCopy, eventId: string): Promise<void> {
      await deps.handleOnce('report.result-recorded', { eventId, key: result.resultId }, async (tx) => {
        await saveResult(tx, result);
        if (result.passed) {
          await addCertificate(tx, {
            resultId: result.resultId,
            studentId: result.studentId,
            code: normaliseCode(result.assessmentCode),
            objectKey: certificateKey(result.studentId, result.resultId),
            awardedAt: result.completedAt,
          });
        }
      });
    },

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

    /** One more certificate mail per request (an event per request); nothing for a result without one. */
    async resend(request: { resultId: string; actorId: string }, eventId: string): Promise<void> {
      const certificate = await findCertificate(db, request.resultId);
      if (!certificate || certificate.status !== 'issued') {
        logger.warn(
          { resultId: request.resultId, status: certificate?.status ?? 'none' },
          'resend requested for a certificate not issued; its first mail carries it',
        );
        return;
      }
      const pdf = await storage.getBuffer(certificate.objectKey).catch(async (err: unknown) => {
        if (!(err instanceof AppError && err.httpStatus === 404)) throw err;
        const rendered = await renderCertificate(certificate);
        await store(certificate.objectKey, rendered);
        return rendered;
      });
      await deps.handleOnce('report.resend-requested', eventId, async (tx) => {
        if (!(await findCertificate(tx, request.resultId))) return;
        await enqueue(tx, issuedEvent(certificate, pdf, certificate.issuedAt!, { actorId: request.actorId }));
      });
    },

    /** Erases a result, its certificate (which stops verifying) and the stored PDF. */
    async eraseResult(resultId: string): Promise<void> {
      const certificate = await findCertificate(db, resultId);
      if (certificate) await storage.remove(certificate.objectKey);
      await database.transaction((tx) => deleteResult(tx, resultId));
    },

    /** Erases every result, certificate and PDF of a student. */
    async eraseStudent(studentId: string): Promise<void> {
      await storage.removePrefix(`certificates/${encodeURIComponent(studentId)}/`);
      await database.transaction((tx) => deleteStudent(tx, studentId));
    },

    /** The PDF report of one result. */
    async reportPdf(resultId: string): Promise<PdfFile> {
      const result = await findResult(db, resultId);
      if (!result) throw RESULT_NOT_FOUND();
      const version = await findVersion(db, result.versionId);
      const pdf = await renderer.render(
        reportHtml(
          { result, version, providerName: deps.providerName, generatedAt: new Date() },
          deps.fontFaces,
        ),
      );
      return { pdf, fileName: `assessment-report-${hyphenated(result.name)}.pdf` };
    },

    /** The stored certificate of a passed result (rendered and stored now when the issuer has not yet). */
    async certificatePdf(resultId: string): Promise<PdfFile> {
      const result = await findResult(db, resultId);
      if (!result) throw RESULT_NOT_FOUND();
      const certificate = result.passed ? await findCertificate(db, resultId) : undefined;
      if (!certificate) {
        throw notFound('This result did not pass, so it has no certificate', 'not_passed');
      }
      const fileName = `certificate-${hyphenated(result.name)}-${result.email}.pdf`;
      if (certificate.status === 'issued') {
        try {
          return { pdf: await storage.getBuffer(certificate.objectKey), fileName };
        } catch (err) {
          if (!(err instanceof AppError && err.httpStatus === 404)) throw err;
        }
      }
      const pdf = await renderCertificate(certificate);
      await store(certificate.objectKey, pdf);
      return { pdf, fileName };
    },

    /** Whether a code belongs to an issued certificate that still stands; only what the certificate shows. */
    async verify(code: string): Promise<Verification> {
      const certificate = await findCertificateByCode(db, normaliseCode(code));
      if (!certificate || certificate.status !== 'issued') throw NO_CERTIFICATE();
      return {
        valid: true,
        name: certificate.name,
        assessmentTitle: certificate.assessmentTitle,
        percentage: certificate.percentage,
        issuedAt: certificate.issuedAt!.toISOString(),
      };
    },

    /** The certificate behind a signed link (the student's own copy); an altered or expired link finds nothing. */
    async signedCertificate(code: string, expires: number, signature: string): Promise<PdfFile> {
      const normalised = normaliseCode(code);
      if (!deps.links.valid(normalised, expires, signature)) {
        throw new AppError('link_expired', 'This download link has expired or is not valid', 403);
      }
      const certificate = await findCertificateByCode(db, normalised);
      if (!certificate || certificate.status !== 'issued') throw NO_CERTIFICATE();
      return {
        pdf: await storage.getBuffer(certificate.objectKey),
        fileName: `certificate-${hyphenated(certificate.name)}.pdf`,
      };
    },
  };
}

export type Reports = ReturnType<typeof createReports>;
