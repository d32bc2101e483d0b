import { shownPercentage } from '@readiness/contracts';
import type { Database } from '@readiness/kit/db';
import { notFound } from '@readiness/kit/errors';
import type { SigningKeys } from '@readiness/kit/auth';
import type { Logger } from '@readiness/kit/logger';
import type { ServiceContext } from '@readiness/kit/runtime';
import { isMissingObject, type ObjectStore } from '@readiness/kit/storage';
import type { CertificateRecord } from '../../data-access/records';
import type { RenderOptions } from '../../rendering/renderer';
import { credentialUrl } from '../credentials/open-badge';
import { CERTIFICATE_ISSUED, issuedPayload } from '../events';
import type { LinkSigner } from '../links';
import type { CertificateDesign, CertificateFields } from '../templates/certificate';

/** What the domain needs of the PDF renderer. */
export interface PdfRenderer {
  render(html: string, options?: RenderOptions): Promise<Buffer>;
  status(): { available: boolean };
}

/** What the domain needs of the certificate press (see `rendering/certificate-press`). */
export interface CertificatePrinter {
  print(design: CertificateDesign, fields: CertificateFields): Promise<Buffer>;
}

export interface ReportsDeps {
  database: Database;
  storage: ObjectStore;
  renderer: PdfRenderer;
  certificates: CertificatePrinter;
  fontFaces: string;
  /** The Arabic faces, added to a report whose student's name is in Arabic script. */
  arabicFontFaces: string;
  links: LinkSigner;
  /** The Open Badges credentials' keys (RS256) and issuer: PUBLIC_ORIGIN without its trailing slash. */
  credentials: { keys: SigningKeys; origin: string };
  logger: Logger;
  handleOnce: ServiceContext<unknown>['handleOnce'];
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

/** `Ada Lovelace` → `Ada-Lovelace`, as SPEC §7 names the files. */
export const hyphenated = (name: string) => name.trim().replace(/\s+/g, '-');

/** Every certificate of a student under one prefix, so erasing the student erases them all. */
export const certificatePrefix = (studentId: string) => `certificates/${encodeURIComponent(studentId)}/`;
export const certificateKey = (studentId: string, resultId: string) =>
  `${certificatePrefix(studentId)}${encodeURIComponent(resultId)}.pdf`;

/** Codes are matched as they are printed: upper case, no spaces around them. */
export const normaliseCode = (code: string) => code.trim().toUpperCase();

export const noCertificate = () => notFound('No certificate has this code');
export const resultNotFound = () => notFound('Result not found');

export const renderCertificate = (deps: ReportsDeps, c: CertificateRecord) =>
  deps.certificates.print(
    {
      language: c.language,
      assessmentTitle: c.assessmentTitle,
      providerName: deps.providerName,
      signatory: deps.signatory,
      verificationBase: deps.links.verificationUrl(''),
    },
    {
      name: c.name,
      percentage: shownPercentage(c.score, c.totalPoints),
      awardedAt: c.awardedAt,
      code: c.code,
    },
  );

export const storePdf = (deps: ReportsDeps, key: string, pdf: Buffer) =>
  deps.storage.put(key, pdf, { contentType: 'application/pdf' });

/** The certificate's PDF, rendered and stored again when its object is missing from the bucket. */
export async function storedOrRendered(deps: ReportsDeps, c: CertificateRecord): Promise<Buffer> {
  try {
    return await deps.storage.getBuffer(c.objectKey);
  } catch (err) {
    if (!isMissingObject(err)) throw err;
  }
  const pdf = await renderCertificate(deps, c);
  await storePdf(deps, c.objectKey, pdf);
  return pdf;
}

/** The certificate-issued event: where the PDF is stored and its digest, the student's signed download link and the verification page. */
export function issuedEvent(
  deps: ReportsDeps,
  c: CertificateRecord,
  pdf: Buffer,
  issuedAt: Date,
  resend: { actorId: string } | undefined,
) {
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
      credentialUrl: credentialUrl(deps.credentials.origin, c.code),
      resend: Boolean(resend),
      actorId: resend?.actorId ?? '',
    }),
  };
}
