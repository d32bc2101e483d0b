/**
 * The OpenTelemetry SDK, loaded only when traces are on (`./index` requires it then): its modules cost about half a
 * second and 60 MB at start, which a service without a collector never pays.
 */
import {
  isSpanContextValid,
  trace,
  type Context,
  type TextMapPropagator,
  type TextMapSetter,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { AmqplibInstrumentation } from '@opentelemetry/instrumentation-amqplib';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import {
  BatchSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { redactUrl } from '../logger';
import { onTracingShutdown } from '../tracing';

/** Probes and scrapes: answered many times a minute, never part of a user's trace. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Secrets that travel in URLs (a student's invitation token, a certificate link's signature) never leave in a
 * span: every string attribute is passed through the logs' URL redaction when the span starts, which is when
 * the HTTP instrumentation records the URL.
 */
export class RedactingSpanProcessor implements SpanProcessor {
  onStart(span: Span, _parent: Context): void {
    for (const [key, value] of Object.entries(span.attributes)) {
      // A route is a template (`/api/student/:token/…`), never a token.
      if (typeof value !== 'string' || key === 'http.route') continue;
      const hidden = redactUrl(value);
      if (hidden !== value) span.setAttribute(key, hidden);
    }
  }
  onEnd(_span: ReadableSpan): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * The W3C context of the system's edge: it sends its own spans' context on, and reads none from callers. A caller's
 * `traceparent` would otherwise choose the trace id and, with its sampled flag, force every request it sends to be
 * recorded and exported whatever the sampling ratio (a cheap way to multiply the cost of a peak).
 */
export class EdgePropagator implements TextMapPropagator {
  inject(ctx: Context, carrier: unknown, setter: TextMapSetter): void {
    const span = trace.getSpanContext(ctx);
    if (!span || !isSpanContextValid(span)) return;
    const flags = (span.traceFlags & 1).toString(16).padStart(2, '0');
    setter.set(carrier, 'traceparent', `00-${span.traceId}-${span.spanId}-${flags}`);
    const state = span.traceState?.serialize();
    if (state) setter.set(carrier, 'tracestate', state);
  }
  extract(ctx: Context): Context {
    return ctx;
  }
  fields(): string[] {
    return ['traceparent', 'tracestate'];
  }
}

/** The service that faces the internet (the gateway): the only one whose callers are not the system's own. */
const EDGE_SERVICE = 'gateway';

export function startTracing(serviceName: string): NodeSDK {
  const sdk = new NodeSDK({
    serviceName,
    textMapPropagator: serviceName === EDGE_SERVICE ? new EdgePropagator() : undefined,
    spanProcessors: [new RedactingSpanProcessor(), new BatchSpanProcessor(new OTLPTraceExporter())],
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has((req.url ?? '').split('?')[0] ?? ''),
        // Readiness probes between services (the gateway's upstream checks); and requests whose headers are raw
        // pairs (the gateway's proxy), which the instrumentation would turn into an object of numbered keys: their
        // sender puts the trace context in them itself.
        ignoreOutgoingRequestHook: (req) =>
          Array.isArray(req.headers) || UNTRACED_PATHS.has(String(req.path ?? '').split('?')[0] ?? ''),
      }),
      // Route handlers only: a span for each of the kit's middlewares would multiply a request's spans by five.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      new PgInstrumentation({ requireParentSpan: true }),
      new AmqplibInstrumentation(),
    ],
  });
  sdk.start();
  onTracingShutdown(() => sdk.shutdown());
  return sdk;
}
