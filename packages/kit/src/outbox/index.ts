import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { rows, type Database, type Runner, type Tx } from '../db';
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
  if (events.length > 0) queuedOn.add(tx);
  const context = currentContext();
  const ids = events.map((event) => event.id ?? randomUUID());
  const values = events.map((event, i) => sql`(${eventValues(event, ids[i]!, context)})`);
  for (let i = 0; i < values.length; i += chunkSize) {
    await tx.execute(
      sql`INSERT INTO outbox (${OUTBOX_COLUMNS}) VALUES ${sql.join(values.slice(i, i + chunkSize), sql`, `)}`,
    );
  }
  return ids;
}

/**
 * Writes a state change and its event in one statement: `change` (an UPDATE, INSERT or DELETE with a RETURNING
 * clause) runs, and the event row is written only if it returned a row; both commit or neither does, as a single
 * statement is atomic. `alongside` adds writes that belong to the same change, each gated with the condition it
 * is given (true only when `change` returned a row): `UPDATE t SET … WHERE id = ${id} AND ${changed}`. Like the
 * writes of `handleOnce`, they see the database as it was before the statement. Returns the event id, or
 * undefined when nothing changed (no event). Outside a transaction it saves the BEGIN, the COMMIT and a round trip
 * of `transaction` with `enqueue`; inside one, the statements of the change's parts. Call `relay.notify()` after
 * the commit, as after `enqueue`.
 */
export async function enqueueWith(
  runner: Runner,
  change: SQL,
  event: OutboxEvent,
  alongside?: (changed: SQL) => Write[],
): Promise<string | undefined> {
  const id = event.id ?? randomUUID();
  const changed = sql`EXISTS (SELECT 1 FROM change)`;
  const also = (alongside?.(changed) ?? []).map((w, i) => sql`, ${sql.raw(`also${i}`)} AS (${w})`);
  const [row] = await rows<{ id: string }>(
    runner,
    sql`WITH change AS (${change})${sql.join(also)}
        INSERT INTO outbox (${OUTBOX_COLUMNS}) SELECT ${eventValues(event, id, currentContext())}
        WHERE ${changed} RETURNING id`,
  );
  if (row) queuedOn.add(runner);
  return row?.id;
}

/**
 * The transactions that wrote an event: `handleOnce` wakes the relay after an effect's commit only when its
 * transaction is here (an effect that wrote no event would send the relay looking for nothing).
 */
const queuedOn = new WeakSet<object>();

const OUTBOX_COLUMNS = sql.raw('id, name, payload, occurred_at, correlation_id, traceparent, tracestate');

/** One event's values, in the order of `OUTBOX_COLUMNS`. */
function eventValues(event: OutboxEvent, id: string, context: ReturnType<typeof currentContext>): SQL {
  return sql`${id}::uuid, ${event.name}, ${event.payload}::bytea, ${(event.occurredAt ?? new Date()).toISOString()}::timestamptz,
    ${event.correlationId ?? context.correlationId ?? context.requestId ?? null}::text,
    ${event.traceparent ?? null}::text, ${event.tracestate ?? null}::text`;
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
  /**
   * Called after the effect's transaction committed when it wrote an event (`enqueue`, `enqueueMany`,
   * `enqueueWith`), not for duplicates nor for effects that wrote none: pass the relay's `notify`.
   */
  onCommitted?: () => void;
}

/**
 * An effect that only writes (no event), given as the statements that write: `handleOnce` then runs the inbox row
 * and every write as one statement (no BEGIN, no COMMIT, one round trip). Each statement must be gated with `firstSight`, a
 * condition true only on the first delivery: `INSERT INTO t (a, b) SELECT ${a}, ${b} WHERE ${firstSight}`, or
 * `UPDATE t SET … WHERE id = ${id} AND ${firstSight}`. The statements see the database as it was before any of
 * them ran, so none may depend on another's writes.
 */
export interface WritesOnly {
  writes(firstSight: FirstSight): Write[];
}

/** The condition that holds only on an event's first delivery, for the writes of a `WritesOnly` effect. */
export type FirstSight = SQL;
/** One data-modifying statement of a `WritesOnly` effect (written in a service's data access). */
export type Write = SQL;

/** What `handleOnce` runs: a function given the transaction, or the writes of a `WritesOnly` effect. */
export type OnceEffect<T> = ((tx: Tx) => Promise<T>) | WritesOnly;

/**
 * Runs `effect` at most once per (consumer, event id), and per (consumer, natural key) when one is given. The
 * processed-messages row is inserted first with `ON CONFLICT DO NOTHING` in the same transaction as the effect:
 * a duplicate delivery inserts nothing and skips the effect, and an effect that throws rolls the row back with
 * it so a retry can still succeed. Two concurrent deliveries of one event serialise on the unique keys: the
 * second waits for the first transaction and then finds the row. Events the effect enqueued are published
 * at once when `onCommitted` wakes the relay. A `WritesOnly` effect is the same in one statement.
 */
export async function handleOnce<T>(
  database: Database,
  consumer: string,
  message: string | MessageKey,
  effect: OnceEffect<T>,
  options: HandleOnceOptions = {},
): Promise<{ duplicate: boolean; result?: T }> {
  const { eventId, key } = typeof message === 'string' ? { eventId: message, key: undefined } : message;
  if (!UUID.test(eventId)) throw new Error(`event id ${JSON.stringify(eventId)} is not a UUID`);
  const inbox = sql`INSERT INTO processed_messages (consumer, event_id, natural_key)
    VALUES (${consumer}, ${eventId}, ${key ?? null}) ON CONFLICT DO NOTHING RETURNING event_id`;
  let outcome: { duplicate: boolean; result?: T; queued?: boolean };
  if (typeof effect === 'function') {
    outcome = await database.transaction(async (tx) => {
      const inserted = await rows<{ event_id: string }>(tx, inbox);
      if (inserted.length === 0) return { duplicate: true };
      const result = await effect(tx);
      return { duplicate: false, result, queued: queuedOn.has(tx) };
    });
  } else {
    const writes = effect
      .writes(sql`EXISTS (SELECT 1 FROM inbox)`)
      .map((w, i) => sql`, ${sql.raw(`w${i}`)} AS (${w})`);
    const [row] = await rows<{ fresh: number }>(
      database.db,
      sql`WITH inbox AS (${inbox})${sql.join(writes)} SELECT count(*)::int AS fresh FROM inbox`,
    );
    outcome = { duplicate: row?.fresh !== 1 };
  }
  if (outcome.queued) options.onCommitted?.();
  return { duplicate: outcome.duplicate, result: outcome.result };
}
