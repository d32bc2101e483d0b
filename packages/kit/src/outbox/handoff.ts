import { afterCommit, poolOf, type Runner } from '../db';

/** An outbox row as the relay publishes it. */
export interface OutboxRow {
  id: string;
  name: string;
  payload: Uint8Array;
  occurred_at: Date | string;
  correlation_id: string | null;
  traceparent: string | null;
  tracestate: string | null;
  source: string | null;
}

/** What takes the rows a commit wrote: the started relay of the database they were written to. */
export interface Handoff {
  /** How long a handed row is held from every relay's claim (after that it is due like any other). */
  readonly holdMs: number;
  take(rows: OutboxRow[]): void;
}

const handoffs = new WeakMap<object, Handoff>();

/** A started relay takes the rows written through its database's pool and transactions. */
export function registerHandoff(pool: object, handoff: Handoff): void {
  handoffs.set(pool, handoff);
}

export function unregisterHandoff(pool: object, handoff: Handoff): void {
  if (handoffs.get(pool) === handoff) handoffs.delete(pool);
}

/**
 * How rows written through `runner` reach a relay without being looked for: held from every claim for `holdMs`
 * and handed to the started relay of their database once committed (at once for a statement on the pool, which
 * commits by itself; after the commit for a transaction, never after a rollback). Undefined when no relay of that
 * database runs in this process: the rows are then due at once, for a relay's claim.
 */
export function handoffFor(runner: Runner): { holdMs: number; hand(rows: OutboxRow[]): void } | undefined {
  const pool = poolOf(runner);
  const handoff = handoffs.get(pool);
  if (!handoff) return undefined;
  return {
    holdMs: handoff.holdMs,
    hand(rows) {
      if (pool === runner) handoff.take(rows);
      else afterCommit(runner, () => handoff.take(rows));
    },
  };
}
