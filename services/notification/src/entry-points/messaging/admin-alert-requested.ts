import { timestampDate } from '@readiness/contracts';
import { on } from '@readiness/kit/runtime';
import { deliver, type MailConsumerDeps } from '../../domain/deliver';
import { webhookEndpointDisabled } from '../../domain/templates';

/**
 * Mails a super admin what the auth service asked them to be told (one request per super admin), once per event:
 * a webhook endpoint disabled after failing, with a link to the Webhooks screen.
 */
export function adminAlertRequestedConsumer(deps: MailConsumerDeps & { publicOrigin: string }) {
  return on('notification.admin-alert-requested', {
    maxAttempts: deps.maxAttempts,
    async handle(event, meta) {
      const { alert } = event;
      if (alert.case !== 'webhookEndpointDisabled') throw new Error(`unknown admin alert ${alert.case}`);
      const endpoint = alert.value;
      await deliver(deps, {
        eventId: meta.id,
        template: 'webhook-endpoint-disabled',
        to: event.email,
        mail: webhookEndpointDisabled({
          name: event.name,
          url: endpoint.url,
          description: endpoint.description,
          failingSince: endpoint.failingSince && timestampDate(endpoint.failingSince),
          disabledAt: endpoint.disabledAt ? timestampDate(endpoint.disabledAt) : meta.occurredAt,
          lastStatus: endpoint.lastStatus,
          lastAnswer: endpoint.lastAnswer,
          webhooksUrl: `${deps.publicOrigin.replace(/\/+$/, '')}/admin/webhooks`,
        }),
        attempt: meta.attempt,
        maxAttempts: deps.maxAttempts,
        leaseSeconds: deps.leaseSeconds,
      });
    },
  });
}
