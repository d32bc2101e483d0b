import { encodeEnvelope } from '@readiness/contracts';
import { AppError } from '../errors';
import {
  afterFailure,
  decodeDelivery,
  errorMessage,
  logHandlerFailure,
  runHandler,
  topicMatches,
  onDemandSubscription,
  validateSubscription,
} from './delivery';
import { busMetrics, type DeadLetterReason } from './metrics';
import {
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_PREFETCH,
  DEFAULT_RETRY_DELAYS_MS,
  DEFAULT_WAIT_HORIZON_MS,
  type BusMessage,
  type DeadLetter,
  type EventBus,
  type MemoryBusOptions,
  type Subscription,
} from './types';

export interface MemoryBus extends EventBus {
  /** Decodable messages the queue gave up on, oldest first. */
  deadLetters(queue: string): BusMessage[];
  /** Everything the queue gave up on, malformed bytes included, with the error and attempt count. */
  deadLetterRecords(queue: string): DeadLetter[];
  /** Resolves when no message is queued, being handled or waiting for a retry. */
  drain(): Promise<void>;
  /** Routes raw bytes as a misbehaving producer would (tests of malformed messages). */
  injectRaw(routingKey: string, body: Uint8Array): void;
  /** Messages published to an event no queue was bound to (the equivalent of the broker's unrouted queue). */
  unroutedCount(): number;
  pause(queue: string): Promise<void>;
  resume(queue: string): Promise<void>;
}

interface Delivery {
  body: Uint8Array;
  routingKey: string;
  attempt: number;
  /** Retries that only waited for something not there yet (`NotYetError`), and since when. */
  waits: number;
  waitingSince?: number;
  /** The publishes waiting for this delivery to finish (`confirmAfterHandlers`). */
  confirms: Confirmation[];
  /** The message id, kept while the delivery is pending so a republish joins it (`confirmAfterHandlers`). */
  id?: string;
}

/** One published message waiting for every queue it was routed to. */
interface Confirmation {
  remaining: number;
  settle(err?: Error): void;
}

interface MemoryQueue {
  sub: Subscription;
  maxAttempts: number;
  waitHorizonMs: number;
  ready: Delivery[];
  running: number;
  dead: DeadLetter[];
  /** Deliveries not finished yet by message id (`confirmAfterHandlers`). */
  pending: Map<string, Delivery>;
  /** Paused (`pause`): its messages wait in `ready` and none is handed to the handler. */
  held: boolean;
  /**
   * Ids of the latest messages its handler committed (`confirmAfterHandlers`): a relay that republishes a message
   * it stopped waiting for (another queue was paused, or slow) does not have it handled here again.
   */
  handled: Set<string>;
}

/** Unrouted and dead-lettered messages kept for inspection are bounded so a long run cannot exhaust memory. */
const MAX_KEPT = 10_000;

/**
 * The embedded event bus: the delivery contract of the RabbitMQ bus inside one process. Every handler has
 * its own queue; delivery is always asynchronous; a handler that throws is retried after a delay, then
 * its message is dead-lettered; messages travel as encoded envelopes so malformed bytes behave as they
 * do on the broker. Messages live in memory only: what is queued when the process stops is gone, which
 * is why it is the default for the all-in-one run and not for production.
 *
 * One instance is meant to be shared by every service of the all-in-one process: `start()` and
 * `close()` are counted, and the bus stops when the last starter closes it.
 */
export function createMemoryBus(opts: MemoryBusOptions): MemoryBus {
  return new InProcessBus(opts);
}

/** A published message's wait for every queue it was routed to, and its promise. */
function confirmation(confirmations: Set<Confirmation>): { confirm: Confirmation; done: Promise<void> } {
  let confirm!: Confirmation;
  const done = new Promise<void>((resolve, reject) => {
    confirm = {
      remaining: 0,
      settle(err) {
        if (err) {
          confirmations.delete(confirm);
          reject(err);
          return;
        }
        confirm.remaining -= 1;
        if (confirm.remaining > 0) return;
        confirmations.delete(confirm);
        resolve();
      },
    };
  });
  confirmations.add(confirm);
  return { confirm, done };
}

const keep = <T>(list: T[], item: T) => {
  list.push(item);
  if (list.length > MAX_KEPT) list.shift();
};

class InProcessBus implements MemoryBus {
  private readonly logger: MemoryBusOptions['logger'];
  private readonly maxAttempts: number;
  private readonly delays: number[];
  private readonly waitHorizonMs: number;
  private readonly prefetch: number;
  private readonly metrics: ReturnType<typeof busMetrics>;
  private readonly queues = new Map<string, MemoryQueue>();
  /** The events an on-demand queue is bound to, kept while its handler is stopped and started again. */
  private readonly bound = new Map<string, Set<string>>();
  private readonly unrouted: Array<Pick<Delivery, 'body' | 'routingKey'>> = [];
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly confirmations = new Set<Confirmation>();
  private idleWaiters: Array<() => void> = [];
  private state: 'idle' | 'started' | 'closed' = 'idle';
  private starters = 0;

