/*
 * Traces (docs/operations.md, "Traces"): the local stack (a process per service from its `dist`, real PostgreSQL,
 * RabbitMQ and Redis) with OTEL_EXPORTER_OTLP_ENDPOINT pointing at an OTLP/HTTP receiver in this test. One
 * student's submit is followed through the gateway, the student service, scoring, the certificate and its mail as
 * one trace: every span's parent is in the trace, each step descends from the one before, the log lines of every
 * service on the way name the trace, and no span carries the student's invitation token.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { eventually } from '@readiness/testing';
import type { LocalStack } from '../../deploy/all-in-one/src/local-stack';
import { answerSheet, prepareStudents, signIn, type Student } from '../faults/support/students';
import { api } from '../../deploy/all-in-one/test/launcher';
import { startTestStack, type TestStack } from '../support/test-stack';

/** A Redis database of its own, like the fault suite's (which uses 14). */
const REDIS_DATABASE = 13;

jest.setTimeout(240_000);

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttribute[];
}

/** A span as exported, with the service that exported it and its attributes as plain values. */
interface Span {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean | undefined>;
}

const SERVER = 2;
const FORGED_TRACE = 'ab'.repeat(16);
const CONSUMER = 5;

/** OTLP/JSON ids are hex; a receiver may also meet them base64-encoded (protobuf's JSON mapping). */
const hex = (id: string | undefined) =>
  !id ? '' : /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');

