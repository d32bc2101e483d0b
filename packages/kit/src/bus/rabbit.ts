import amqp, {
  type Channel,
  type ChannelModel,
  type ConfirmChannel,
  type ConsumeMessage,
  type Message,
  type Options,
} from 'amqplib';
import { encodeEnvelope } from '@readiness/contracts';
import { AppError } from '../errors';
import type { Logger } from '../logger';
import { withTraceOf } from '../tracing';
import { ChannelAcks } from './acks';
import {
  afterFailure,
  decodeDelivery,
  errorMessage,
  logHandlerFailure,
  type FailureOutcome,
  runHandler,
  onDemandSubscription,
  validateSubscription,
} from './delivery';
import { busMetrics, type BusMetrics, type DeadLetterReason } from './metrics';
import {
  DEFAULT_ACK_WINDOW_MS,
  DEFAULT_EXCHANGE,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_PREFETCH,
  DEFAULT_RETIRED_QUEUES_AFTER_MS,
  DEFAULT_RETRY_DELAYS_MS,
  DEFAULT_WAIT_HORIZON_MS,
  type BusMessage,
  type EventBus,
  type RabbitBusOptions,
  type Subscription,
} from './types';

/** Header names the bus writes; operators read them on messages in a `.dlq`. */
export const HEADERS = {
  attempt: 'x-retry-attempt',
  /** Retries that only waited for something not there yet (`NotYetError`), and since when (epoch ms). */
  waits: 'x-wait-retries',
  waitingSince: 'x-waiting-since',
  lastError: 'x-last-error',
  reason: 'x-dead-letter-reason',
  originalRoutingKey: 'x-original-routing-key',
} as const;

export const CONTENT_TYPE = 'application/x-protobuf';

/** Names of the broker objects behind one handler queue. */
export function queueTopology(queue: string) {
  return { queue, deadLetterExchange: `${queue}.dlx`, deadLetterQueue: `${queue}.dlq` };
}

/**
 * The wait queues of retries, shared by every handler on the exchange: one per delay, each behind a fanout exchange
 * of the same name. A retry is published to that exchange with its handler's queue as the routing key; when its TTL
 * runs out the broker dead-letters it to the default exchange under that key, which delivers it to the handler's
 * queue. Named after the delay, so changing the delays declares new queues instead of clashing with old arguments.
 */
export function retryTopology(exchange: string, retryDelaysMs: readonly number[]) {
  return [...new Set(retryDelaysMs)].map((ms) => ({ name: `${exchange}.retry-${ms}ms`, ms }));
}

/**
 * The wait queues releases before the shared ones declared for each handler (`<queue>.retry-<ms>ms`). The bus
 * deletes them once they are empty, `retiredQueuesAfterMs` after it connected, when no replica of such a release
 * should still be publishing to them.
 */
export function retiredRetryQueues(queue: string, retryDelaysMs: readonly number[]): string[] {
  return [...new Set([...retryDelaysMs, ...DEFAULT_RETRY_DELAYS_MS])].map((ms) => `${queue}.retry-${ms}ms`);
}

/** Unrouted events land here: `<exchange>.unrouted`. */
export const unroutedQueueName = (exchange: string) => `${exchange}.unrouted`;

/**
 * A safety net under our own retry counting: a message that keeps coming back without our code getting
 * to ack or retry it (a handler that crashes the process every time) is dead-lettered by the broker.
 */
const DELIVERY_LIMIT = 20;
/** Bound on events nobody subscribes to, so they cannot fill the broker's disk. */
const UNROUTED_MAX_LENGTH = 100_000;
const CONNECT_TIMEOUT_MS = 10_000;

interface ConsumerState {
  sub: Subscription;
  maxAttempts: number;
  waitHorizonMs: number;
  /** The connection this consumer was started on, so a subscribe racing a reconnect starts it once. */
  startedOn?: ChannelModel;
  channel?: Channel;
  /** The acknowledgements of `channel`. */
  acks?: ChannelAcks;
  /** The channel once its queue is declared and its prefetch set: ready for `basic.consume`. */
  prepared?: Channel;
  consumerTag?: string;
  /** A `basic.consume` on its way: no second one is sent for the queue meanwhile. */
  consuming?: boolean;
  /** Paused (`pause`): the queue is declared on every connection but not consumed. */
  paused: boolean;
}

