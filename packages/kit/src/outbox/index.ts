import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { rows, type Database, type Runner, type Tx } from '../db';
import { currentContext } from '../logger';
import { currentTraceFields } from '../tracing';
import { handoffFor, type OutboxRow } from './handoff';

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
  /** W3C trace context; defaults to the active span's (the request or handler writing the event), if traced. */
  traceparent?: string;
  tracestate?: string;
  /** The event id; generated when absent. Whatever it is, every republish carries the same one. */
  id?: string;
  occurredAt?: Date;
}

/**
 * Writes an event in the caller's transaction: it is published if and only if that transaction commits (by the
 * relay running in this process, handed the row at the commit; else by a relay's claim). Returns the event id.
 */
export async function enqueue(tx: Tx, event: OutboxEvent): Promise<string> {
  const [id] = await enqueueMany(tx, [event]);
  return id!;
}

/** Writes many events in the caller's transaction with few statements (a bulk import's mails). */
export async function enqueueMany(tx: Tx, events: OutboxEvent[], chunkSize = 1000): Promise<string[]> {
  const context = currentContext();
  const handoff = handoffFor(tx);
  const written = events.map((event) => outboxRow(event, context));
  const values = written.map((row) => sql`(${rowValues(row, handoff?.holdMs ?? 0)})`);
  for (let i = 0; i < values.length; i += chunkSize) {
    await tx.execute(
      sql`INSERT INTO outbox (${OUTBOX_COLUMNS}) VALUES ${sql.join(values.slice(i, i + chunkSize), sql`, `)}`,
    );
  }
  if (written.length > 0) handoff?.hand(written);
  return written.map((row) => row.id);
}

/**
 * Writes a state change and its event in one statement: `change` (an UPDATE, INSERT or DELETE with a RETURNING
 * clause) runs, and the event row is written only if it returned a row; both commit or neither does, as a single
 * statement is atomic. `alongside` adds writes that belong to the same change, each gated with the condition it
 * is given (true only when `change` returned a row): `UPDATE t SET … WHERE id = ${id} AND ${changed}`. Like the
 * writes of `handleOnce`, they see the database as it was before the statement. Returns the event id, or
 * undefined when nothing changed (no event). Outside a transaction it saves the BEGIN, the COMMIT and a round trip
 * of `transaction` with `enqueue`; inside one, the statements of the change's parts. The event reaches the relay
 * as `enqueue`'s does.
 */
export async function enqueueWith(
  runner: Runner,
  change: SQL,
  event: OutboxEvent,
  alongside?: (changed: SQL) => Write[],
): Promise<string | undefined> {
  const written = outboxRow(event, currentContext());
  const handoff = handoffFor(runner);
  const changed = sql`EXISTS (SELECT 1 FROM change)`;
  const also = (alongside?.(changed) ?? []).map((w, i) => sql`, ${sql.raw(`also${i}`)} AS (${w})`);
  const [row] = await rows<{ id: string }>(
    runner,
    sql`WITH change AS (${change})${sql.join(also)}
        INSERT INTO outbox (${OUTBOX_COLUMNS}) SELECT ${rowValues(written, handoff?.holdMs ?? 0)}
        WHERE ${changed} RETURNING id`,
  );
  if (!row) return undefined;
  handoff?.hand([written]);
  return row.id;
}

const OUTBOX_COLUMNS = sql.raw(
  'id, name, payload, occurred_at, correlation_id, traceparent, tracestate, next_attempt_at',
);

/** The row an event is written as (and handed to the relay as). */
function outboxRow(event: OutboxEvent, context: ReturnType<typeof currentContext>): OutboxRow {
  // The event continues the trace of the request or handler that writes it.
  const trace = event.traceparent ? event : currentTraceFields();
  return {
    id: event.id ?? randomUUID(),
    name: event.name,
    payload: event.payload,
    occurred_at: event.occurredAt ?? new Date(),
    correlation_id: event.correlationId ?? context.correlationId ?? context.requestId ?? null,
    traceparent: trace.traceparent ?? null,
    tracestate: trace.tracestate ?? null,
    source: null,
  };
}

/** A row's values in the order of `OUTBOX_COLUMNS`; a row handed to the relay is held from claims for `holdMs`. */
function rowValues(row: OutboxRow, holdMs: number): SQL {
  return sql`${row.id}::uuid, ${row.name}, ${row.payload}::bytea,
    ${new Date(row.occurred_at).toISOString()}::timestamptz, ${row.correlation_id}::text,
    ${row.traceparent}::text, ${row.tracestate}::text, now() + ${holdMs}::float8 * interval '1 millisecond'`;
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
 * second waits for the first transaction and then finds the row. Events the effect enqueued reach the relay at
 * the commit. A `WritesOnly` effect is the same in one statement.
 */
export async function handleOnce<T>(
  database: Database,
  consumer: string,
  message: string | MessageKey,
  effect: OnceEffect<T>,
): Promise<{ duplicate: boolean; result?: T }> {
  const { eventId, key } = typeof message === 'string' ? { eventId: message, key: undefined } : message;
  if (!UUID.test(eventId)) throw new Error(`event id ${JSON.stringify(eventId)} is not a UUID`);
  const inbox = sql`INSERT INTO processed_messages (consumer, event_id, natural_key)
    VALUES (${consumer}, ${eventId}, ${key ?? null}) ON CONFLICT DO NOTHING RETURNING event_id`;
  let outcome: { duplicate: boolean; result?: T };
  if (typeof effect === 'function') {
    outcome = await database.transaction(async (tx) => {
      const inserted = await rows<{ event_id: string }>(tx, inbox);
      if (inserted.length === 0) return { duplicate: true };
      const result = await effect(tx);
      return { duplicate: false, result };
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
  return { duplicate: outcome.duplicate, result: outcome.result };
}
