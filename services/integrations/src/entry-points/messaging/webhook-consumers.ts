import { every, on, type JobWaker } from '@readiness/kit/runtime';
import type { Database } from '@readiness/kit/db';
import { nextDeliveryDue, subscribedEventTypes } from '../../data-access/webhooks-repository';
import type { HandleOnce } from '../../domain/grades';
import { queueWebhooks } from '../../domain/webhooks/manage';
import { webhookTypeOf, type SourceEvent } from '../../domain/webhooks/payloads';
import { sendDueWebhooks, type WebhookSenderDeps } from '../../domain/webhooks/send';
import type { EventPayload } from '@readiness/contracts';

/** How long this replica trusts what it read of the endpoints' event types (its own admins' changes forget it). */
const SUBSCRIBED_FRESH_MS = 2_000;

/**
 * The event types some enabled endpoint takes, read at most every 2 s: an event no endpoint takes costs nothing (no
 * transaction, no sender pass), which is every event of a product with no webhooks. An endpoint saved on another
 * replica takes the events from at most 2 s later; on this one, at once (`forget` after an admin's change).
 */
export function subscribedTypes(database: Database) {
  let cached: { at: number; types: Promise<Set<string>> } | undefined;
  return {
    has(type: string): Promise<boolean> {
      if (!cached || Date.now() - cached.at >= SUBSCRIBED_FRESH_MS) {
        const types = subscribedEventTypes(database.db);
        cached = { at: Date.now(), types };
        types.catch(() => {
          if (cached?.types === types) cached = undefined;
        });
      }
      return cached.types.then((types) => types.has(type));
    },
    forget() {
      cached = undefined;
    },
  };
}

/**
 * The product's events that webhook endpoints can take, queued for each endpoint once per event; the sender woken
 * only when something was queued. An erasure always runs (it drops the student's pending deliveries).
 */
export const webhookConsumer = (
  handleOnce: HandleOnce,
  waker: JobWaker,
  subscribed: ReturnType<typeof subscribedTypes>,
) =>
  on('integrations.webhooks', {
    handle: async (payload, meta) => {
      const type = webhookTypeOf(meta.name);
      if (type && type !== 'student.deleted' && !(await subscribed.has(type))) return;
      const { result: queued } = await handleOnce('integrations.webhooks', meta.id, (tx) =>
        queueWebhooks(tx, { ...meta, payload: payload as EventPayload<SourceEvent> }),
      );
      if (queued) waker.wake();
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
