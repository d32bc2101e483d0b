import { sql } from 'drizzle-orm';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { BusMessage, Publisher } from '../bus';
import { rows, type Database } from '../db';
import type { Logger } from '../logger';
import { registerHandoff, unregisterHandoff, type Handoff, type OutboxRow } from './handoff';

/** What the relay publishes through: the RabbitMQ and in-process buses, declared once by the bus. */
export type { BusMessage, Publisher } from '../bus';

export interface OutboxRelayOptions {
  database: Database;
  publisher: Publisher;
  logger: Logger;
  /** Envelope `source` (the service name) for rows that do not name one. */
  source: string;
  /** Rows claimed and published with one pipelined confirm round. Default 200. */
  batchSize?: number;
  /**
   * How often an idle relay checks for rows nobody announced with `notify()` (another replica's, after it died
   * between its commit and its publish): one statement per check. Rows refused by the broker are checked again
   * when they fall due, whatever this is. Default 30 s.
   */
  pollIntervalMs?: number;
  /**
   * How long a sent row's metadata (id, name, correlation id, sent_at) is kept for inspection; its payload
   * is emptied at the broker's ack whatever this is, because payloads may carry a temporary password.
   * 0 deletes the row at the ack. Default one hour.
   */
  retentionMs?: number;
  /** A publish that has not confirmed by then counts as failed (the rows stay pending). Default 30 s. */
  publishTimeoutMs?: number;
  /**
   * How long a claimed batch stays claimed, and a row handed over at its commit is held from every claim: after a
   * crash between the commit or the claim and the mark, its rows are published again once this has passed.
   * Default 15 s.
   */
  claimMs?: number;
  /**
   * How long rows handed over at their commits gather before they are published together (one publish, one
   * mark). Default 5 ms.
   */
  handoffBatchMs?: number;
  /** Retry delay after a failed publish: doubles per attempt from `initialMs` up to `maxMs`, jittered. */
  backoff?: { initialMs: number; maxMs: number };
  /** Where the relay's metrics are registered; without it, none. */
  registry?: Registry;
}

const SWEEP_EVERY_MS = 60_000;
/** The first retry after the database could not be reached; it doubles per failure up to 30 s. */
const DATABASE_RETRY_MS = 1_000;

/**
 * Publishes committed outbox rows and marks them only after the broker confirmed them.
 *
 * While the relay runs, the rows its process writes (`enqueue`, `enqueueMany`, `enqueueWith`) are handed to it at
 * their commit: written held from every claim for `claimMs`, gathered for a few milliseconds, published together
 * and marked sent in one statement, so an event costs no statement to find. Rows nobody handed over (another
 * replica that died after its commit, a retry after a refused publish) are claimed: one statement,
 * `UPDATE … SET next_attempt_at = now() + claim` over the due rows picked with `FOR UPDATE SKIP LOCKED`, so two
 * relay replicas never claim the same row, and a claimed row is not due for anyone else until the claim runs out;
 * then published and marked sent (or given their retry time after a failed publish) in a second statement. No
 * transaction is held open across the broker's round trip. If the process dies between a commit or a claim and
 * the mark, the hold or the claim runs out and a relay republishes the rows with the same ids (at-least-once;
 * consumers de-duplicate with `handleOnce`). A publish slower than the claim may be published twice for the same
 * reason, never lost.
 */
export class OutboxRelay implements Handoff {
  private readonly database: Database;
  private readonly publisher: Publisher;
  private readonly logger: Logger;
  /** Envelope source of this relay's rows; also the metrics label. */
  readonly source: string;
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private readonly retentionMs: number;
  private readonly publishTimeoutMs: number;
  private readonly claimMs: number;
  private readonly handoffBatchMs: number;
  private readonly backoff: { initialMs: number; maxMs: number };
  private readonly metrics: RelayMetrics | undefined;

  private chain: Promise<unknown> = Promise.resolve();
  private loop: Promise<void> | undefined;
  private stopping = false;
  private woken = false;
  private wake: (() => void) | undefined;
  private lastSweep = 0;
  /** When a pending row is known to fall due (a retry after a failed publish); 0 when none is known. */
  private dueAt = 0;
  /** Rows handed over at their commits, gathering for the next publish. */
  private handed: OutboxRow[] = [];
  private handedTimer: NodeJS.Timeout | undefined;
  /** Publishes of handed rows not yet marked. */
  private readonly flights = new Set<Promise<void>>();