interface PendingConfirm {
  returned: boolean;
}

/**
 * The production event bus on RabbitMQ.
 *
 * Publishing: a durable topic exchange, routing key = event name; a confirm channel with `mandatory` and
 * `persistent`; a batch is written in full (pausing on `drain` when the socket buffer is full) and then
 * its confirms are awaited together. A nack, a returned message, a closed channel or a timeout rejects.
 *
 * Unrouted events: events nobody subscribes to yet are legal in pub/sub, and an outbox relay must not be
 * stuck forever on one. The exchange therefore has an alternate exchange feeding `<exchange>.unrouted`:
 * the broker routes such an event there and acks it, so nothing is silently dropped. `mandatory` stays on
 * and a returned message now means the topology itself is broken (the unrouted queue is missing), which
 * is worth a failed publish and a retry.
 *
 * Consuming: one durable quorum queue per handler with its own dead-letter exchange and `.dlq`. Retries are
 * counted by the bus in a header: a failed message is republished to the wait queue of its backoff step, which every
 * handler shares (`retryTopology`) and whose TTL dead-letters it back to its handler's queue alone, then the original
 * is acked, so a failing message never
 * blocks the ones behind it. After `maxAttempts` (or at once when malformed) it is published to the
 * `.dlq` with the last error in a header. Acks are manual, after the handler resolved, and gathered per channel
 * for `ackWindowMs` into as few frames as the delivery tags allow (`ChannelAcks`).
 *
 * Connection: amqplib does not reconnect by itself. On a lost connection the bus reconnects with capped,
 * jittered exponential backoff, re-declares the whole topology and re-subscribes every consumer.
 * Publishes made while disconnected fail fast: the outbox relay keeps the rows and retries.
 */
export function createRabbitBus(opts: RabbitBusOptions): EventBus {
  return new RabbitBus(opts);
}

class RabbitBus implements EventBus {
  private readonly log: Logger;
  private readonly exchange: string;
  private readonly prefetch: number;
  private readonly ackWindowMs: number;
  private readonly maxAttempts: number;
  private readonly waitHorizonMs: number;
  private readonly delays: number[];
  private readonly publishTimeoutMs: number;
  private readonly backoff: { initial: number; max: number };
  private readonly metrics: BusMetrics;

  private conn?: ChannelModel;
  private pub?: ConfirmChannel;
  private blocked = false;
  /** Connected with the whole topology declared and every consumer started. */
  private live = false;
  private started = false;
  private closing = false;
  private connecting?: Promise<void>;
  private reconnectTimer?: NodeJS.Timeout;
  private retiredQueuesTimer?: NodeJS.Timeout;
  /** Failed attempts since the bus was last live; grows the backoff even when a connection opens and fails. */
  private failedAttempts = 0;
  private readonly consumers = new Map<string, ConsumerState>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Confirms not yet received, per (exchange, routing key, message id), in publish order. */
  private readonly awaitingConfirm = new Map<string, PendingConfirm[]>();
  /** Woken on every connection state change (unblocked, closed) so waiting publishes re-check. */
  private stateListeners = new Set<() => void>();

