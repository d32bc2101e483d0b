import { every, on } from '@readiness/kit/runtime';
import type { HandleOnce } from '../../domain/grades';
import { queueWebhooks } from '../../domain/webhooks/manage';
import type { SourceEvent } from '../../domain/webhooks/payloads';
import { sendDueWebhooks, type WebhookSenderDeps } from '../../domain/webhooks/send';
import type { EventPayload } from '@readiness/contracts';

/** The product's events that webhook endpoints can take, queued for each endpoint once per event. */
export const webhookConsumer = (handleOnce: HandleOnce) =>
  on('integrations.webhooks', {
    handle: async (payload, meta) => {
      await handleOnce('integrations.webhooks', meta.id, (tx) =>
        queueWebhooks(tx, { ...meta, payload: payload as EventPayload<SourceEvent> }),
      );
    },
  });

/** The webhook sender: every interval, the deliveries due go to their endpoints. */
export const webhookJob = (deps: WebhookSenderDeps, intervalMs: number) =>
  every('webhooks', intervalMs, () => sendDueWebhooks(deps));