  constructor(opts: OutboxRelayOptions) {
    this.database = opts.database;
    this.publisher = opts.publisher;
    this.logger = opts.logger.child({ component: 'outbox-relay' });
    this.source = opts.source;
    this.batchSize = opts.batchSize ?? 200;
    this.pollIntervalMs = opts.pollIntervalMs ?? 30_000;
    this.retentionMs = opts.retentionMs ?? 3_600_000;
    this.publishTimeoutMs = opts.publishTimeoutMs ?? 30_000;
    this.claimMs = opts.claimMs ?? 15_000;
    this.handoffBatchMs = opts.handoffBatchMs ?? 5;
    this.backoff = opts.backoff ?? { initialMs: 1_000, maxMs: 60_000 };
    this.metrics = opts.registry ? registerMetrics(opts.registry, this) : undefined;
  }

  /** Starts the background loop, and takes the rows this process commits. Idempotent. */
  start(): void {
    if (this.loop) return;
    this.stopping = false;
    registerHandoff(this.database.db, this);
    this.loop = this.run();
  }

  /**
   * Stops polling and waits for the batches in flight to be published and marked (or recorded as failed). Rows
   * committed from now on are no longer taken: held, they fall due for a relay after `claimMs`.
   */
  async stop(): Promise<void> {
    unregisterHandoff(this.database.db, this);
    this.stopping = true;
    this.wake?.();
    if (this.handedTimer) {
      clearTimeout(this.handedTimer);
      this.publishHanded();
    }
    await Promise.all([...this.flights]);
    await this.loop;
    this.loop = undefined;
    if (this.metrics) this.metrics.relays.delete(this);
  }

  /** How long a row handed over at its commit is held from every claim. */
  get holdMs(): number {
    return this.claimMs;
  }

  /**
   * Rows a commit of this process wrote (the kit's enqueue functions call it after the commit): published with the
   * others handed over within `handoffBatchMs`, then marked, without being looked for.
   */
  take(rows: OutboxRow[]): void {
    if (this.stopping || rows.length === 0) return;
    // Not push(...rows): a transaction may write more events than a call takes arguments (a large import's mails).
    this.handed = this.handed.concat(rows);
    this.handedTimer ??= setTimeout(() => this.publishHanded(), this.handoffBatchMs);
  }

  private publishHanded(): void {
    this.handedTimer = undefined;
    const rows = this.handed;
    this.handed = [];
    for (let i = 0; i < rows.length; i += this.batchSize) {
      const flight = this.publishAndMark(rows.slice(i, i + this.batchSize)).then(
        (published) => {
          // Refused: the rows were given their retry time; the loop looks again when they fall due.
          if (published === 0) this.wake?.();
        },
        (err: unknown) => {
          this.logger.warn({ err }, 'marking published outbox events failed; they are published again later');
        },
      );
      this.flights.add(flight);
      void flight.finally(() => this.flights.delete(flight));
    }
  }

  /**
   * Looks for rows now instead of at the next check. While the relay runs, the rows its process commits are
   * handed to it and this does nothing; a stopped relay's `relayOnce` and the tests of the claim use it.
   */
  notify(): void {
    if (this.loop && !this.stopping) return;
    this.woken = true;
    this.wake?.();
  }

