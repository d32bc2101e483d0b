import type { Database } from '@readiness/kit/db';
import type { Logger } from '@readiness/kit/logger';
import { MailDeliveryError, type MailAttachment, type Mailer } from '@readiness/kit/mail';
import { runClaimed } from '@readiness/kit/outbox';
import type { DeliveriesRepository } from '../data-access/deliveries-repository';
import { UnusableAttachmentError } from './certificate-pdf';
import type { RenderedMail } from './templates';

export interface DeliveryRequest {
  eventId: string;
  template: string;
  to: string;
  mail: RenderedMail;
  /**
   * Files sent with the mail, read only by the delivery that sends it (a certificate PDF from object storage): a
   * redelivery of a mail already sent reads nothing, and a failure to read is retried like a failed send.
   */
  attachments?: () => Promise<MailAttachment[]>;
  /** The student the mail is about, for the per-student delivery state and erasure. */
  studentId?: string;
  /** Which delivery of the event this is (1 for the first); the bus counts them. */
  attempt: number;
  maxAttempts: number;
  /** How long one delivery may hold the mail before another takes it over. */
  leaseSeconds: number;
}

/**
 * Sends one mail for one event, at most once per (event, template), through the kit's claim with a lease
 * (`runClaimed`, scope `mail:<template>`, key the event id): a redelivered event whose mail was sent or given up
 * is acknowledged without mailing, concurrent deliveries race for the claim so only one talks to the SMTP server,
 * a transient SMTP failure is recorded and thrown for the bus to retry, the last allowed attempt or a permanent
 * refusal (unknown mailbox, message refused) gives the mail up with its reason. The delivery log row (recipient,
 * subject; never the secret) is written on first sight. A mail about an erased student (held at the peak, or
 * redelivered, past the erasure) is neither logged nor sent, and the event is acknowledged.
 */
/** What a delivery needs: the deliveries' records, the database they live in, the mailer. */
export interface DeliveryDeps {
  repo: DeliveriesRepository;
  database: Database;
  mailer: Mailer;
  logger: Logger;
}

/** What a consumer of mail-bearing events needs: delivery, and how often and how long it may try. */
export interface MailConsumerDeps extends DeliveryDeps {
  maxAttempts: number;
  leaseSeconds: number;
}

export async function deliver(
  deps: DeliveryDeps,
  req: DeliveryRequest,
): Promise<'sent' | 'duplicate' | 'rejected' | 'erased'> {
  const recorded = await deps.repo.record({
    eventId: req.eventId,
    template: req.template,
    recipient: req.to,
    subject: req.mail.subject,
    studentId: req.studentId,
  });
  if (!recorded) {
    deps.logger.info(
      { eventId: req.eventId, template: req.template, studentId: req.studentId },
      'mail about an erased student; not sent',
    );
    return 'erased';
  }
  try {
    const outcome = await runClaimed(
      deps.database,
      {
        scope: `mail:${req.template}`,
        key: req.eventId,
        leaseSeconds: req.leaseSeconds,
        attempt: req.attempt,
        maxAttempts: req.maxAttempts,
        isPermanent: (err) =>
          (err instanceof MailDeliveryError && err.permanent) || err instanceof UnusableAttachmentError,
        describe,
      },
      async () =>
        deps.mailer.send({
          to: req.to,
          subject: req.mail.subject,
          text: req.mail.text,
          html: req.mail.html,
          attachments: await req.attachments?.(),
        }),
    );
    if (outcome === 'rejected') {
      deps.logger.error({ eventId: req.eventId, template: req.template }, 'mail refused; not retried');
    }
    return outcome === 'done' ? 'sent' : outcome;
  } catch (err) {
    if (err instanceof MailDeliveryError) {
      deps.logger.warn(
        { eventId: req.eventId, template: req.template, attempt: req.attempt, reason: describe(err) },
        'mail not sent',
      );
    }
    throw err;
  }
}

function describe(err: unknown): string {
  if (err instanceof MailDeliveryError) {
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return `${err.message}${cause}`;
  }
  return err instanceof Error ? err.message : String(err);
}