  constructor(private readonly opts: RabbitBusOptions) {
    this.log = opts.logger.child({ component: 'bus', bus: 'rabbitmq' });
    this.exchange = opts.exchange ?? DEFAULT_EXCHANGE;
    this.prefetch = opts.prefetch ?? DEFAULT_PREFETCH;
    this.ackWindowMs = opts.ackWindowMs ?? DEFAULT_ACK_WINDOW_MS;
    this.maxAttempts = opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    this.delays = opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.waitHorizonMs = opts.waitHorizonMs ?? DEFAULT_WAIT_HORIZON_MS;
    this.publishTimeoutMs = opts.publishTimeoutMs ?? 30_000;
    this.backoff = opts.reconnectDelayMs ?? { initial: 200, max: 30_000 };
    this.metrics = busMetrics(opts.registry);
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  async start(): Promise<void> {
    if (this.closing) throw new AppError('bus_closed', 'Event bus is closed', 503);
    if (this.started) return;
    this.started = true;
    // The first attempt is awaited so a healthy broker means a ready bus when start() returns; a failed
    // one is only logged and retried in the background: a service boots and serves without its broker.
    await this.attemptConnect();
  }

  ready(): boolean {
    return this.live && !this.closing;
  }

  async subscribe(sub: Subscription): Promise<void> {
    if (this.closing) throw new AppError('bus_closed', 'Event bus is closed', 503);
    validateSubscription(sub);
    if (this.consumers.has(sub.queue)) throw new Error(`queue ${sub.queue} already has a handler`);
    const state: ConsumerState = {
      sub,
      maxAttempts: sub.maxAttempts ?? this.maxAttempts,
      waitHorizonMs: sub.waitHorizonMs ?? this.waitHorizonMs,
      paused: false,
    };
    this.consumers.set(sub.queue, state);
    // Connected: start consuming now. Otherwise the next successful connection declares and starts it.
    const conn = this.conn;
    if (conn) await this.startConsumer(conn, state);
  }

  /**
   * Cancels the queue's consumer (basic.cancel): the broker sends nothing more and keeps the queue's messages, while
   * the deliveries already here are handled and acked on their channel as usual.
   */
  async pause(queue: string): Promise<void> {
    const state = this.consumers.get(queue);
    if (!state || state.paused) return;
    state.paused = true;
    await this.cancelConsumer(state);
  }

  async resume(queue: string): Promise<void> {
    const state = this.consumers.get(queue);
    if (!state?.paused) return;
    state.paused = false;
    const { prepared, startedOn, acks } = state;
    if (prepared && startedOn && acks && prepared === state.channel)
      await this.consume(state, startedOn, acks);
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.retiredQueuesTimer) clearTimeout(this.retiredQueuesTimer);
    await this.connecting?.catch(() => undefined);
    const conn = this.conn;
    // Stop new deliveries first, then let the handlers that are running finish and ack; the acks still gathered
    // are sent before the connection closes, so a clean stop leaves nothing unacknowledged.
    await Promise.allSettled(
      [...this.consumers.values()].map((c) => {
        c.acks?.flush();
        return c.channel && c.consumerTag ? c.channel.cancel(c.consumerTag) : undefined;
      }),
    );
    await Promise.allSettled([...this.inFlight]);
    for (const c of this.consumers.values()) c.acks?.flush();
    this.live = false;
    this.conn = undefined;
    this.pub = undefined;
    this.wakeStateListeners();
    if (conn)
      await conn
        .close()
        .catch((err: unknown) => this.log.warn({ err }, 'error while closing the connection'));
    this.log.info('event bus closed');
  }

  // ---- connection ------------------------------------------------------------------------------

  private attemptConnect(): Promise<void> {
    const run = this.connect()
      .catch((err: unknown) => {
        if (this.closing) return;
        this.log.warn(
          { err, failedAttempts: this.failedAttempts + 1 },
          'cannot reach the broker; will retry',
        );
        this.scheduleReconnect();
      })
      .finally(() => {
        if (this.connecting === run) this.connecting = undefined;
      });
    this.connecting = run;
    return run;
  }

