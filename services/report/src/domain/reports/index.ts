import type { ReportDocument } from '@readiness/contracts';
import type { Tx } from '@readiness/kit/db';
import { enqueue } from '@readiness/kit/outbox';
import { REPORT_DOWNLOADED, downloadedPayload } from '../events';
import { pendingBacklog, saveVersion } from '../../data-access/reports-repository';
import type { ResultCopy, VersionCopy } from '../../data-access/records';
import type { ReportsDeps } from './context';
import { eraseResult, eraseStudent, recordResult } from './copies';
import { certificatePdf, reportPdf, signedCertificate, verifyCertificate } from './documents';
import { certificateCredential, checkCredential } from './credentials';
import { certificateIssuer } from './issue-certificates';
import { resendCertificate } from './resend-certificate';
import { studentExportFiles } from './student-export';

export { certificateKey, normaliseCode, type PdfFile, type PdfRenderer, type ReportsDeps } from './context';
export type { Verification } from './documents';
export type { CredentialCheck } from './credentials';

/**
 * The report service's use cases, one module each: keep copies of versions and results, issue each passed
 * result's certificate exactly once (render, store, announce), mail it again on request, serve PDFs and verify
 * codes, erase on request.
 */
export function createReports(deps: ReportsDeps) {
  const issuer = certificateIssuer(deps);
  return {
    rememberVersion: (version: VersionCopy) => saveVersion(deps.database.db, version),
    recordResult: (result: ResultCopy, eventId: string) => recordResult(deps, result, eventId),
    issuePending: issuer.issuePending,
    backlog: () => pendingBacklog(deps.database.db),
    settled: issuer.settled,
    resend: (request: { resultId: string; actorId: string }, eventId: string) =>
      resendCertificate(deps, request, eventId),
    eraseResult: (resultId: string) => eraseResult(deps, resultId),
    eraseStudent: (studentId: string) => eraseStudent(deps, studentId),
    /** Everything the service holds about a student, for their subject-access export. */
    studentExportFiles: (tx: Tx, studentId: string) => studentExportFiles(deps, tx, studentId),
    reportPdf: (resultId: string) => reportPdf(deps, resultId),
    certificatePdf: (resultId: string) => certificatePdf(deps, resultId),
    /** A PDF handed to an admin, announced for the audit log. */
    downloaded: (d: { actorId: string; resultId: string; document: ReportDocument; fileName: string }) =>
      deps.database.transaction(async (tx) => {
        await enqueue(tx, { name: REPORT_DOWNLOADED, payload: downloadedPayload(d) });
      }),
    verify: (code: string) => verifyCertificate(deps, code),
    signedCertificate: (code: string, expires: number, signature: string) =>
      signedCertificate(deps, { code, expires, signature }),
    credential: (code: string) => certificateCredential(deps, code),
    checkCredential: (token: string) => checkCredential(deps, token),
    /** The public keys that check the credentials, served at /api/verify/jwks. */
    credentialKeys: () => deps.credentials.keys.jwks,
  };
}

export type Reports = ReturnType<typeof createReports>;
