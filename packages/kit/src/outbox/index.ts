import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { rows, type Database, type Tx } from '../db';
import { currentContext } from '../logger';

export { OutboxRelay, type BusMessage, type OutboxRelayOptions, type Publisher } from './relay';
export { runClaimed, type ClaimedEffect, type ClaimOutcome } from './claims';
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
  const [id] = await enqueueMany(tx, [event]);
  return id!;
}

/** Writes many events in the caller's transaction with few statements (a bulk import's mails). */
export async function enqueueMany(tx: Tx, events: OutboxEvent[], chunkSize = 1000): Promise<string[]> {
  const context = currentContext();
  const ids = events.map((event) => event.id ?? randomUUID());
  const values = events.map(
    (event, i) =>
      sql`(${ids[i]}, ${event.name}, ${event.payload}, ${(event.occurredAt ?? new Date()).toISOString()},
        ${event.correlationId ?? context.correlationId ?? context.requestId ?? null},
        ${event.traceparent ?? null}, ${event.tracestate ?? null})`,
  );
  for (let i = 0; i < values.length; i += chunkSize) {
    await tx.execute(
      sql`INSERT INTO outbox (id, name, payload, occurred_at, correlation_id, traceparent, tracestate)
          VALUES ${sql.join(values.slice(i, i + chunkSize), sql`, `)}`,
    );
  }
  return ids;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What identifies one delivery to a consumer: the event id, and optionally a natural key of the consumer's own. */
export interface MessageKey {
  eventId: string;
  /**
   * A key of the effect itself (an attempt id, an order number): a second event carrying the same key is a
   * duplicate too, even with another event id.
   */
  key?: string;
}

export interface HandleOnceOptions {
  /** Called after the effect's transaction committed (not for duplicates): pass the relay's `notify`. */
  onCommitted?: () => void;
}

/**
 * Runs `effect` at most once per (consumer, event id), and per (consumer, natural key) when one is given. The
 * processed-messages row is inserted first with `ON CONFLICT DO NOTHING` in the same transaction as the effect:
 * a duplicate delivery inserts nothing and skips the effect, and an effect that throws rolls the row back with
 * it so a retry can still succeed. Two concurrent deliveries of one event serialise on the unique keys: the
 * second waits for the first transaction and then finds the row. Events the effect enqueued are published
 * at once when `onCommitted` wakes the relay.
 */
export async function handleOnce<T>(
  database: Database,
  consumer: string,
  message: string | MessageKey,
  effect: (tx: Tx) => Promise<T>,
  options: HandleOnceOptions = {},
): Promise<{ duplicate: boolean; result?: T }> {
  const { eventId, key } = typeof message === 'string' ? { eventId: message, key: undefined } : message;
  if (!UUID.test(eventId)) throw new Error(`event id ${JSON.stringify(eventId)} is not a UUID`);
  const outcome = await database.transaction(async (tx) => {
    const inserted = await rows<{ event_id: string }>(
      tx,
      sql`INSERT INTO processed_messages (consumer, event_id, natural_key) VALUES (${consumer}, ${eventId}, ${key ?? null})
          ON CONFLICT DO NOTHING RETURNING event_id`,
    );
    if (inserted.length === 0) return { duplicate: true };
    return { duplicate: false, result: await effect(tx) };
  });
  if (!outcome.duplicate) options.onCommitted?.();
  return outcome;
}
