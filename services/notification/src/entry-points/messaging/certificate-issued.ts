import { on } from '@readiness/kit/runtime';
import { deliver, type MailConsumerDeps } from '../../domain/deliver';
import { certificateIssued } from '../../domain/templates';

export const CERTIFICATE_ISSUED_QUEUE = 'notification.certificate-issued';

/** `Ada Lovelace` → `certificate-Ada-Lovelace.pdf`: letters and digits only, whatever the name holds. */
const attachmentName = (name: string) =>
  `certificate-${name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '') || 'student'}.pdf`;

/**
 * Mails a certificate to its student with the PDF the event carries: once per event, so once per pass and once
 * per resend request, whatever the redeliveries.
 */
export function certificateIssuedConsumer(deps: MailConsumerDeps) {
  return on('report.certificate.issued.v1', {
    queue: CERTIFICATE_ISSUED_QUEUE,
    maxAttempts: deps.maxAttempts,
    async handle(event, meta) {
      await deliver(deps, {
        eventId: meta.id,
        template: event.resend ? 'certificate-resent' : 'certificate-issued',
        to: event.email,
        studentId: event.studentId,
        mail: certificateIssued({
          name: event.name,
          assessmentTitle: event.assessmentTitle,
          percentage: event.percentage,
          code: event.assessmentCode,
          verificationUrl: event.verificationUrl,
          resent: event.resend,
        }),
        attachments: [
          {
            filename: attachmentName(event.name),
            content: Buffer.from(event.pdf),
            contentType: 'application/pdf',
          },
        ],
        attempt: meta.attempt,
        maxAttempts: deps.maxAttempts,
        leaseSeconds: deps.leaseSeconds,
      });
    },
  });
}
