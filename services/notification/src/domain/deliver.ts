import { AppError } from '@readiness/kit/errors';
import { MailDeliveryError, type Mailer } from '@readiness/kit/mail';
import type { Logger } from '@readiness/kit/logger';
import type { DeliveriesRepository } from '../data-access/deliveries-repository';
import type { RenderedMail } from './templates';

/** Longer than any SMTP exchange (the mailer's timeouts are well under it). */
const SEND_LEASE_SECONDS = 120;

export interface DeliveryRequest {
  eventId: string;
  template: string;
  to: string;
  mail: RenderedMail;
  /** Which delivery of the event this is (1 for the first); the bus counts them. */
  attempt: number;
  maxAttempts: number;
}

/**
 * Sends one mail for one event, at most once per (event, template).
 *
 * The delivery row is the idempotency key: a redelivered event whose row says 'sent' or 'failed' is
 * acknowledged without mailing, and concurrent deliveries of one event race for a claim on the row, so only
 * one of them talks to the SMTP server. A transient SMTP failure is recorded and thrown, so the bus retries with
 * backoff; on the last allowed attempt the row becomes 'failed' with the reason and the bus dead-letters
 * the event. A permanent refusal (unknown mailbox, message refused) is not retried. The one window left is
 * a crash after the SMTP server accepted the mail and before the row says so: then the mail goes twice,
 * which is better than not at all.
 */
export async function deliver(
  repo: DeliveriesRepository,
  mailer: Mailer,
  logger: Logger,
  req: DeliveryRequest,
): Promise<'sent' | 'duplicate' | 'rejected'> {
  const delivery = await repo.open({
    eventId: req.eventId,
    template: req.template,
    recipient: req.to,
    subject: req.mail.subject,
  });
  if (delivery.status === 'sent' || delivery.status === 'failed') return 'duplicate';
  if (!(await repo.claim(delivery.id, SEND_LEASE_SECONDS))) {
    // Another delivery of this event is talking to the SMTP server right now: come back later, when the
    // row says how that went (acking now would lose the mail if that delivery's process dies).
    throw new AppError('delivery_in_progress', 'This mail is being sent by another delivery', 409);
  }
  try {
    await mailer.send({ to: req.to, subject: req.mail.subject, text: req.mail.text, html: req.mail.html });
  } catch (err) {
    const permanent = err instanceof MailDeliveryError && err.permanent;
    const final = permanent || req.attempt >= req.maxAttempts;
    const reason = describe(err);
    await repo.markAttemptFailed(delivery.id, reason, final);
    if (permanent) {
      logger.error({ eventId: req.eventId, template: req.template, reason }, 'mail refused; not retried');
      return 'rejected';
    }
    logger.warn(
      { eventId: req.eventId, template: req.template, attempt: req.attempt, reason },
      'mail not sent',
    );
    throw err;
  }
  await repo.markSent(delivery.id);
  return 'sent';
}

function describe(err: unknown): string {
  if (err instanceof MailDeliveryError) {
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return `${err.message}${cause}`;
  }
  return err instanceof Error ? err.message : String(err);
}
