/**
 * The OpenTelemetry SDK, loaded only when traces are on (`./index` requires it then): its modules cost about half a
 * second and 60 MB at start, which a service without a collector never pays.
 */
import type { Context } from '@opentelemetry/api';
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
      const hidden = redactUrl(value.startsWith('signature=') ? `?${value}` : value);
      if (hidden !== value) span.setAttribute(key, value.startsWith('signature=') ? hidden.slice(1) : hidden);
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

export function startTracing(serviceName: string): NodeSDK {
  const sdk = new NodeSDK({
    serviceName,
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