  /**
   * Publishes one batch of due rows; returns how many were confirmed. A failed publish is not thrown: it is
   * recorded on the rows (attempts, last_error, next_attempt_at) and 0 is returned. Database errors throw.
   */
  relayOnce(): Promise<number> {
    // One batch at a time per relay, so the loop and a direct call never claim side by side.
    const run = this.chain.then(() => this.batch());
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Rows not yet confirmed by the broker, and the age of the oldest one. */
  async pending(): Promise<{ count: number; oldestAgeSeconds: number }> {
    const [row] = await rows<{ count: number; age: number }>(
      this.database.db,
      sql`SELECT count(*)::int AS count,
                 coalesce(extract(epoch FROM clock_timestamp() - min(created_at)), 0)::float8 AS age
            FROM outbox WHERE sent_at IS NULL`,
    );
    return { count: row?.count ?? 0, oldestAgeSeconds: row?.age ?? 0 };
  }

  private async run(): Promise<void> {
    let consecutiveErrors = 0;
    // The first pass and every wake-up look for rows; a quiet spell only asks when the next row falls due.
    let look = true;
    while (!this.stopping) {
      const woken = this.woken || look;
      this.woken = false;
      look = false;
      try {
        // A full batch means more rows are probably waiting: go again without sleeping. Otherwise ask when the
        // next row falls due: after a pass too, whose batch may have left rows held (a claim of a process that
        // died, a publish refused) that fall due before the poll interval ends.
        if (woken && (await this.relayOnce()) === this.batchSize) look = true;
        else {
          const dueInMs = await this.nextDueInMs();
          // None pending: idle. Due now: look, then check again (other rows may fall due a little later).
          // Due later: check then.
          look = dueInMs !== undefined && dueInMs <= 0;
          this.dueAt = dueInMs === undefined ? 0 : Date.now() + Math.max(dueInMs, 0);
        }
        await this.sweep();
        consecutiveErrors = 0;
        if (look) continue;
      } catch (err) {
        consecutiveErrors++;
        look = true;
        const retryInMs = Math.min(DATABASE_RETRY_MS * 2 ** (consecutiveErrors - 1), 30_000);
        this.logger.warn({ err, retryInMs }, 'outbox relay could not reach the database');
        await this.sleep(retryInMs);
        continue;
      }
      if (this.woken) continue;
      await this.sleep(this.idleDelay());
    }
  }

  /** Until the next check, or sooner when a row is known to fall due. */
  private idleDelay(): number {
    if (this.dueAt === 0) return this.pollIntervalMs;
    return Math.min(this.pollIntervalMs, Math.max(0, this.dueAt - Date.now()));
  }

  /** Milliseconds until the next pending row falls due (0 or less: due now); undefined when none is pending. */
  private async nextDueInMs(): Promise<number | undefined> {
    const [row] = await rows<{ wait: number | null }>(
      this.database.db,
      sql`SELECT (extract(epoch FROM min(next_attempt_at) - now()) * 1000)::float8 AS wait
            FROM outbox WHERE sent_at IS NULL`,
    );
    return row?.wait ?? undefined;
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  private async batch(): Promise<number> {
    // Published in the order they were written, as the claim picked them.
    const due = await rows<OutboxRow>(
      this.database.db,
      sql`WITH claimed AS (
            UPDATE outbox o SET next_attempt_at = now() + ${this.claimMs}::float8 * interval '1 millisecond'
            FROM (SELECT id FROM outbox WHERE sent_at IS NULL AND next_attempt_at <= now()
                  ORDER BY created_at LIMIT ${this.batchSize} FOR UPDATE SKIP LOCKED) due
            WHERE o.id = due.id
            RETURNING o.id, o.name, o.payload, o.occurred_at, o.correlation_id, o.traceparent, o.tracestate,
                      o.source, o.created_at)
          SELECT id, name, payload, occurred_at, correlation_id, traceparent, tracestate, source
          FROM claimed ORDER BY created_at`,
    );
    return this.publishAndMark(due);
  }

  private async publishAndMark(due: OutboxRow[]): Promise<number> {
    const q = this.database.db;
    if (due.length === 0) return 0;
    const ids = sql.join(
      due.map((r) => sql`${r.id}`),
      sql`, `,
    );
    try {
      await withTimeout(this.publisher.publish(due.map((r) => this.toMessage(r))), this.publishTimeoutMs);
    } catch (err) {
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
      // Capped exponential backoff with ±25 % jitter, so replicas do not retry in lockstep.
      await q.execute(
        sql`UPDATE outbox SET attempts = attempts + 1, last_error = ${message},
              next_attempt_at = now() + least(${this.backoff.maxMs}::float8,
                ${this.backoff.initialMs}::float8 * power(2, least(attempts, 20)))
                * (0.75 + random() * 0.5) * interval '1 millisecond'
            WHERE id IN (${ids}) AND sent_at IS NULL`,
      );
      // The rows fall due again after the shortest backoff at the earliest; the slow check then asks exactly when.
      const retryAt = Date.now() + Math.max(50, this.backoff.initialMs * 0.75);
      this.dueAt = this.dueAt === 0 ? retryAt : Math.min(this.dueAt, retryAt);
      this.metrics?.failures.inc({ source: this.source }, due.length);
      this.logger.warn({ err, events: due.length }, 'publishing outbox events failed; they stay pending');
      return 0;
    }
    if (this.retentionMs === 0) {
      await q.execute(sql`DELETE FROM outbox WHERE id IN (${ids})`);
    } else {
      await q.execute(
        sql`UPDATE outbox SET sent_at = now(), payload = ''::bytea, last_error = NULL WHERE id IN (${ids})`,
      );
    }
    this.metrics?.published.inc({ source: this.source }, due.length);
    if (this.metrics) for (const r of due) this.metrics.bytes.inc({ event: r.name }, r.payload.byteLength);
    this.logger.debug({ events: due.length }, 'outbox events published');
    return due.length;
  }

  private toMessage(row: OutboxRow): BusMessage {
    return {
      id: row.id,
      name: row.name,
      occurredAt: new Date(row.occurred_at),
      correlationId: row.correlation_id ?? undefined,
      traceparent: row.traceparent ?? undefined,
      tracestate: row.tracestate ?? undefined,
      source: row.source ?? this.source,
      // node-postgres hands back a Buffer; consumers get a plain Uint8Array view of it.
      payload: new Uint8Array(row.payload.buffer, row.payload.byteOffset, row.payload.byteLength),
    };
  }

  private async sweep(): Promise<void> {
    if (this.retentionMs === 0 || Date.now() - this.lastSweep < Math.min(SWEEP_EVERY_MS, this.retentionMs))
      return;
    this.lastSweep = Date.now();
    await this.database.db.execute(
      sql`DELETE FROM outbox WHERE sent_at < now() - ${this.retentionMs}::float8 * interval '1 millisecond'`,
    );
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`publish not confirmed within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

interface RelayMetrics {
  published: Counter<'source'>;
  bytes: Counter<'event'>;
  failures: Counter<'source'>;
  relays: Set<OutboxRelay>;
}

const metricsByRegistry = new WeakMap<Registry, RelayMetrics>();

/** One set of metrics per registry, labelled by source, so several services can share a process. */
function registerMetrics(registry: Registry, relay: OutboxRelay): RelayMetrics {
  let metrics = metricsByRegistry.get(registry);
  if (!metrics) {
    const relays = new Set<OutboxRelay>();
    // Both gauges come from one query per relay; a scrape asks each gauge, so the answer is shared briefly.
    let snapshot:
      { at: number; values: Promise<Array<{ source: string; count: number; age: number }>> } | undefined;
    const read = () => {
      if (!snapshot || Date.now() - snapshot.at > 500) {
        snapshot = {
          at: Date.now(),
          values: Promise.all(
            [...relays].map(async (r) => {
              const { count, oldestAgeSeconds } = await r.pending();
              return { source: r.source, count, age: oldestAgeSeconds };
            }),
          ).catch(() => []), // database down: keep the last values rather than failing the whole scrape
        };
      }
      return snapshot.values;
    };
    metrics = {
      relays,
      published: new Counter({
        name: 'outbox_published_total',
        help: 'Outbox events confirmed by the broker',
        labelNames: ['source'],
        registers: [registry],
      }),
      // What the bus carries, by event: a certificate's event holds its PDF's key and digest, never the PDF.
      bytes: new Counter({
        name: 'outbox_published_bytes_total',
        help: 'Payload bytes of the outbox events confirmed by the broker, by event name',
        labelNames: ['event'],
        registers: [registry],
      }),
      failures: new Counter({
        name: 'outbox_publish_failures_total',
        help: 'Outbox events whose publish failed (they stay pending and are retried)',
        labelNames: ['source'],
        registers: [registry],
      }),
    };
    new Gauge({
      name: 'outbox_pending_messages',
      help: 'Outbox events not yet confirmed by the broker',
      labelNames: ['source'],
      registers: [registry],
      async collect() {
        for (const v of await read()) this.set({ source: v.source }, v.count);
      },
    });
    new Gauge({
      name: 'outbox_oldest_pending_seconds',
      help: 'Age of the oldest outbox event not yet confirmed by the broker',
      labelNames: ['source'],
      registers: [registry],
      async collect() {
        for (const v of await read()) this.set({ source: v.source }, v.age);
      },
    });
    metricsByRegistry.set(registry, metrics);
  }
  metrics.relays.add(relay);
  return metrics;
}
