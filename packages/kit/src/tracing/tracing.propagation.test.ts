/*
 * Trace context through the outbox and the bus, where no instrumentation sees it: an event written in a span is
 * handled in a span of the same trace even when the relay publishes it later from a claim (outside any request),
 * over RabbitMQ; an event written outside any span starts a trace of its own; log lines name the active trace.
 * A tracer provider with W3C propagation is registered for this file only (the SDK is not started in tests).
 */
import {
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  trace,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { sql } from 'drizzle-orm';
import {
  capturingLogger,
  createTestDatabase,
  createTestVhost,
  eventually,
  type TestDatabase,
  type TestVhost,
} from '@readiness/testing';
import { createRabbitBus, type EventBus } from '../bus';
import { migrate, openDatabase, type Database } from '../db';
import { enqueue, kitMigrationsDir, OutboxRelay } from '../outbox';
import { serviceNameOf, tracingEnabled } from '../telemetry';
import { EdgePropagator, RedactingSpanProcessor } from '../telemetry/sdk';

jest.setTimeout(60_000);

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({
  spanProcessors: [new RedactingSpanProcessor(), new SimpleSpanProcessor(exporter)],
});
const contextManager = new AsyncLocalStorageContextManager().enable();
const tracer = () => trace.getTracer('propagation-test');

const { logger, lines } = capturingLogger('tracing-test');

let testDb: TestDatabase;
let vhost: TestVhost;
let database: Database;
let publisher: EventBus;
let consumer: EventBus;
let relay: OutboxRelay | undefined;
const handled = new Map<string, { traceId?: string }>();

beforeAll(async () => {
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  [testDb, vhost] = await Promise.all([createTestDatabase(), createTestVhost()]);
  database = await openDatabase({ url: testDb.url, logger, name: 'tracing-test' });
  await migrate(database, [kitMigrationsDir]);
  publisher = createRabbitBus({ url: vhost.url, service: 'tracing-test', logger });
  consumer = createRabbitBus({ url: vhost.url, service: 'tracing-test-consumer', logger });
  await Promise.all([publisher.start(), consumer.start()]);
  await consumer.subscribe({
    queue: 'tracing-test-consumer.placed',
    events: ['test.order.placed.v1'],
    handle: async (msg) => {
      logger.info({ id: msg.id }, 'order handled');
      handled.set(msg.id, { traceId: trace.getActiveSpan()?.spanContext().traceId });
    },
  });
});

afterAll(async () => {
  await relay?.stop();
  await Promise.all([publisher?.close(), consumer?.close()]);
  await database?.close();
  await Promise.all([testDb?.close(), vhost?.close()]);
  trace.disable();
  context.disable();
  propagation.disable();
});

/** Writes one event in its own transaction, in the context given. */
function write(ctx: typeof ROOT_CONTEXT): Promise<string> {
  return context.with(ctx, () =>
    database.transaction((tx) => enqueue(tx, { name: 'test.order.placed.v1', payload: new Uint8Array([1]) })),
  );
}

const handlerSpan = (id: string): ReadableSpan | undefined =>
  exporter
    .getFinishedSpans()
    .find((s) => s.name === 'test.order.placed.v1 process' && s.attributes['messaging.message.id'] === id);

it('continues the trace of the span an event was written in, though the relay publishes it later from a claim', async () => {
  // Written in a request's span, while no relay runs in this process: nothing hands it over at the commit.
  const request = tracer().startSpan('POST /orders');
  const id = await write(trace.setSpan(ROOT_CONTEXT, request));
  request.end();
  const [row] = await database.execute<{ traceparent: string | null }>(
    sql`SELECT traceparent FROM outbox WHERE id = ${id}`,
  );
  expect(row?.traceparent).toBe(`00-${request.spanContext().traceId}-${request.spanContext().spanId}-01`);

  // The relay starts afterwards, outside any span: its claim finds the row and publishes it.
  relay = context.with(ROOT_CONTEXT, () => {
    const r = new OutboxRelay({ database, publisher, logger, source: 'tracing-test', pollIntervalMs: 50 });
    r.start();
    return r;
  });
  const span = await eventually(() => handlerSpan(id) ?? false, 'the handler span', 20_000);
  expect(span.spanContext().traceId).toBe(request.spanContext().traceId);
  expect(span.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
  expect(span.kind).toBe(SpanKind.CONSUMER);
  expect(span.attributes['messaging.destination.name']).toBe('tracing-test-consumer.placed');
  // The handler ran in that span, and its log line names the trace.
  expect(handled.get(id)?.traceId).toBe(request.spanContext().traceId);
  const line = lines.find((l) => l.includes(`"id":"${id}"`));
  expect(line).toContain(`"trace_id":"${request.spanContext().traceId}"`);
  expect(line).toContain(`"span_id":"${span.spanContext().spanId}"`);
});

it('starts a trace of its own for an event written outside any span', async () => {
  const id = await write(ROOT_CONTEXT);
  const [row] = await database.execute<{ traceparent: string | null }>(
    sql`SELECT traceparent FROM outbox WHERE id = ${id}`,
  );
  expect(row?.traceparent ?? null).toBeNull();
  const span = await eventually(() => handlerSpan(id) ?? false, 'the handler span', 20_000);
  expect(span.parentSpanContext).toBeUndefined();
  expect(
    exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === span.spanContext().traceId),
  ).toHaveLength(1);
});

it("hides a student's token and a link's signature in every attribute of a span", () => {
  const span = tracer().startSpan('GET', {
    attributes: {
      'url.full': 'http://student:8080/api/student/s3cr3t-token/assessment',
      'url.path': '/api/student/s3cr3t-token/assessment',
      'http.target': '/assessment/s3cr3t-token?x=1',
      'url.query': 'signature=abc123&expires=99',
      'http.url': 'http://report:8080/api/certificates/c1/pdf?expires=99&signature=abc123',
      'http.route': '/api/student/:token/assessment',
    },
  });
  span.end();
  const exported = exporter
    .getFinishedSpans()
    .find((s) => s.spanContext().spanId === span.spanContext().spanId)!;
  expect(JSON.stringify(exported.attributes)).not.toMatch(/s3cr3t|abc123/);
  expect(exported.attributes).toMatchObject({
    'url.path': '/api/student/[redacted]/assessment',
    'url.query': 'signature=[redacted]&expires=99',
    'http.url': 'http://report:8080/api/certificates/c1/pdf?expires=99&signature=[redacted]',
    'http.route': '/api/student/:token/assessment',
  });
});

it("at the edge, sends its own span's context on and takes none from a caller", () => {
  const edge = new EdgePropagator();
  const forged = { traceparent: `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01` };
  // What the HTTP instrumentation does with a request's headers, at the edge.
  const extracted = propagation.extract(ROOT_CONTEXT, forged, defaultTextMapGetter);
  expect(trace.getSpanContext(extracted)?.traceId).toBe('ab'.repeat(16));
  expect(trace.getSpanContext(edge.extract(ROOT_CONTEXT))).toBeUndefined();
  const span = tracer().startSpan('GET /api/student/:token/assessment');
  const carrier: Record<string, string> = {};
  edge.inject(trace.setSpan(ROOT_CONTEXT, span), carrier, defaultTextMapSetter);
  span.end();
  expect(carrier).toEqual({
    traceparent: `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`,
  });
});

it('is on only with an OTLP endpoint, and names each process after its service', () => {
  expect(tracingEnabled({})).toBe(false);
  expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
  expect(tracingEnabled({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(
    true,
  );
  expect(
    tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }),
  ).toBe(false);
  expect(serviceNameOf({}, '/app/services/student/dist/main.js')).toBe('student');
  expect(serviceNameOf({ SERVICE_NAME: 'report' }, '/app/services/student/dist/main.js')).toBe('report');
  expect(serviceNameOf({ OTEL_SERVICE_NAME: 'results-eu', SERVICE_NAME: 'results' }, undefined)).toBe(
    'results-eu',
  );
});
