import { createHash, randomUUID } from 'node:crypto';
import { CertificateIssuedV2Schema, create, encodePayload, timestampFromDate } from '@readiness/contracts';
import type { BusMessage } from '@readiness/kit/bus';
import type { Harness } from './harness';

/** Certificate events as the report service publishes them, and the PDFs they name in its bucket. */

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
export const pdfOf = (label: string) => Buffer.from(`%PDF-1.4\n% the certificate of ${label}\n%%EOF\n`);

interface Facts {
  id?: string;
  language?: string;
  resend?: boolean;
  name?: string;
  email?: string;
  studentId?: string;
  resultId?: string;
  objectKey?: string;
  /** The title the certificate prints: in its language when the version translates it. */
  assessmentTitle?: string;
  /** The result's points (v2); left out, as a report service older than them leaves them: 92 %. */
  score?: number;
  totalPoints?: number;
}

/** What the event says besides where the PDF is stored. */
function common(f: Facts) {
  const studentId = f.studentId ?? randomUUID();
  const resultId = f.resultId ?? randomUUID();
  return {
    resultId,
    studentId,
    name: f.name ?? 'Grace <Hopper>',
    email: f.email ?? 'grace@example.edu',
    assessmentCode: 'RDY-7K3F-92QX',
    assessmentTitle: f.assessmentTitle ?? 'Distance Learning Readiness',
    percentage: 92,
    objectKey: f.objectKey ?? `certificates/${studentId}/${resultId}.pdf`,
    downloadUrl: 'https://readiness.example.edu/api/certificates/RDY-7K3F-92QX/pdf?expires=1&signature=x',
    downloadUrlExpiresAt: timestampFromDate(new Date()),
    verificationUrl: 'https://readiness.example.edu/verify/RDY-7K3F-92QX',
    credentialUrl: 'https://readiness.example.edu/api/verify/RDY-7K3F-92QX/credential',
    issuedAt: timestampFromDate(new Date()),
    resend: f.resend ?? false,
  };
}

/** The event the report service sends: where the PDF is stored, its size and its digest. */
export function issuedV2(f: Facts & { pdf: Buffer }): BusMessage & { objectKey: string } {
  const fields = common(f);
  return {
    id: f.id ?? randomUUID(),
    name: 'report.certificate.issued.v2',
    occurredAt: new Date(),
    source: 'report',
    objectKey: fields.objectKey,
    payload: encodePayload(
      'report.certificate.issued.v2',
      create(CertificateIssuedV2Schema, {
        ...fields,
        pdfSize: f.pdf.length,
        pdfSha256: sha256(f.pdf),
        language: f.language ?? '',
        score: f.score ?? 0,
        totalPoints: f.totalPoints ?? 0,
        ...(f.totalPoints ? { percentage: Math.round(((f.score ?? 0) * 100) / f.totalPoints) } : {}),
      }),
    ),
  };
}

export const store = (h: Harness, key: string, pdf: Buffer) =>
  h.storage.put(key, pdf, { contentType: 'application/pdf' });
