import { createHash } from 'node:crypto';
import {
  CertificateIssuedV2Schema,
  ReportDownloadedSchema,
  create,
  encodePayload,
  timestampFromDate,
  type ReportDocument,
} from '@readiness/contracts';
import type { CertificateRecord } from '../data-access/records';

/** v2: the PDF stays in object storage, the event names it (key, size, SHA-256). */
export const CERTIFICATE_ISSUED = 'report.certificate.issued.v2' as const;
export const REPORT_DOWNLOADED = 'report.report.downloaded.v1' as const;

/** A PDF an admin downloaded, for the audit log. */
export const downloadedPayload = (d: {
  actorId: string;
  resultId: string;
  document: ReportDocument;
  fileName: string;
}) => encodePayload(REPORT_DOWNLOADED, create(ReportDownloadedSchema, d));

export interface IssuedFacts {
  certificate: CertificateRecord;
  pdf: Buffer;
  issuedAt: Date;
  downloadUrl: string;
  downloadUrlExpiresAt: Date;
  verificationUrl: string;
  credentialUrl: string;
  resend: boolean;
  actorId: string;
}

/** The event names the stored PDF by its key, length and digest; the bytes stay in object storage. */
export const issuedPayload = (f: IssuedFacts) =>
  encodePayload(
    CERTIFICATE_ISSUED,
    create(CertificateIssuedV2Schema, {
      resultId: f.certificate.resultId,
      studentId: f.certificate.studentId,
      name: f.certificate.name,
      email: f.certificate.email,
      assessmentCode: f.certificate.code,
      assessmentTitle: f.certificate.assessmentTitle,
      percentage: f.certificate.percentage,
      score: f.certificate.score,
      totalPoints: f.certificate.totalPoints,
      objectKey: f.certificate.objectKey,
      pdfSize: f.pdf.length,
      pdfSha256: createHash('sha256').update(f.pdf).digest('hex'),
      downloadUrl: f.downloadUrl,
      downloadUrlExpiresAt: timestampFromDate(f.downloadUrlExpiresAt),
      verificationUrl: f.verificationUrl,
      credentialUrl: f.credentialUrl,
      issuedAt: timestampFromDate(f.issuedAt),
      resend: f.resend,
      actorId: f.actorId,
      language: f.certificate.language,
    }),
  );
