import { decodeEnvelope, decodePayload, isEventName } from '@readiness/contracts';
import { NotYetError } from '../errors';
import { requestContext, type Logger } from '../logger';
import { traceHandler } from '../tracing';
import type { BusMessage, HandlerContext, Subscription } from './types';

/** A malformed delivery keeps its decoded envelope when there was one, so the DLQ shows which event it was. */
export type Decoded =
  { ok: true; message: BusMessage; payload?: unknown } | { ok: false; error: string; message?: BusMessage };

/**
 * Topic matching as RabbitMQ does it for topic exchanges: words split on '.', `*` is one word,
 * `#` is zero or more words. The memory bus routes with it so both buses bind the same patterns.
 */
export function topicMatches(pattern: string, key: string): boolean {
  const p = pattern.split('.');
  const k = key.split('.');
  const match = (i: number, j: number): boolean => {
    if (i === p.length) return j === k.length;
    if (p[i] === '#') return match(i + 1, j) || (j < k.length && match(i, j + 1));
    if (j === k.length) return false;
    return (p[i] === '*' || p[i] === k[j]) && match(i + 1, j + 1);
  };
  return match(0, 0);
}

/**
 * Turns delivered bytes into a message, or says why they are malformed. A malformed message can never
 * succeed, so it skips the retries and goes straight to the dead-letter queue: bytes that are not an
 * envelope, an event this queue did not bind, or a payload that does not match its registered contract.
 */
export function decodeDelivery(body: Uint8Array, sub: Subscription): Decoded {
  let message: BusMessage;
  try {
    message = decodeEnvelope(body);
  } catch (err) {
    return { ok: false, error: `malformed envelope: ${errorMessage(err)}` };
  }
  if (!sub.events.some((pattern) => topicMatches(pattern, message.name))) {
    return { ok: false, error: `unexpected event ${message.name} for queue ${sub.queue}`, message };
  }
  if (isEventName(message.name)) {
    try {
      // Decoded once here: the handler gets the typed payload in its context.
      return { ok: true, message, payload: decodePayload(message.name, message.payload) };
    } catch (err) {
      return { ok: false, error: `payload does not match ${message.name}: ${errorMessage(err)}`, message };
    }
  }
  return { ok: true, message };
}

/** Delay before retry number `retry` (1 = the first retry); the last step repeats. */
function retryDelay(delays: number[], retry: number): number {
  if (delays.length === 0) return 0;
  return delays[Math.min(retry - 1, delays.length - 1)] ?? 0;
}

/** How far a message's deliveries went: all of them, and those that only waited for something not there yet. */
export interface RetryCount {
  /** 1 on the first delivery. */
  attempt: number;
  /** Failures that were `NotYetError`: they do not count against `maxAttempts`. */
  waits: number;
  /** When the first `NotYetError` failure happened (epoch ms). */
  waitingSince?: number;
}

export type FailureOutcome =
  | { retry: true; delayMs: number; next: RetryCount }
  | { retry: false; reason: 'attempts_exhausted' | 'wait_expired' };

/**
 * What the bus does after a handler threw. A `NotYetError` is retried with backoff until `waitHorizonMs` has
 * passed since the message first waited; any other error is retried until `maxAttempts` failures of its own.
 */
export function afterFailure(
  err: unknown,
  count: RetryCount,
  policy: { maxAttempts: number; waitHorizonMs: number; delays: number[] },
  now = Date.now(),
): FailureOutcome {
  if (err instanceof NotYetError) {
    const waitingSince = count.waitingSince ?? now;
    if (now - waitingSince >= policy.waitHorizonMs) return { retry: false, reason: 'wait_expired' };
    const waits = count.waits + 1;
    return {
      retry: true,
      delayMs: retryDelay(policy.delays, waits),
      next: { attempt: count.attempt + 1, waits, waitingSince },
    };
  }
  const failures = count.attempt - count.waits;
  if (failures >= policy.maxAttempts) return { retry: false, reason: 'attempts_exhausted' };
  return {
    retry: true,
    delayMs: retryDelay(policy.delays, failures),
    next: { ...count, attempt: count.attempt + 1 },
  };
}

/**
 * Runs a handler with the message's correlation id in the request context, so every log line and every
 * event the handler writes carries it. An event without one starts its own chain with its id. Traced, the
 * handler runs in a span continuing the trace the event was written in.
 */
export function runHandler(sub: Subscription, message: BusMessage, ctx: HandlerContext): Promise<void> {
  return requestContext.run({ correlationId: message.correlationId ?? message.id }, () =>
    traceHandler(sub.queue, message, ctx.attempt, () => sub.handle(message, ctx)),
  );
}

export function errorMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  // Headers and logs stay small: the full error belongs in the handler's own log line.
  return text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
}

export function logHandlerFailure(
  logger: Logger,
  err: unknown,
  fields: { queue: string; event: string; id: string; attempt: number; final: boolean },
): void {
  if (fields.final)
    logger.error({ err, ...fields }, 'event handler failed for the last time; dead-lettering');
  else logger.warn({ err, ...fields }, 'event handler failed; retrying later');
}

export function validateSubscription(sub: Subscription): void {
  if (!sub.queue || /\s/.test(sub.queue)) throw new Error(`invalid queue name: "${sub.queue}"`);
  if (sub.events.length === 0) throw new Error(`queue ${sub.queue} subscribes to no events`);
}

/** The subscription of an on-demand queue a bus consumes, asked to bind `events`: refused unless they are its own. */
export function onDemandSubscription(
  sub: Subscription | undefined,
  queue: string,
  events: readonly string[],
): Subscription {
  if (!sub?.onDemand) throw new Error(`queue ${queue} is not an on-demand queue of this bus`);
  const unknown = events.filter((e) => !sub.events.includes(e));
  if (unknown.length) throw new Error(`queue ${queue} does not take ${unknown.join(', ')}`);
  return sub;
}
