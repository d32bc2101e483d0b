/**
 * Traces, when asked for: imported first by every service's `main.ts` (before express, pg and amqplib are
 * loaded, so the instrumentations can wrap them). With `OTEL_EXPORTER_OTLP_ENDPOINT` (or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) unset, or `OTEL_SDK_DISABLED=true`, it does nothing: no SDK, no
 * instrumentation, no cost. Set, it starts OpenTelemetry's Node SDK with the HTTP, Express, pg and amqplib
 * instrumentations, W3C trace context (`traceparent`, `tracestate`) and an OTLP/HTTP exporter; the standard
 * `OTEL_*` variables (sampler, batch delay, headers) apply. Only traces are exported: metrics stay on
 * Prometheus' `/metrics`, logs on stdout (with `trace_id` and `span_id`).
 */
import path from 'node:path';

/** The service a process runs: OTEL_SERVICE_NAME, the chart's SERVICE_NAME, else its folder (services/<name>). */
export function serviceNameOf(env: NodeJS.ProcessEnv, mainFile: string | undefined): string {
  if (env.OTEL_SERVICE_NAME) return env.OTEL_SERVICE_NAME;
  if (env.SERVICE_NAME) return env.SERVICE_NAME;
  if (!mainFile) return 'readiness';
  // <folder>/dist/main.js or <folder>/src/main.ts
  return path.basename(path.dirname(path.dirname(mainFile)));
}

export function tracingEnabled(env: NodeJS.ProcessEnv): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').toLowerCase() === 'true') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT);
}

if (tracingEnabled(process.env)) {
  // Loaded here and only here, before the service's own modules (express, pg, amqplib) are required.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./sdk') as typeof import('./sdk')).startTracing(
    serviceNameOf(process.env, require.main?.filename),
  );
}
