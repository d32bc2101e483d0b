import { shownPercentage } from '@readiness/contracts';
import { on } from '@readiness/kit/runtime';
import type { ObjectStore } from '@readiness/kit/storage';
import { storedCertificatePdf } from '../../domain/certificate-pdf';
import { deliver, type MailConsumerDeps } from '../../domain/deliver';
import { certificateIssued } from '../../domain/templates';

/** `Ada Lovelace` → `certificate-Ada-Lovelace.pdf`: letters and digits only, whatever the name holds. */
const attachmentName = (name: string) =>
  `certificate-${name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '') || 'student'}.pdf`;

/**
 * Mails a certificate to its student: once per event, so once per pass and once per resend request, whatever the
 * redeliveries. The event names the PDF in object storage, read by the delivery that sends and checked against the
 * event's size and digest. It yields to students waiting at the peak: the certificate goes out after.
 */
export function certificateIssuedConsumer(deps: MailConsumerDeps & { storage: ObjectStore }) {
  return on('notification.certificate-issued', {
    maxAttempts: deps.maxAttempts,
    yieldsToStudents: true,
    async handle(event, meta) {
      await deliver(deps, {
        eventId: meta.id,
        template: event.resend ? 'certificate-resent' : 'certificate-issued',
        to: event.email,
        studentId: event.studentId,
        mail: certificateIssued({
          name: event.name,
          // The title the certificate prints: in its language when the version translates it.
          assessmentTitle: event.assessmentTitle,
          // As every surface shows it, from the points (docs/scoring.md); an event from an older publisher has only
          // the whole percent.
          percentage:
            event.totalPoints > 0 ? shownPercentage(event.score, event.totalPoints) : event.percentage,
          code: event.assessmentCode,
          verificationUrl: event.verificationUrl,
          credentialUrl: event.credentialUrl,
          resent: event.resend,
          language: event.language,
        }),
        attachments: async () => [
          {
            filename: attachmentName(event.name),
            content: await storedCertificatePdf(deps.storage, event),
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
