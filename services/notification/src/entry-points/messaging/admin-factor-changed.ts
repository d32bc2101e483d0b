import { factorChangeKind, timestampDate } from '@readiness/contracts';
import { on } from '@readiness/kit/runtime';
import { deliver, type MailConsumerDeps } from '../../domain/deliver';
import { adminFactorChanged } from '../../domain/templates';

/** Mails an admin each change of their passkeys, authenticator app or recovery codes, once per event. */
export function adminFactorChangedConsumer(deps: MailConsumerDeps & { publicOrigin: string }) {
  return on('notification.admin-factor-changed', {
    maxAttempts: deps.maxAttempts,
    async handle(event, meta) {
      const change = factorChangeKind(event.change);
      if (!change) throw new Error(`unknown factor change ${event.change}`);
      await deliver(deps, {
        eventId: meta.id,
        template: 'admin-factor-changed',
        to: event.email,
        mail: adminFactorChanged({
          name: event.name,
          change,
          factorName: event.factorName,
          actorName: event.actorName,
          byOther: event.actorId !== '' && event.actorId !== event.adminId,
          changedAt: event.changedAt ? timestampDate(event.changedAt) : meta.occurredAt,
          securityUrl: `${deps.publicOrigin.replace(/\/+$/, '')}/admin/security`,
        }),
        attempt: meta.attempt,
        maxAttempts: deps.maxAttempts,
        leaseSeconds: deps.leaseSeconds,
      });
    },
  });
}
