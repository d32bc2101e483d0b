import { on } from '@readiness/kit/runtime';
import type { SecretBox } from '@readiness/kit/outbox';
import { deliver, type MailConsumerDeps } from '../../domain/deliver';
import { adminPasswordReset } from '../../domain/templates';

/** Mails the temporary password of an admin whose password a super admin reset. */
export function adminPasswordResetConsumer(
  deps: MailConsumerDeps & {
    /** Opens the sealed temporary password (the key auth sealed it with). */
    secrets: SecretBox;
    publicOrigin: string;
  },
) {
  return on('notification.admin-password-reset', {
    maxAttempts: deps.maxAttempts,
    async handle(event, meta) {
      await deliver(deps, {
        eventId: meta.id,
        template: 'admin-password-reset',
        to: event.email,
        mail: adminPasswordReset({
          name: event.name,
          temporaryPassword: deps.secrets.open(event.sealedTemporaryPassword),
          loginUrl: `${deps.publicOrigin.replace(/\/+$/, '')}/admin/login`,
        }),
        attempt: meta.attempt,
        maxAttempts: deps.maxAttempts,
        leaseSeconds: deps.leaseSeconds,
      });
    },
  });
}
