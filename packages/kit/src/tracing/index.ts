/**
 * W3C trace context through the places OpenTelemetry's instrumentations cannot see: an event written to the
 * outbox keeps the context of the request or handler that wrote it, and the handler of that event runs in a span
 * whose parent is that context. Only `@opentelemetry/api` is used here: with no SDK started (OTLP unset, the
 * default) every call is a no-op and nothing is recorded. `@readiness/kit/telemetry` starts the SDK.
 */
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type TextMapGetter,
} from '@opentelemetry/api';

const tracer = () => trace.getTracer('@readiness/kit');

export interface TraceFields {
  traceparent?: string;
  tracestate?: string;
}

const fieldsGetter: TextMapGetter<TraceFields> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) =>
    key === 'traceparent' ? carrier.traceparent : key === 'tracestate' ? carrier.tracestate : undefined,
};

/** The active span's context as W3C fields, for an event written now; empty when nothing is traced. */
export function currentTraceFields(ctx: Context = context.active()): TraceFields {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier.traceparent
    ? { traceparent: carrier.traceparent, tracestate: carrier.tracestate || undefined }
    : {};
}

/** The context an event was written in (its parent), from its W3C fields; without them, a trace of its own. */
export function contextOf(fields: TraceFields): Context {
  if (!fields.traceparent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, fields, fieldsGetter);
}

/** The trace id of W3C fields (`00-<trace id>-<span id>-<flags>`). */
function traceIdOf(traceparent: string | undefined): string | undefined {
  return traceparent?.split('-')[1];
}

/** Runs `fn` in a span of its own (a child of `parent`, else of the active span); a throw marks the span failed. */
export function traced<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; parent?: Context },
  fn: () => Promise<T>,
): Promise<T> {
  return tracer().startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes },
    options.parent ?? context.active(),
    async (span) => {
      try {
        return await fn();
      } catch (err) {
        span.recordException(err instanceof Error ? err : String(err));
        span.setStatus({
          code: SpanStatusCode.ERROR,
          message: err instanceof Error ? err.message : String(err),
        });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}

/**
 * Runs an event's handler in a CONSUMER span, a child of the context the event was written in. When the
 * delivery already runs in a span of that trace (the amqplib instrumentation continues it from the message's
 * headers) the handler's span is a child of that one; otherwise of the event's own fields, so the in-process bus
 * and messages published without headers keep the trace too.
 */
export function traceHandler<T>(
  queue: string,
  message: TraceFields & { id: string; name: string; correlationId?: string },
  attempt: number,
  handle: () => Promise<T>,
): Promise<T> {
  const active = trace.getSpanContext(context.active());
  const parent =
    !message.traceparent || active?.traceId === traceIdOf(message.traceparent)
      ? context.active()
      : contextOf(message);
  return traced(
    `${message.name} process`,
    {
      kind: SpanKind.CONSUMER,
      parent,
      attributes: {
        'messaging.system': 'rabbitmq',
        'messaging.operation.type': 'process',
        'messaging.destination.name': queue,
        'messaging.message.id': message.id,
        'messaging.message.conversation_id': message.correlationId ?? message.id,
        'readiness.delivery.attempt': attempt,
      },
    },
    handle,
  );
}

/** Runs `fn` in the context an event was written in (a publish then belongs to that trace). */
export function withTraceOf<T>(fields: TraceFields, fn: () => T): T {
  if (!fields.traceparent) return fn();
  return context.with(contextOf(fields), fn);
}

/** `trace_id` and `span_id` of the active span for a log line; empty when nothing is traced. */
export function logTraceFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getSpanContext(context.active());
  if (!span || !trace.isSpanContextValid(span)) return {};
  return { trace_id: span.traceId, span_id: span.spanId };
}

const flushers: Array<() => Promise<void>> = [];

/** Registered by the SDK when it starts: exports what is buffered and stops. */
export function onTracingShutdown(flush: () => Promise<void>): void {
  flushers.push(flush);
}

/** Exports the spans still buffered (a stopping service's last ones); nothing when no SDK runs. */
export async function shutdownTracing(): Promise<void> {
  await Promise.all(flushers.splice(0).map((flush) => flush().catch(() => undefined)));
}

export { SpanKind } from '@opentelemetry/api';