/** A minimal OTLP/HTTP receiver: keeps every span posted to /v1/traces, answers anything else 404. */
async function startReceiver(): Promise<{
  url: string;
  spans: Span[];
  bodies: string[];
  close(): Promise<void>;
}> {
  const spans: Span[] = [];
  const bodies: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const text = body.toString('utf8');
      bodies.push(text);
      const doc = JSON.parse(text) as {
        resourceSpans: Array<{
          resource: { attributes: OtlpAttribute[] };
          scopeSpans: Array<{ spans: OtlpSpan[] }>;
        }>;
      };
      for (const rs of doc.resourceSpans) {
        const service =
          rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '?';
        for (const ss of rs.scopeSpans)
          for (const s of ss.spans)
            spans.push({
              service,
              traceId: hex(s.traceId),
              spanId: hex(s.spanId),
              parentSpanId: hex(s.parentSpanId),
              name: s.name,
              kind: s.kind,
              attributes: Object.fromEntries(
                (s.attributes ?? []).map((a) => [
                  a.key,
                  a.value.stringValue ?? a.value.intValue ?? a.value.boolValue,
                ]),
              ),
            });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let test: TestStack;
let stack: LocalStack;
let student: Student;
let trace: Span[];

/** The path a server span answered (the HTTP instrumentation's attribute, old or new conventions). */
const urlOf = (s: Span) =>
  String(s.attributes['url.path'] ?? s.attributes['http.target'] ?? s.attributes['http.url'] ?? '').split(
    '?',
  )[0]!;

/** The spans of the trace, by id. */
const byId = (spans: Span[]) => new Map(spans.map((s) => [s.spanId, s]));

/** Whether `descendant` is below `ancestor` in the trace. */
function descends(spans: Map<string, Span>, descendant: Span, ancestor: Span): boolean {
  for (let s: Span | undefined = descendant; s; s = spans.get(s.parentSpanId)) {
    if (s.spanId === ancestor.spanId) return true;
  }
  return false;
}

function one(spans: Span[], what: string, match: (s: Span) => boolean): Span {
  const found = spans.filter(match);
  if (found.length === 0)
    throw new Error(`no ${what} in the trace:\n${spans.map((s) => `${s.service} ${s.name}`).join('\n')}`);
  return found[0]!;
}

beforeAll(async () => {
  receiver = await startReceiver();
  test = await startTestStack('traces', REDIS_DATABASE, {
    env: {
      LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      // Spans leave within a fifth of a second instead of five.
      OTEL_BSP_SCHEDULE_DELAY: '200',
    },
  });
  stack = test.stack;
  const admin = await signIn(stack.gatewayUrl);
  const sheet = await answerSheet(admin);
  student = (await prepareStudents(admin, 'trace', 1, sheet))[0]!;
  // A caller claiming a trace of its own, sampled: the gateway starts its own instead.
  const submitted = await api(stack.gatewayUrl, 'POST', `/api/student/${student.token}/submit`, {
    headers: { traceparent: `00-${FORGED_TRACE}-${'cd'.repeat(8)}-01` },
    body: {
      attemptId: student.attemptId,
      answers: sheet.pass,
      timeSpent: 1,
      startedAt: new Date().toISOString(),
    },
  });
  expect(submitted.status).toBe(200);
  await stack.mail.waitFor((m) => m.to.includes(student.email) && m.attachments.length > 0, 90_000);

  // The trace of the submit: found from the gateway's span of that call, complete once the mail's span is in.
  trace = await eventually(
    () => {
      const submit = one(
        receiver.spans,
        "the gateway's span of the submit",
        (s) => s.service === 'gateway' && s.kind === SERVER && urlOf(s).endsWith('/submit'),
      );
      const spans = receiver.spans.filter((s) => s.traceId === submit.traceId);
      one(spans, 'the mail', (s) => s.service === 'notification' && s.name === 'smtp send');
      // A span is exported when it ends: the certificate's ends after the event it announced may already have been
      // mailed, so the trace is complete once every parent named in it has arrived too.
      const ids = new Set(spans.map((s) => s.spanId));
      const waiting = spans.filter((s) => s.parentSpanId && !ids.has(s.parentSpanId));
      if (waiting.length > 0) throw new Error(`${waiting.length} spans whose parent has not arrived yet`);
      return spans;
    },
    'the trace of the submit, up to its mail, with every parent in it',
    60_000,
  );
}, 240_000);

afterAll(async () => {
  if (process.env.TRACES_DUMP) {
    writeFileSync(process.env.TRACES_DUMP, JSON.stringify(receiver.spans, null, 1));
    for (const name of ['gateway', 'student', 'results', 'report', 'notification'] as const)
      writeFileSync(`${process.env.TRACES_DUMP}.${name}.log`, stack.output(name));
  }
  await test?.stop();
  await receiver?.close();
});

it('follows one submit through the gateway, scoring, the certificate and its mail as one trace', () => {
  const spans = byId(trace);
  const gateway = one(
    trace,
    "the gateway's server span",
    (s) => s.service === 'gateway' && s.kind === SERVER,
  );
  const submit = one(
    trace,
    "the student service's submit",
    (s) => s.service === 'student' && s.kind === SERVER,
  );
  const scoring = one(
    trace,
    'scoring',
    (s) =>
      s.service === 'results' && s.kind === CONSUMER && s.name === 'student.attempt.submitted.v1 process',
  );
  const recorded = one(
    trace,
    "the report service's copy of the result",
    (s) => s.service === 'report' && s.kind === CONSUMER && s.name === 'results.result.recorded.v1 process',
  );
  const certificate = one(
    trace,
    'the certificate',
    (s) => s.service === 'report' && s.name === 'certificate issue',
  );
  const mailed = one(
    trace,
    "the notification service's handler",
    (s) =>
      s.service === 'notification' && s.kind === CONSUMER && s.name.startsWith('report.certificate.issued'),
  );
  const smtp = one(trace, 'the mail', (s) => s.service === 'notification' && s.name === 'smtp send');

  // One root (the gateway's), and every other span's parent is in the trace: nothing broke off on the way.
  expect(trace.filter((s) => !s.parentSpanId).map((s) => s.spanId)).toEqual([gateway.spanId]);
  expect(trace.filter((s) => s.parentSpanId && !spans.has(s.parentSpanId))).toEqual([]);
  // Each step below the one before it.
  const chain = [gateway, submit, scoring, recorded, certificate, mailed, smtp];
  for (let i = 1; i < chain.length; i++) expect(descends(spans, chain[i]!, chain[i - 1]!)).toBe(true);
  // The database statements of the steps are in it too (the pg instrumentation).
  for (const service of ['student', 'results', 'report', 'notification'])
    expect({
      service,
      statements: trace.some(
        (s) =>
          s.service === service &&
          (s.attributes['db.system.name'] ?? s.attributes['db.system']) === 'postgresql',
      ),
    }).toEqual({ service, statements: true });
});

it('names the trace in the log lines of the services it went through', () => {
  const traceId = trace[0]!.traceId;
  // The student service logs the submit itself; the report service, the certificate it issued.
  for (const service of ['student', 'report'] as const) {
    const lines = stack
      .output(service)
      .split('\n')
      .filter((l) => l.includes(`"trace_id":"${traceId}"`));
    expect({ service, lines: lines.length > 0 }).toEqual({ service, lines: true });
  }
});

it("never lets a caller's traceparent choose the trace or force its recording", () => {
  expect(trace[0]!.traceId).not.toBe(FORGED_TRACE);
  expect(receiver.spans.filter((s) => s.traceId === FORGED_TRACE)).toEqual([]);
});

it("never exports a student's invitation token, in any span of any service", () => {
  expect(receiver.bodies.length).toBeGreaterThan(0);
  for (const body of receiver.bodies) expect(body).not.toContain(student.token);
  // The URLs themselves are still there, with the token hidden.
  expect(receiver.bodies.join('\n')).toContain('/api/student/[redacted]/');
});

it('leaves probes and scrapes out of the traces', () => {
  const probed = receiver.spans.filter((s) => /\/(healthz|readyz|metrics)$/.test(urlOf(s)));
  expect(probed).toEqual([]);
});
