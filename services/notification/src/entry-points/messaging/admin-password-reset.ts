import { decodePayload } from '@readiness/contracts';
import type { Subscription } from '@readiness/kit/bus';
import type { Mailer } from '@readiness/kit/mail';
import type { Logger } from '@readiness/kit/logger';
import type { SecretBox } from '@readiness/kit/outbox';
import type { DeliveriesRepository } from '../../data-access/deliveries-repository';
import { deliver } from '../../domain/deliver';
import { adminPasswordReset } from '../../domain/templates';

export const ADMIN_PASSWORD_RESET_QUEUE = 'notification.admin-password-reset';

/** Mails the temporary password of an admin whose password a super admin reset. */
export function adminPasswordResetConsumer(deps: {
  repo: DeliveriesRepository;
  mailer: Mailer;
  logger: Logger;
  /** Opens the sealed temporary password (the key auth sealed it with). */
  secrets: SecretBox;
  publicOrigin: string;
  maxAttempts: number;
}): Subscription {
  return {
    queue: ADMIN_PASSWORD_RESET_QUEUE,
    events: ['auth.admin.password-reset.v1'],
    maxAttempts: deps.maxAttempts,
    async handle(msg, ctx) {
      const event = decodePayload('auth.admin.password-reset.v1', msg.payload);
      await deliver(deps.repo, deps.mailer, deps.logger, {
        eventId: msg.id,
        template: 'admin-password-reset',
        to: event.email,
        mail: adminPasswordReset({
          name: event.name,
          temporaryPassword: deps.secrets.open(event.sealedTemporaryPassword),
          loginUrl: `${deps.publicOrigin.replace(/\/+$/, '')}/admin/login`,
        }),
        attempt: ctx.attempt,
        maxAttempts: deps.maxAttempts,
      });
    },
  };
}
