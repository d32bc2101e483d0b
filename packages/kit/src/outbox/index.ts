import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Database, Tx } from '../db';
import { currentContext } from '../logger';
import { outbox, processedMessages } from './schema';

export { OutboxRelay, type BusMessage, type OutboxRelayOptions, type Publisher } from './relay';
export { outbox, processedMessages } from './schema';
export {
  EVENT_SECRETS_KEY_FILE,
  createSecretBox,
  generateEventSecretsKey,
  loadEventSecretBox,
  type SecretBox,
} from './secrets';

/**
 * The kit's own migrations (outbox, processed_messages). Pass it first to `migrate`, before the service's
 * directory. The `.sql` files live at the package root, two levels above both `src/outbox` and `dist/outbox`.
 */
export const kitMigrationsDir = path.join(__dirname, '../../migrations');

export interface OutboxEvent {
  name: string;
  payload: Uint8Array;
  /** Defaults to the current request's correlation id (or its request id). */
  correlationId?: string;
  traceparent?: string;
  tracestate?: string;
  /** The event id; generated when absent. Whatever it is, every republish carries the same one. */
  id?: string;
  occurredAt?: Date;
}

/**
 * Writes an event in the caller's transaction: it is published if and only if that transaction commits.
 * Returns the event id. Call `relay.notify()` after the commit for low latency.
 */
export async function enqueue(tx: Tx, event: OutboxEvent): Promise<string> {
  const id = event.id ?? randomUUID();
  const context = currentContext();
  await tx.insert(outbox).values({
    id,
    name: event.name,
    payload: event.payload,
    occurredAt: event.occurredAt ?? new Date(),
    correlationId: event.correlationId ?? context.correlationId ?? context.requestId ?? null,
    traceparent: event.traceparent ?? null,
    tracestate: event.tracestate ?? null,
  });
  return id;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Runs `effect` at most once per (consumer, event id). The processed-messages row is inserted first with
 * `ON CONFLICT DO NOTHING` in the same transaction as the effect: a duplicate delivery inserts nothing and
 * skips the effect, and an effect that throws rolls the row back with it so a retry can still succeed.
 * Two concurrent deliveries of one event serialise on the primary key: the second waits for the first
 * transaction and then finds the row.
 */
export async function handleOnce<T>(
  database: Database,
  consumer: string,
  eventId: string,
  effect: (tx: Tx) => Promise<T>,
): Promise<{ duplicate: boolean; result?: T }> {
  if (!UUID.test(eventId)) throw new Error(`event id ${JSON.stringify(eventId)} is not a UUID`);
  return database.transaction(async (tx) => {
    const inserted = await tx
      .insert(processedMessages)
      .values({ consumer, eventId })
      .onConflictDoNothing()
      .returning({ eventId: processedMessages.eventId });
    if (inserted.length === 0) return { duplicate: true };
    return { duplicate: false, result: await effect(tx) };
  });
}
