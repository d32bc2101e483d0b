import type { EnvelopeFields } from '@readiness/contracts';
import type { Registry } from 'prom-client';
import type { Logger } from '../logger';

/** One event as it travels on the bus: the envelope fields with the protobuf-encoded payload. */
export type BusMessage = EnvelopeFields;

export interface Publisher {
  /** Resolves only when the bus has accepted (RabbitMQ: confirmed) every message; rejects otherwise. */
  publish(messages: BusMessage[]): Promise<void>;
}

export interface HandlerContext {
  /** 1 on the first delivery, incremented by every retry the bus schedules. */
  attempt: number;
  queue: string;
  /** The payload decoded with its contract from proto/ (absent for an event no contract names). */
  payload?: unknown;
}

export interface Subscription {
  /** The full queue name, `<service>.<handler>`; one queue per handler. */
  queue: string;
  /** Event names this handler receives (routing keys bound to the queue). */
  events: string[];
  /** Resolve after the effect is committed: the message is acked then. Throw to have it retried. */
  handle(msg: BusMessage, ctx: HandlerContext): Promise<void>;
  /** Deliveries before the message is dead-lettered; defaults to the bus's `maxAttempts`. */
  maxAttempts?: number;
  /**
   * How long a message whose handler throws `NotYetError` keeps being retried, from its first such failure,
   * before it is dead-lettered (`wait_expired`); defaults to the bus's `waitHorizonMs`. Those retries do not
   * count against `maxAttempts`.
   */
  waitHorizonMs?: number;
  /**
   * Background work (certificates, mails, the dashboard's figures) that gives way to students waiting in the
   * waiting room: the runtime pauses the queue while students wait and resumes it after (`pause`, `resume`).
   */
  yieldsToStudents?: boolean;
  /**
   * Bound to none of `events` when declared: its service binds those its configuration needs (`bindOnDemand`).
   * The consumer table's `boundOnDemand` queues.
   */
  onDemand?: boolean;
}

export interface EventBus extends Publisher {
  /** Connects. The RabbitMQ bus keeps retrying in the background and never throws when the broker is down. */
  start(): Promise<void>;
  subscribe(sub: Subscription): Promise<void>;
  /**
   * Stops handing a queue's messages to its handler, so another may take the queue: for the in-process bus,
   * which one process shares and which outlives a service stopped and started again in it. The RabbitMQ bus
   * has one connection per service and ends its consumers in `close()`.
   */
  unsubscribe?(queue: string): Promise<void>;
  /**
   * Stops delivering a subscribed queue's messages, which stay queued; handlers already running finish and ack.
   * RabbitMQ cancels the queue's consumer (and starts none for it on a reconnect); the in-process bus holds them.
   */
  pause?(queue: string): Promise<void>;
  /** Delivers a paused queue again, from where it stopped. */
  resume?(queue: string): Promise<void>;
  /**
   * Binds an on-demand queue this bus consumes (`Subscription.onDemand`) to `events`, which must be among its
   * subscription's; `exactly` also unbinds the rest of them, `add` leaves them as they are. The bindings are the
   * broker's, shared by every replica: the caller decides them under a lock of its own. Rejects at once (503) when
   * the broker is not connected.
   */
  bindOnDemand(queue: string, events: readonly string[], mode: 'add' | 'exactly'): Promise<void>;
  /** True while the bus can publish and consume (used by /readyz). */
  ready(): boolean;
  /** Cancels consumers, waits for in-flight handlers, sends their acks, closes channels and the connection. */
  close(): Promise<void>;
}

export interface BusOptions {
  logger: Logger;
  /** Deliveries before a failing message is dead-lettered. Default 5. */
  maxAttempts?: number;
  /** Wait before retry n (1-based) is `retryDelaysMs[min(n-1, length-1)]`. */
  retryDelaysMs?: number[];
  /** How long `NotYetError` failures keep being retried; default 24 hours. */
  waitHorizonMs?: number;
  /** Where the bus counters are registered; without it, no metrics. */
  registry?: Registry;
}

export interface RabbitBusOptions extends BusOptions {
  url: string;
  /** Name of the service, used in logs and as the connection name shown by the broker. */
  service: string;
  /** Topic exchange all events are published to. Default `readiness.events`. */
  exchange?: string;
  /** Unacknowledged deliveries per handler. Default 10. */
  prefetch?: number;
  /**
   * How long a consumer gathers the acks of finished deliveries before sending them in as few frames as their
   * delivery tags allow (`basic.ack` with `multiple`); sooner when every prefetch slot has finished. Default 5;
   * 0 acks each delivery at once.
   */
  ackWindowMs?: number;
  /** Reconnect backoff: first delay and cap, in ms. Defaults 200 and 30000. */
  reconnectDelayMs?: { initial: number; max: number };
  /** How long a publish waits for broker confirms (and for a blocked connection) before rejecting. Default 30000. */
  publishTimeoutMs?: number;
  /**
   * Handler queues of other services (with their dead-letter queues and bindings) declared on every
   * connection without consuming them, so that an event published before its consumer first connected
   * waits in that consumer's queue.
   */
  declareQueues?: ReadonlyArray<{ queue: string; events: readonly string[]; onDemand?: boolean }>;
  /**
   * How long after connecting the bus deletes the empty per-handler wait queues of releases before the shared
   * ones (`retiredRetryQueues`): long enough for a rolling upgrade to have stopped every replica of the release
   * before, which still publishes its retries to them. Default 10 minutes.
   */
  retiredQueuesAfterMs?: number;
}

export interface MemoryBusOptions extends BusOptions {
  /** Only used in logs: one instance is shared by every service of the all-in-one process. */
  service?: string;
  /**
   * When true, `publish()` resolves only once every queue the message was routed to has finished with it
   * (its handler committed, or the message was dead-lettered), and rejects when the bus closes first. The
   * all-in-one relays publish through it, so an outbox row is marked sent only after every subscriber in the
   * process has committed its effect: a crash in the middle of a handler leaves the row pending, and the
   * next start delivers the event again.
   */
  confirmAfterHandlers?: boolean;
  /** Handlers running at once per queue, like a consumer prefetch. Default 10. */
  prefetch?: number;
}

/** A message a handler's queue gave up on, with the reason. */
export interface DeadLetter {
  /** The decoded message; absent when the bytes were not an envelope. */
  message?: BusMessage;
  /** The bytes as they were published. */
  body: Uint8Array;
  /** Routing key (event name) the message was published with. */
  routingKey: string;
  error: string;
  attempts: number;
}

export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 25_000, 120_000];
export const DEFAULT_PREFETCH = 10;
export const DEFAULT_ACK_WINDOW_MS = 5;
export const DEFAULT_WAIT_HORIZON_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_RETIRED_QUEUES_AFTER_MS = 10 * 60 * 1000;
export const DEFAULT_EXCHANGE = 'readiness.events';
