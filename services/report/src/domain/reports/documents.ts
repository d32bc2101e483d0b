import { shownPercentage } from '@readiness/contracts';
import { AppError, notFound } from '@readiness/kit/errors';
import {
  findCertificate,
  findCertificateByCode,
  findResult,
  findVersion,
} from '../../data-access/reports-repository';
import { ARABIC_SCRIPT } from '../templates/fonts';
import { reportHtml } from '../templates/report';
import {
  hyphenated,
  noCertificate,
  normaliseCode,
  renderCertificate,
  resultNotFound,
  storePdf,
  storedOrRendered,
  type PdfFile,
  type ReportsDeps,
} from './context';

export interface Verification {
  valid: true;
  name: string;
  assessmentTitle: string;
  percentage: number;
  issuedAt: string;
}

/** The PDF report of one result. */
export async function reportPdf(deps: ReportsDeps, resultId: string): Promise<PdfFile> {
  const result = await findResult(deps.database.db, resultId);
  if (!result) throw resultNotFound();
  const version = await findVersion(deps.database.db, result.versionId);
  // The report is English; a name in Arabic script is still written in its letters.
  const fontFaces = ARABIC_SCRIPT.test(result.name)
    ? `${deps.fontFaces}\n${deps.arabicFontFaces}`
    : deps.fontFaces;
  const pdf = await deps.renderer.render(
    reportHtml({ result, version, providerName: deps.providerName, generatedAt: new Date() }, fontFaces),
  );
  return { pdf, fileName: `assessment-report-${hyphenated(result.name)}.pdf` };
}

/** The stored certificate of a passed result (rendered and stored now when the issuer has not yet). */
export async function certificatePdf(deps: ReportsDeps, resultId: string): Promise<PdfFile> {
  const result = await findResult(deps.database.db, resultId);
  if (!result) throw resultNotFound();
  const certificate = result.passed ? await findCertificate(deps.database.db, resultId) : undefined;
  if (!certificate) throw notFound('This result did not pass, so it has no certificate', 'not_passed');
  const fileName = `certificate-${hyphenated(result.name)}-${result.email}.pdf`;
  if (certificate.status === 'issued') return { pdf: await storedOrRendered(deps, certificate), fileName };
  const pdf = await renderCertificate(deps, certificate);
  await storePdf(deps, certificate.objectKey, pdf);
  return { pdf, fileName };
}

/** Whether a code belongs to an issued certificate that still stands; only what the certificate shows. */
export async function verifyCertificate(deps: ReportsDeps, code: string): Promise<Verification> {
  const certificate = await findCertificateByCode(deps.database.db, normaliseCode(code));
  if (!certificate || certificate.status !== 'issued') throw noCertificate();
  return {
    valid: true,
    name: certificate.name,
    assessmentTitle: certificate.assessmentTitle,
    percentage: shownPercentage(certificate.score, certificate.totalPoints),
    issuedAt: certificate.issuedAt!.toISOString(),
  };
}

/** The certificate behind a signed link (the student's own copy); an altered or expired link finds nothing. */
export async function signedCertificate(
  deps: ReportsDeps,
  link: { code: string; expires: number; signature: string },
): Promise<PdfFile> {
  const normalised = normaliseCode(link.code);
  if (!deps.links.valid(normalised, link.expires, link.signature)) {
    throw new AppError('link_expired', 'This download link has expired or is not valid', 403);
  }
  const certificate = await findCertificateByCode(deps.database.db, normalised);
  if (!certificate || certificate.status !== 'issued') throw noCertificate();
  return {
    pdf: await deps.storage.getBuffer(certificate.objectKey),
    fileName: `certificate-${hyphenated(certificate.name)}.pdf`,
  };
}
