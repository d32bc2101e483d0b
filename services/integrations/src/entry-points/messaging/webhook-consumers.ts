import { every, on, type JobWaker } from '@readiness/kit/runtime';
import type { Database } from '@readiness/kit/db';
import { nextDeliveryDue } from '../../data-access/webhooks-repository';
import type { HandleOnce } from '../../domain/grades';
import { queueWebhooks } from '../../domain/webhooks/manage';
import type { SourceEvent } from '../../domain/webhooks/payloads';
import { sendDueWebhooks, type WebhookSenderDeps } from '../../domain/webhooks/send';
import type { EventPayload } from '@readiness/contracts';

/** The product's events that webhook endpoints can take, queued for each endpoint once per event. */
export const webhookConsumer = (handleOnce: HandleOnce, waker: JobWaker) =>
  on('integrations.webhooks', {
    handle: async (payload, meta) => {
      await handleOnce('integrations.webhooks', meta.id, (tx) =>
        queueWebhooks(tx, { ...meta, payload: payload as EventPayload<SourceEvent> }),
      );
      waker.wake();
    },
  });

/**
 * The webhook sender: the deliveries due go to their endpoints, at once when this replica queued them (the waker),
 * else when the next is due, and at least every interval (work another replica queued).
 */
export const webhookJob = (
  deps: WebhookSenderDeps & { database: Database },
  intervalMs: number,
  waker: JobWaker,
) =>
  every('webhooks', intervalMs, () => sendDueWebhooks(deps), {
    nextDue: () => nextDeliveryDue(deps.database.db),
    waker,
  });
