import { CertificateIssuedSchema, create, encodePayload, timestampFromDate } from '@readiness/contracts';
import type { CertificateRecord } from '../data-access/records';

export const CERTIFICATE_ISSUED = 'report.certificate.issued.v1' as const;

export interface IssuedFacts {
  certificate: CertificateRecord;
  pdf: Buffer;
  issuedAt: Date;
  downloadUrl: string;
  downloadUrlExpiresAt: Date;
  verificationUrl: string;
  resend: boolean;
  actorId: string;
}

export const issuedPayload = (f: IssuedFacts) =>
  encodePayload(
    CERTIFICATE_ISSUED,
    create(CertificateIssuedSchema, {
      resultId: f.certificate.resultId,
      studentId: f.certificate.studentId,
      name: f.certificate.name,
      email: f.certificate.email,
      assessmentCode: f.certificate.code,
      assessmentTitle: f.certificate.assessmentTitle,
      percentage: f.certificate.percentage,
      objectKey: f.certificate.objectKey,
      pdf: f.pdf,
      downloadUrl: f.downloadUrl,
      downloadUrlExpiresAt: timestampFromDate(f.downloadUrlExpiresAt),
      verificationUrl: f.verificationUrl,
      issuedAt: timestampFromDate(f.issuedAt),
      resend: f.resend,
      actorId: f.actorId,
    }),
  );