  constructor(private readonly opts: MemoryBusOptions) {
    this.logger = opts.logger.child({
      component: 'bus',
      bus: 'memory',
      ...(opts.service ? { owner: opts.service } : {}),
    });
    this.maxAttempts = opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    this.delays = opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.waitHorizonMs = opts.waitHorizonMs ?? DEFAULT_WAIT_HORIZON_MS;
    this.prefetch = opts.prefetch ?? DEFAULT_PREFETCH;
    this.metrics = busMetrics(opts.registry);
  }

  async start() {
    this.ensureOpen();
    this.starters += 1;
    if (this.state === 'started') return;
    this.state = 'started';
    this.logger.info('in-process event bus started');
    for (const q of this.queues.values()) this.pump(q);
  }

  async subscribe(sub: Subscription) {
    this.ensureOpen();
    validateSubscription(sub);
    if (this.queues.has(sub.queue)) throw new Error(`queue ${sub.queue} already has a handler`);
    this.queues.set(sub.queue, {
      sub,
      maxAttempts: sub.maxAttempts ?? this.maxAttempts,
      waitHorizonMs: sub.waitHorizonMs ?? this.waitHorizonMs,
      ready: [],
      running: 0,
      dead: [],
      pending: new Map(),
      held: false,
      handled: new Set(),
    });
    this.logger.info({ queue: sub.queue, events: sub.events }, 'subscribed');
  }

  async unsubscribe(queue: string) {
    if (this.queues.delete(queue)) this.logger.info({ queue }, 'unsubscribed');
  }

  async pause(queue: string) {
    const q = this.queues.get(queue);
    if (!q || q.held) return;
    q.held = true;
    this.logger.debug({ queue }, 'paused');
  }

  async bindOnDemand(queue: string, events: readonly string[], mode: 'add' | 'exactly') {
    onDemandSubscription(this.queues.get(queue)?.sub, queue, events);
    const bound = mode === 'add' ? (this.bound.get(queue) ?? new Set<string>()) : new Set<string>();
    for (const e of events) bound.add(e);
    this.bound.set(queue, bound);
  }

  async resume(queue: string) {
    const q = this.queues.get(queue);
    if (!q?.held) return;
    q.held = false;
    this.logger.debug({ queue, waiting: q.ready.length }, 'resumed');
    this.pump(q);
  }

  async publish(messages: BusMessage[]) {
    this.ensureOpen();
    // Encode everything first: a message that cannot be encoded fails the whole batch, like a broker nack.
    const bodies = messages.map((m) => [m.name, encodeEnvelope(m)] as const);
    const waits: Promise<void>[] = [];
    for (const [i, [name, body]] of bodies.entries()) {
      if (this.opts.confirmAfterHandlers) {
        const { confirm, done } = confirmation(this.confirmations);
        this.route(name, body, { confirm, id: messages[i]!.id });
        // Routed nowhere: nobody in the process subscribes, so there is nothing to wait for.
        if (confirm.remaining === 0) confirm.settle();
        waits.push(done);
      } else this.route(name, body);
      this.metrics.published(name);
    }
    await Promise.all(waits);
  }

  ready() {
    return this.state === 'started';
  }

  async close() {
    if (this.state === 'closed') return;
    if (this.starters > 1) {
      this.starters -= 1;
      return;
    }
    this.state = 'closed';
    for (const t of this.retryTimers) clearTimeout(t);
    this.retryTimers.clear();
    await Promise.allSettled([...this.inFlight]);
    // Publishes still waiting for a handler are not confirmed: their outbox rows stay pending.
    for (const c of [...this.confirmations]) {
      c.settle(new AppError('bus_closed', 'Event bus closed before handling', 503));
    }
    // Whatever is still queued will never be delivered now: nobody should wait for it.
    this.wakeIdleWaiters();
    this.logger.info('in-process event bus closed');
  }

  deadLetters(queue: string) {
    return (this.queues.get(queue)?.dead ?? []).flatMap((d) => (d.message ? [d.message] : []));
  }

  deadLetterRecords(queue: string) {
    return [...(this.queues.get(queue)?.dead ?? [])];
  }

