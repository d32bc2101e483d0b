import { createHash } from 'node:crypto';
import { isMissingObject, type ObjectStore } from '@readiness/kit/storage';

/** What a certificate-issued v2 event says of the PDF it names. */
export interface StoredPdf {
  objectKey: string;
  pdfSize: number;
  pdfSha256: string;
}

/** A PDF that no retry can bring: the event names something that is not a certificate. Given up at once. */
export class UnusableAttachmentError extends Error {
  override name = 'UnusableAttachmentError';
}

/**
 * The report service's certificate keys, `certificates/{student id}/{result id}.pdf`: the only objects this service
 * reads, so an event cannot make it mail a student's uploaded answer or an assessment's file.
 */
const CERTIFICATE_KEY =
  /^certificates\/[A-Za-z0-9_~%-][A-Za-z0-9._~%-]*\/[A-Za-z0-9_~%-][A-Za-z0-9._~%-]*\.pdf$/;

/**
 * The certificate PDF an event names, read from object storage and checked against the event's size and SHA-256:
 * a missing object or different bytes (the object was replaced after the event was sent) throw for the bus to
 * retry, and after the last attempt the mail is given up; a student is never mailed a PDF the event did not name.
 */
export async function storedCertificatePdf(storage: ObjectStore, stored: StoredPdf): Promise<Buffer> {
  if (!CERTIFICATE_KEY.test(stored.objectKey)) {
    throw new UnusableAttachmentError(`not a certificate's object key: ${JSON.stringify(stored.objectKey)}`);
  }
  if (!/^[0-9a-f]{64}$/.test(stored.pdfSha256)) {
    throw new UnusableAttachmentError('the event carries no SHA-256 of the certificate PDF');
  }
  const pdf = await storage.getBuffer(stored.objectKey).catch((err: unknown) => {
    if (isMissingObject(err)) {
      throw new Error(`the certificate PDF ${stored.objectKey} is not in object storage`);
    }
    throw err;
  });
  const digest = createHash('sha256').update(pdf).digest('hex');
  if (pdf.length !== stored.pdfSize || digest !== stored.pdfSha256) {
    throw new Error(
      `the stored certificate PDF ${stored.objectKey} is not the one the event names ` +
        `(${pdf.length} bytes, SHA-256 ${digest.slice(0, 12)}…; expected ${stored.pdfSize} bytes, ${stored.pdfSha256.slice(0, 12)}…)`,
    );
  }
  return pdf;
}