  /** Capped exponential backoff with "equal jitter": half the delay fixed, half random, so restarts spread. */
  private scheduleReconnect(): void {
    if (this.closing || this.reconnectTimer) return;
    this.failedAttempts += 1;
    const base = Math.min(
      this.backoff.max,
      this.backoff.initial * 2 ** Math.min(30, this.failedAttempts - 1),
    );
    const delay = base / 2 + Math.random() * (base / 2);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.attemptConnect();
    }, delay);
    this.reconnectTimer.unref?.();
  }

  private async connect(): Promise<void> {
    const conn = await amqp.connect(this.opts.url, {
      clientProperties: { connection_name: `${this.opts.service} event bus` },
      // A broker behind a black hole must not hang start() or the reconnect loop.
      timeout: CONNECT_TIMEOUT_MS,
    });
    conn.on('error', (err: Error) => this.log.error({ err }, 'broker connection error'));
    conn.on('close', (err?: Error) => this.onConnectionClosed(conn, err));
    conn.on('blocked', (reason: string) => {
      this.blocked = true;
      this.log.warn({ reason }, 'broker blocked publishing (resource alarm)');
    });
    conn.on('unblocked', () => {
      this.blocked = false;
      this.log.info('broker unblocked publishing');
      this.wakeStateListeners();
    });
    try {
      if (this.closing) throw new Error('bus closed while connecting');
      const pub = await conn.createConfirmChannel();
      pub.on('error', (err: Error) => this.log.error({ err }, 'publish channel error'));
      pub.on('return', (msg: Message) => this.onReturned(msg));
      pub.on('close', () => this.onChannelClosed(conn, pub, 'publish'));
      await this.declareExchanges(pub);
      for (const q of this.opts.declareQueues ?? []) {
        await this.declareHandlerQueue(pub, q.queue, q.onDemand ? [] : q.events);
      }
      this.conn = conn;
      this.pub = pub;
      this.blocked = false;
    } catch (err) {
      await conn.close().catch(() => undefined);
      throw err;
    }
    // From here a failure closes the connection, and the close handler schedules the next attempt.
    try {
      for (const state of this.consumers.values()) await this.startConsumer(conn, state);
      if (this.conn === conn) {
        this.live = true;
        this.log.info({ afterFailedAttempts: this.failedAttempts }, 'connected to the broker');
        this.failedAttempts = 0;
        this.scheduleRetiredQueues(conn);
      }
    } catch (err) {
      this.log.error({ err }, 'cannot start consumers; reconnecting');
      await conn.close().catch(() => undefined);
    }
  }

  /** Deletes the retired wait queues (`retiredRetryQueues`) of this bus's handlers a while after it connected. */
  private scheduleRetiredQueues(conn: ChannelModel): void {
    if (this.retiredQueuesTimer) clearTimeout(this.retiredQueuesTimer);
    this.retiredQueuesTimer = setTimeout(() => {
      this.retiredQueuesTimer = undefined;
      this.deleteRetiredQueues(conn).catch((err: unknown) =>
        this.log.warn({ err }, 'cannot delete the retired wait queues; trying after the next connection'),
      );
    }, this.opts.retiredQueuesAfterMs ?? DEFAULT_RETIRED_QUEUES_AFTER_MS);
    this.retiredQueuesTimer.unref?.();
  }

  private async deleteRetiredQueues(conn: ChannelModel): Promise<void> {
    // Releases before declared wait queues only for the handlers they consumed for, as this bus's own consumers.
    for (const name of [...this.consumers.keys()].flatMap((q) => retiredRetryQueues(q, this.delays))) {
      if (this.closing || this.conn !== conn) return;
      // Quorum queues refuse `ifEmpty` (and the broker closes the connection for it), so the bus looks first. A queue
      // that is not there closes its channel (404), so each look has a channel of its own.
      const ch = await conn.createChannel();
      ch.on('error', () => undefined);
      let waiting: number;
      try {
        ({ messageCount: waiting } = await ch.checkQueue(name));
      } catch {
        continue; // not there
      }
      if (waiting > 0)
        this.log.info(
          { queue: name, waiting },
          'a retired wait queue still holds retries; kept until the next connection',
        );
      else {
        await ch.deleteQueue(name);
        this.log.info({ queue: name }, 'retired wait queue deleted');
      }
      await ch.close().catch(() => undefined);
    }
  }

  private onConnectionClosed(conn: ChannelModel, err?: Error): void {
    if (this.conn !== conn) return;
    this.live = false;
    this.conn = undefined;
    this.pub = undefined;
    this.blocked = false;
    for (const state of this.consumers.values()) {
      state.startedOn = undefined;
      state.channel = undefined;
      state.acks = undefined;
      state.prepared = undefined;
      state.consumerTag = undefined;
    }
    this.wakeStateListeners();
    if (this.closing) return;
    this.log.error({ err }, 'lost the broker connection; reconnecting');
    this.scheduleReconnect();
  }

  /**
   * A channel closed while its connection lives means a channel-level error (a precondition, an unknown
   * delivery tag). Rather than patching one channel, recycle the connection: the reconnect path declares
   * everything afresh and is the path that is tested.
   */
  private onChannelClosed(conn: ChannelModel, channel: Channel, role: string): void {
    if (this.closing || this.conn !== conn) return;
    if (role === 'publish' && this.pub !== channel) return;
    this.log.error({ role }, 'broker closed a channel; recycling the connection');
    conn.close().catch(() => undefined);
  }

  private wakeStateListeners(): void {
    const listeners = this.stateListeners;
    this.stateListeners = new Set();
    for (const l of listeners) l();
  }

  // ---- topology --------------------------------------------------------------------------------

  private async declareExchanges(ch: Channel): Promise<void> {
    const unrouted = unroutedQueueName(this.exchange);
    await ch.assertExchange(unrouted, 'fanout', { durable: true });
    await ch.assertQueue(unrouted, {
      durable: true,
      arguments: { 'x-queue-type': 'quorum', 'x-max-length': UNROUTED_MAX_LENGTH },
    });
    await ch.bindQueue(unrouted, unrouted, '');
    await ch.assertExchange(this.exchange, 'topic', { durable: true, alternateExchange: unrouted });
    await this.declareRetryQueues(ch);
  }

  /**
   * A handler's queue, its dead-letter exchange and queue, and its bindings: what any service may declare. An
   * on-demand queue is declared with none, and a binding its service made is left as it is (bindings outlive
   * connections).
   */
  private async declareHandlerQueue(ch: Channel, queue: string, events: readonly string[]): Promise<void> {
    const t = queueTopology(queue);
    await ch.assertExchange(t.deadLetterExchange, 'fanout', { durable: true });
    await ch.assertQueue(t.deadLetterQueue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await ch.bindQueue(t.deadLetterQueue, t.deadLetterExchange, '');
    await ch.assertQueue(t.queue, {
      durable: true,
      arguments: {
        'x-queue-type': 'quorum',
        'x-dead-letter-exchange': t.deadLetterExchange,
        'x-delivery-limit': DELIVERY_LIMIT,
      },
    });
    for (const event of events) await ch.bindQueue(t.queue, this.exchange, event);
  }

  /** The wait queues of retries (`retryTopology`), which every handler on the exchange shares. */
  private async declareRetryQueues(ch: Channel): Promise<void> {
    for (const wait of retryTopology(this.exchange, this.delays)) {
      await ch.assertExchange(wait.name, 'fanout', { durable: true });
      await ch.assertQueue(wait.name, {
        durable: true,
        arguments: {
          'x-queue-type': 'quorum',
          'x-message-ttl': wait.ms,
          // Expired messages go back through the default exchange under their own routing key: their handler's queue.
          'x-dead-letter-exchange': '',
          // The broker keeps a waiting message until the handler's queue has confirmed it (quorum queues, 3.10+).
          'x-dead-letter-strategy': 'at-least-once',
          'x-overflow': 'reject-publish',
        },
      });
      await ch.bindQueue(wait.name, wait.name, '');
    }
  }

  async bindOnDemand(queue: string, events: readonly string[], mode: 'add' | 'exactly'): Promise<void> {
    const declared = onDemandSubscription(this.consumers.get(queue)?.sub, queue, events);
    const conn = this.conn;
    if (!conn || this.closing) {
      throw new AppError('bus_unavailable', 'Event bus is not connected to the broker', 503);
    }
    // A channel of its own: a refusal closes it, not the publish channel.
    let ch: Channel | undefined;
    try {
      ch = await conn.createChannel();
      ch.on('error', (err: Error) => this.log.warn({ err, queue }, 'binding channel error'));
      for (const event of declared.events) {
        if (events.includes(event)) await ch.bindQueue(queue, this.exchange, event);
        else if (mode === 'exactly') await ch.unbindQueue(queue, this.exchange, event);
      }
    } catch (err) {
      throw new AppError('bus_unavailable', `Cannot bind ${queue}: ${errorMessage(err)}`, 503, {
        cause: err,
      });
    } finally {
      await ch?.close().catch(() => undefined);
    }
    this.log.debug({ queue, events, mode }, 'bound on demand');
  }

  // ---- consuming -------------------------------------------------------------------------------

  private async startConsumer(conn: ChannelModel, state: ConsumerState): Promise<void> {
    if (state.startedOn === conn) return;
    state.startedOn = conn;
    const ch = await conn.createChannel();
    ch.on('error', (err: Error) => this.log.error({ err, queue: state.sub.queue }, 'consumer channel error'));
    ch.on('close', () => {
      if (state.channel === ch) this.onChannelClosed(conn, ch, 'consume');
    });
    state.channel = ch;
    const acks = new ChannelAcks(ch, {
      windowMs: this.ackWindowMs,
      prefetch: this.prefetch,
      log: this.log,
      queue: state.sub.queue,
    });
    state.acks = acks;
    await this.declareHandlerQueue(ch, state.sub.queue, state.sub.onDemand ? [] : state.sub.events);
    await ch.prefetch(this.prefetch);
    state.prepared = ch;
    await this.consume(state, conn, acks);
  }

  /** Starts the queue's consumer on its channel, unless it is paused or already consuming. */
  private async consume(state: ConsumerState, conn: ChannelModel, acks: ChannelAcks): Promise<void> {
    const ch = acks.channel;
    if (state.paused || state.consumerTag || state.consuming) return;
    state.consuming = true;
    let consumerTag: string;
    try {
      ({ consumerTag } = await ch.consume(
        state.sub.queue,
        (msg) => {
          if (msg === null) {
            // The broker cancelled the consumer (queue deleted, leader moved away): start over.
            this.log.warn({ queue: state.sub.queue }, 'consumer cancelled by the broker; reconnecting');
            conn.close().catch(() => undefined);
            return;
          }
          acks.received(msg);
          const p: Promise<void> = this.onDelivery(state, acks, msg)
            .catch((err: unknown) =>
              this.log.error({ err, queue: state.sub.queue }, 'delivery processing failed'),
            )
            .finally(() => this.inFlight.delete(p));
          this.inFlight.add(p);
        },
        { noAck: false },
      ));
    } finally {
      state.consuming = false;
    }
    if (state.channel !== ch) return;
    state.consumerTag = consumerTag;
    this.log.info({ queue: state.sub.queue, events: state.sub.events, prefetch: this.prefetch }, 'consuming');
    // Paused while the consume was on its way.
    if (state.paused) await this.cancelConsumer(state);
  }

  private async cancelConsumer(state: ConsumerState): Promise<void> {
    const { channel, consumerTag } = state;
    if (!channel || !consumerTag) return;
    state.consumerTag = undefined;
    // What its handlers have finished is acknowledged before the consumer stops, whatever the window.
    state.acks?.flush();
    try {
      await channel.cancel(consumerTag);
    } catch (err) {
      // The channel is gone: so is its consumer, and the next connection starts none while the queue is paused.
      this.log.warn({ err, queue: state.sub.queue }, 'cannot cancel the consumer; its channel closed');
    }
  }

  private async onDelivery(state: ConsumerState, acks: ChannelAcks, msg: ConsumeMessage): Promise<void> {
    const queue = state.sub.queue;
    const headers = msg.properties.headers ?? {};
    const attempt = Math.max(1, Number(headers[HEADERS.attempt] ?? 1) || 1);
    const decoded = decodeDelivery(msg.content, state.sub);
    if (!decoded.ok) {
      await this.deadLetter(state, acks, msg, decoded.message, decoded.error, attempt, 'malformed');
      return;
    }
    const message = decoded.message;
    try {
      await runHandler(state.sub, message, { attempt, queue, payload: decoded.payload });
    } catch (err) {
      const outcome = afterFailure(
        err,
        {
          attempt,
          waits: Math.max(0, Number(headers[HEADERS.waits] ?? 0) || 0),
          waitingSince: Number(headers[HEADERS.waitingSince]) || undefined,
        },
        { maxAttempts: state.maxAttempts, waitHorizonMs: state.waitHorizonMs, delays: this.delays },
      );
      const final = !outcome.retry;
      logHandlerFailure(this.log, err, { queue, event: message.name, id: message.id, attempt, final });
      if (!outcome.retry)
        await this.deadLetter(state, acks, msg, message, errorMessage(err), attempt, outcome.reason);
      else await this.retry(state, acks, msg, message, errorMessage(err), outcome);
      return;
    }
    acks.ack(msg, () => this.metrics.consumed(queue, message.name));
  }

  private async retry(
    state: ConsumerState,
    acks: ChannelAcks,
    msg: ConsumeMessage,
    message: BusMessage,
    error: string,
    outcome: Extract<FailureOutcome, { retry: true }>,
  ): Promise<void> {
    const queue = state.sub.queue;
    const [wait] = retryTopology(this.exchange, [outcome.delayMs]);
    const { next } = outcome;
    try {
      if (!wait) throw new Error('no retry delay configured');
      await this.confirmOne(
        wait.name,
        queue,
        msg.content,
        this.copyProperties(msg, {
          [HEADERS.attempt]: next.attempt,
          [HEADERS.lastError]: error,
          ...(next.waits > 0
            ? { [HEADERS.waits]: next.waits, [HEADERS.waitingSince]: next.waitingSince }
            : {}),
        }),
      );
    } catch (err) {
      // Could not park the message; put it back so it is not lost. The broker's delivery limit caps a loop.
      this.log.error({ err, queue, id: message.id }, 'cannot schedule a retry; requeueing');
      acks.nack(msg, true);
      return;
    }
    acks.ack(msg, () => this.metrics.retried(queue, message.name));
  }

  private async deadLetter(
    state: ConsumerState,
    acks: ChannelAcks,
    msg: ConsumeMessage,
    message: BusMessage | undefined,
    error: string,
    attempt: number,
    reason: DeadLetterReason,
  ): Promise<void> {
    const queue = state.sub.queue;
    const t = queueTopology(queue);
    const event = message?.name ?? 'unknown';
    this.log.error({ queue, event, id: message?.id, reason, error, attempt }, 'dead-lettering a message');
    try {
      await this.confirmOne(
        t.deadLetterExchange,
        '',
        msg.content,
        this.copyProperties(msg, {
          [HEADERS.attempt]: attempt,
          [HEADERS.lastError]: error,
          [HEADERS.reason]: reason,
          [HEADERS.originalRoutingKey]: msg.fields.routingKey,
        }),
      );
    } catch (err) {
      // The broker's own dead-lettering still moves it to the DLQ, only without our error header.
      this.log.error({ err, queue }, 'cannot publish to the dead-letter queue; rejecting instead');
      if (acks.nack(msg, false)) this.metrics.deadLettered(queue, event, reason);
      return;
    }
    acks.ack(msg, () => this.metrics.deadLettered(queue, event, reason));
  }

  private copyProperties(msg: ConsumeMessage, headers: Record<string, unknown>): Options.Publish {
    const p = msg.properties;
    // The broker's x-death history grows with every pass through a wait queue; our header counts instead.
    const kept = Object.fromEntries(
      Object.entries(p.headers ?? {}).filter(
        ([k]) => !k.startsWith('x-death') && !k.startsWith('x-first-death') && !k.startsWith('x-last-death'),
      ),
    );
    return {
      persistent: true,
      mandatory: true,
      contentType: p.contentType as string | undefined,
      messageId: p.messageId as string | undefined,
      type: p.type as string | undefined,
      correlationId: p.correlationId as string | undefined,
      timestamp: p.timestamp as number | undefined,
      appId: p.appId as string | undefined,
      headers: { ...kept, ...headers },
    };
  }

  // ---- publishing ------------------------------------------------------------------------------

  async publish(messages: BusMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const bodies = messages.map((m) => ({ m, body: Buffer.from(encodeEnvelope(m)) }));
    const ch = await this.publishChannel();
    const confirms: Promise<void>[] = [];
    try {
      for (const { m, body } of bodies) {
        // In the trace the event was written in: a traced publish continues it (and its headers carry it).
        const { confirmed, flushed } = withTraceOf(m, () =>
          this.send(ch, this.exchange, m.name, body, {
            persistent: true,
            mandatory: true,
            contentType: CONTENT_TYPE,
            messageId: m.id,
            type: m.name,
            correlationId: m.correlationId,
            timestamp: Math.floor(m.occurredAt.getTime() / 1000),
            appId: this.opts.service,
          }),
        );
        confirmed.catch(() => undefined); // observed below; keeps an early failure from going unhandled
        confirms.push(confirmed);
        if (!flushed) await this.waitForDrain(ch);
      }
    } catch (err) {
      throw this.publishError(err);
    }
    // All messages are on the wire; their confirms arrive pipelined and are awaited together.
    const results = await Promise.allSettled(confirms);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw this.publishError(failed.reason);
    for (const m of messages) this.metrics.published(m.name);
  }

  private publishError(err: unknown): AppError {
    if (err instanceof AppError) return err;
    return new AppError('bus_unavailable', `Event not confirmed by the broker: ${errorMessage(err)}`, 503, {
      cause: err,
    });
  }

  /** The confirm channel, or a fast failure: the outbox keeps unconfirmed rows and retries them. */
  private async publishChannel(internal = false): Promise<ConfirmChannel> {
    // Retries and dead letters of handlers still finishing during close() must still be written.
    if (this.closing && !internal) throw new AppError('bus_closed', 'Event bus is closed', 503);
    if (this.blocked)
      await this.waitUntil(() => !this.blocked || !this.pub, 'the broker is blocking publishers');
    const ch = this.pub;
    if (!ch) throw new AppError('bus_unavailable', 'Event bus is not connected to the broker', 503);
    return ch;
  }

  private async confirmOne(
    exchange: string,
    routingKey: string,
    body: Buffer,
    options: Options.Publish,
  ): Promise<void> {
    const ch = await this.publishChannel(true);
    const { confirmed, flushed } = this.send(ch, exchange, routingKey, body, options);
    if (!flushed) await this.waitForDrain(ch);
    await confirmed;
  }

  private send(
    ch: ConfirmChannel,
    exchange: string,
    routingKey: string,
    body: Buffer,
    options: Options.Publish,
  ): { confirmed: Promise<void>; flushed: boolean } {
    const key = confirmKey(exchange, routingKey, options.messageId);
    const pending: PendingConfirm = { returned: false };
    const list = this.awaitingConfirm.get(key) ?? [];
    list.push(pending);
    this.awaitingConfirm.set(key, list);
    let flushed = true;
    const confirmed = new Promise<void>((resolve, reject) => {
      let settled = false;
      const finish = (err?: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const rest = (this.awaitingConfirm.get(key) ?? []).filter((p) => p !== pending);
        if (rest.length) this.awaitingConfirm.set(key, rest);
        else this.awaitingConfirm.delete(key);
        if (err) reject(err instanceof Error ? err : new Error(String(err)));
        else if (pending.returned)
          reject(
            new AppError(
              'event_unroutable',
              `The broker could not route ${routingKey} on ${exchange || 'the default exchange'}`,
              503,
            ),
          );
        else resolve();
      };
      const timer = setTimeout(
        () => finish(new Error(`no confirm within ${this.publishTimeoutMs} ms`)),
        this.publishTimeoutMs,
      );
      try {
        flushed = ch.publish(exchange, routingKey, body, options, (err) => finish(err ?? undefined));
      } catch (err) {
        finish(err);
      }
    });
    return { confirmed, flushed };
  }

  /** A mandatory message the broker could not route comes back before its confirm: mark it failed. */
  private onReturned(msg: Message): void {
    const key = confirmKey(
      msg.fields.exchange,
      msg.fields.routingKey,
      msg.properties.messageId as string | undefined,
    );
    const pending = this.awaitingConfirm.get(key)?.find((p) => !p.returned);
    if (pending) pending.returned = true;
    this.log.error(
      { exchange: msg.fields.exchange, routingKey: msg.fields.routingKey, id: msg.properties.messageId },
      'broker returned an unroutable message',
    );
  }

  private waitForDrain(ch: ConfirmChannel): Promise<void> {
    this.log.debug('publish buffer full; waiting for drain');
    return new Promise<void>((resolve, reject) => {
      const done = (err?: Error) => {
        clearTimeout(timer);
        ch.off('drain', onDrain);
        ch.off('close', onClose);
        if (err) reject(err);
        else resolve();
      };
      const onDrain = () => done();
      const onClose = () =>
        done(new AppError('bus_unavailable', 'Publish channel closed while waiting to write', 503));
      const timer = setTimeout(
        () => done(new AppError('bus_unavailable', 'Publish buffer did not drain in time', 503)),
        this.publishTimeoutMs,
      );
      ch.on('drain', onDrain);
      ch.on('close', onClose);
    });
  }

  /** Waits, within the publish timeout, for a condition re-checked on every connection state change. */
  private waitUntil(condition: () => boolean, what: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.stateListeners.delete(check);
        reject(new AppError('bus_unavailable', `Cannot publish: ${what}`, 503));
      }, this.publishTimeoutMs);
      const check = () => {
        if (condition()) {
          clearTimeout(timer);
          resolve();
        } else this.stateListeners.add(check);
      };
      check();
    });
  }
}

function confirmKey(exchange: string, routingKey: string, messageId: string | undefined): string {
  return `${exchange}\u0000${routingKey}\u0000${messageId ?? ''}`;
}