  drain() {
    if (this.isIdle() || this.state === 'closed') return Promise.resolve();
    return new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  injectRaw(routingKey: string, body: Uint8Array) {
    this.ensureOpen();
    this.route(routingKey, Uint8Array.from(body));
  }

  unroutedCount() {
    return this.unrouted.length;
  }

  private ensureOpen() {
    if (this.state === 'closed') throw new AppError('bus_closed', 'Event bus is closed', 503);
  }

  private isIdle() {
    return (
      this.retryTimers.size === 0 &&
      this.inFlight.size === 0 &&
      [...this.queues.values()].every((q) => q.ready.length === 0 && q.running === 0)
    );
  }

  private wakeIdleWaiters() {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private notifyIfIdle() {
    if (this.isIdle()) this.wakeIdleWaiters();
  }

  private route(routingKey: string, body: Uint8Array, confirm?: { confirm: Confirmation; id: string }) {
    let routed = false;
    for (const q of this.queues.values()) {
      const takes = q.sub.onDemand
        ? (this.bound.get(q.sub.queue)?.has(routingKey) ?? false)
        : q.sub.events.some((pattern) => topicMatches(pattern, routingKey));
      if (!takes) continue;
      routed = true;
      // Handled here already: this queue has nothing to wait for.
      if (confirm && q.handled.has(confirm.id)) continue;
      if (confirm) confirm.confirm.remaining += 1;
      const same = confirm && q.pending.get(confirm.id);
      if (same) {
        // A republish (the relay timed out waiting) of a message this queue has not finished with: wait for it.
        same.confirms.push(confirm.confirm);
        continue;
      }
      const delivery: Delivery = {
        body,
        routingKey,
        attempt: 1,
        waits: 0,
        confirms: confirm ? [confirm.confirm] : [],
        id: confirm?.id,
      };
      if (confirm) q.pending.set(confirm.id, delivery);
      q.ready.push(delivery);
      // Never deliver inside publish(): the publisher's transaction and call stack are not the handler's.
      setImmediate(() => this.pump(q));
    }
    if (!routed) keep(this.unrouted, { body, routingKey });
  }

  private pump(q: MemoryQueue) {
    if (this.state !== 'started' || this.queues.get(q.sub.queue) !== q || q.held) return;
    while (q.running < this.prefetch && q.ready.length > 0) {
      const delivery = q.ready.shift() as Delivery;
      q.running += 1;
      const p: Promise<void> = this.deliver(q, delivery).finally(() => {
        q.running -= 1;
        this.inFlight.delete(p);
        this.pump(q);
        this.notifyIfIdle();
      });
      this.inFlight.add(p);
    }
  }

  private deadLetter(
    q: MemoryQueue,
    d: Delivery,
    message: BusMessage | undefined,
    error: string,
    reason: DeadLetterReason,
  ) {
    keep(q.dead, { message, body: d.body, routingKey: d.routingKey, error, attempts: d.attempt });
    this.finished(q, d);
    this.metrics.deadLettered(q.sub.queue, message?.name ?? 'unknown', reason);
    this.logger.error(
      { queue: q.sub.queue, event: message?.name, id: message?.id, reason, error },
      'message dead-lettered',
    );
  }

  /** The delivery is done with (handled or dead-lettered): every publish waiting for it is confirmed. */
  private finished(q: MemoryQueue, d: Delivery) {
    if (d.id !== undefined) q.pending.delete(d.id);
    for (const confirm of d.confirms.splice(0)) confirm.settle();
  }

  private async deliver(q: MemoryQueue, d: Delivery): Promise<void> {
    const decoded = decodeDelivery(d.body, q.sub);
    if (!decoded.ok) {
      this.deadLetter(q, d, decoded.message, decoded.error, 'malformed');
      return;
    }
    const { message } = decoded;
    try {
      await runHandler(q.sub, message, { attempt: d.attempt, queue: q.sub.queue, payload: decoded.payload });
      this.metrics.consumed(q.sub.queue, message.name);
      if (d.id !== undefined) {
        q.handled.add(d.id);
        if (q.handled.size > MAX_KEPT) q.handled.delete(q.handled.values().next().value as string);
      }
      this.finished(q, d);
    } catch (err) {
      this.failed(q, d, message, err);
    }
  }

  /** A handler threw: the delivery is retried after its delay, or dead-lettered when its attempts are spent. */
  private failed(q: MemoryQueue, d: Delivery, message: BusMessage, err: unknown) {
    const outcome = afterFailure(err, d, {
      maxAttempts: q.maxAttempts,
      waitHorizonMs: q.waitHorizonMs,
      delays: this.delays,
    });
    logHandlerFailure(this.logger, err, {
      queue: q.sub.queue,
      event: message.name,
      id: message.id,
      attempt: d.attempt,
      final: !outcome.retry,
    });
    if (!outcome.retry) {
      this.deadLetter(q, d, message, errorMessage(err), outcome.reason);
      return;
    }
    this.metrics.retried(q.sub.queue, message.name);
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      if (this.state === 'closed') return;
      Object.assign(d, outcome.next);
      q.ready.push(d);
      this.pump(q);
      this.notifyIfIdle();
    }, outcome.delayMs);
    this.retryTimers.add(timer);
  }
}
