import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import {
  QuestionType,
  create,
  decodePayload,
  encodePayload,
  events as contracts,
  timestampFromDate,
  type EventName,
  type EventPayload,
} from '@readiness/contracts';
import { sql } from 'drizzle-orm';
import { createJwtVerifier } from '@readiness/kit/auth';
import { createMemoryBus, createRabbitBus, type EventBus } from '@readiness/kit/bus';
import { openDatabase, type Database } from '@readiness/kit/db';
import { createLogger } from '@readiness/kit/logger';
import { startService, type RunningService } from '@readiness/kit/runtime';
import { startEmbeddedS3, type EmbeddedS3 } from '@readiness/kit/storage';
import {
  createTestDatabase,
  createTestVhost,
  eventually,
  rewriteUrlPort,
  startTcpProxy,
  type TcpProxy,
} from '@readiness/testing';
import { studentService, type StudentConfig, type StudentConfigInput } from '../src';

export const logger = createLogger({ name: 'student-test', level: 'silent' });

const ISSUER = 'readiness-auth';
const AUDIENCE = 'readiness-admin';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const kid = randomUUID();

/** An admin token as auth signs it. */
export function adminToken(adminId: string = randomUUID()): string {
  return jwt.sign({ role: 'admin', sid: randomUUID() }, privateKey, {
    algorithm: 'RS256',
    keyid: kid,
    subject: adminId,
    jwtid: randomUUID(),
    issuer: ISSUER,
    audience: AUDIENCE,
    expiresIn: 600,
  });
}

const WATCHED = [
  'student.student.invited.v1',
  'student.invitation.resent.v1',
  'student.student.deleted.v1',
  'student.attempt.started.v1',
  'student.attempt.submitted.v1',
] as const satisfies EventName[];

export interface SeenEvent {
  name: (typeof WATCHED)[number];
  payload: Record<string, unknown>;
}

export interface Harness {
  service: RunningService<StudentConfig, undefined>;
  url: string;
  database: Database;
  bus: EventBus;
  dataDir: string;
  /** Every student event the bus delivered, decoded. */
  events: SeenEvent[];
  /** The TCP proxy in front of RabbitMQ (`brokerProxy`). */
  proxy?: TcpProxy;
  /** The kind of adapters this harness runs on. */
  kind: 'real' | 'embedded';
  /** Publishes an event on the service's bus as its publisher would. */
  publish<N extends EventName>(name: N, payload: EventPayload<N>, occurredAt?: Date): Promise<void>;
  /** Statements sent to PostgreSQL through the service's pool (outside transactions) while `fn` runs. */
  countQueries<T>(fn: () => Promise<T>): Promise<{ value: T; queries: number }>;
  /** Another instance of the service on the same database (a replica), with its own bus and storage. */
  startReplica(config?: Partial<StudentConfigInput>): Promise<RunningService<StudentConfig, undefined>>;
  call(method: string, urlPath: string, options?: { token?: string; body?: unknown }): Promise<Response>;
  importCsv(csv: string, options?: { dryRun?: boolean; token?: string }): Promise<Response>;
  close(): Promise<void>;
}

/** The service in-process on port 0 against a fresh database, with a RabbitMQ vhost (`real`) or the memory bus. */
export async function startStudent(
  kind: 'real' | 'embedded',
  options: {
    config?: Partial<StudentConfigInput>;
    /** Reach RabbitMQ through a TCP proxy the test can cut (`real` only). */
    brokerProxy?: boolean;
  } = {},
): Promise<Harness> {
  const closers: Array<() => Promise<void> | void> = [];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'student-test-'));
  closers.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const db = await createTestDatabase();
  closers.push(db.close);
  const database = await openDatabase({ url: db.url, logger });
  closers.push(() => database.close());
  let bus: EventBus;
  let s3: EmbeddedS3 | undefined;
  let proxy: TcpProxy | undefined;
  if (kind === 'real') {
    const vhost = await createTestVhost();
    closers.push(vhost.close);
    let url = vhost.url;
    if (options.brokerProxy) {
      const target = new URL(vhost.url);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5672) });
      closers.push(() => proxy?.close());
      url = rewriteUrlPort(vhost.url, proxy.port);
    }
    bus = createRabbitBus({ url, service: 'student', logger, retryDelaysMs: [100, 200] });
    s3 = await startEmbeddedS3({ directory: path.join(dataDir, 's3-server') });
    closers.push(() => s3?.close());
  } else {
    bus = createMemoryBus({ logger, service: 'student', retryDelaysMs: [100, 200] });
  }
  closers.push(() => bus.close());
  const events: SeenEvent[] = [];
  await bus.subscribe({
    queue: 'test.student-events',
    events: [...WATCHED],
    handle: async (msg) => {
      const name = msg.name as SeenEvent['name'];
      events.push({ name, payload: decodePayload(name, msg.payload) as unknown as Record<string, unknown> });
    },
  });
  await bus.start();
  const baseConfig = {
    PORT: 0,
    HOST: '127.0.0.1',
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PUBLIC_ORIGIN: 'https://readiness.example.edu',
    ...(s3 ? { S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey } : {}),
    ...options.config,
  };
  const shared = {
    adminVerifier: createJwtVerifier({
      publicKeys: [{ kid, key: publicKey }],
      issuer: ISSUER,
      audience: AUDIENCE,
    }),
  };
  const service = await startService(studentService, {
    config: baseConfig,
    logger,
    adapters: { database, bus },
    shared,
  });
  closers.push(() => service.stop());
  const pool = (database.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;

  const token = adminToken();
  const call = (method: string, urlPath: string, opts: { token?: string; body?: unknown } = {}) =>
    fetch(`${service.url}${urlPath}`, {
      method,
      headers: {
        authorization: `Bearer ${opts.token ?? token}`,
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    });

  return {
    service,
    url: service.url,
    database,
    bus,
    dataDir,
    events,
    kind,
    proxy,
    async publish(name, payload, occurredAt = new Date()) {
      await bus.publish([
        {
          id: randomUUID(),
          name,
          occurredAt,
          payload: encodePayload(name, create(contracts[name] as never, payload as never) as never),
        },
      ]);
    },
    async countQueries(fn) {
      const original = pool.query;
      let queries = 0;
      pool.query = function (this: unknown, ...args: unknown[]) {
        queries++;
        return original.apply(this, args);
      };
      try {
        const value = await fn();
        return { value, queries };
      } finally {
        pool.query = original;
      }
    },
    async startReplica(config = {}) {
      const replicaDir = mkdtempSync(path.join(tmpdir(), 'student-replica-'));
      closers.push(() => rmSync(replicaDir, { recursive: true, force: true }));
      const replicaBus = createMemoryBus({ logger, service: 'student', retryDelaysMs: [100, 200] });
      await replicaBus.start();
      closers.push(() => replicaBus.close());
      const replica = await startService(studentService, {
        config: {
          ...baseConfig,
          DATA_DIR: replicaDir,
          S3_ENDPOINT: undefined,
          S3_ACCESS_KEY: undefined,
          S3_SECRET_KEY: undefined,
          ...config,
        },
        logger,
        adapters: { database, bus: replicaBus },
        shared,
      });
      closers.splice(closers.length - 1, 0, () => replica.stop());
      return replica;
    },
    call,
    importCsv(csv, opts = {}) {
      const form = new FormData();
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'students.csv');
      return fetch(`${service.url}/api/admin/students/import${opts.dryRun ? '?dryRun=true' : ''}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${opts.token ?? token}` },
        body: form,
      });
    },
    async close() {
      for (const close of closers.reverse()) await close();
    },
  };
}

/** An assessment version as assessment.version.published.v1 carries it, answer key included. */
export function versionEvent(
  overrides: Partial<EventPayload<'assessment.version.published.v1'>> = {},
): EventPayload<'assessment.version.published.v1'> {
  return create(contracts['assessment.version.published.v1'], {
    versionId: randomUUID(),
    version: 1,
    active: true,
    title: 'Readiness check',
    description: 'Are you ready for distance education?',
    timeLimitMinutes: 30,
    passingScore: 70,
    sections: [
      { id: 1, title: 'Computer skills', description: 'Everyday computing' },
      { id: 2, title: 'Study habits', description: 'How you learn' },
    ],
    questions: [
      {
        id: 'q1',
        type: QuestionType.YES_NO,
        question: 'Do you have a computer?',
        section: 1,
        points: 1,
        required: true,
        correctAnswer: 'yes',
      },
      {
        id: 'q2',
        type: QuestionType.MULTIPLE_CHOICE,
        question: 'How many hours a week can you study?',
        section: 1,
        points: 2,
        required: true,
        correctAnswer: 'opt-secret-key',
        options: [
          { id: 'opt-a', text: 'Less than 2' },
          { id: 'opt-secret-key', text: 'More than 10' },
        ],
      },
      {
        id: 'q3',
        type: QuestionType.FILE_UPLOAD,
        question: 'Upload a sample of your writing',
        section: 2,
        points: 3,
        required: false,
        fileInstructions: 'Fill in the template and upload it',
        downloadableFile: {
          filename: 'seed-template.docx',
          originalName: 'Template.docx',
          size: 1234n,
          mimetype: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        },
      },
    ],
    createdAt: timestampFromDate(new Date()),
    ...overrides,
  } as never);
}

/** Publishes a version and waits until the service serves it to a student. */
export async function publishVersion(
  h: Harness,
  overrides: Partial<EventPayload<'assessment.version.published.v1'>> = {},
): Promise<EventPayload<'assessment.version.published.v1'>> {
  const event = versionEvent(overrides);
  await h.publish('assessment.version.published.v1', event);
  await eventually(async () => {
    const [row] = await h.database.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM assessment_versions WHERE version_id = ${event.versionId}`,
    );
    return row!.n === 1;
  }, 'the version copy');
  return event;
}

let invited = 0;

/** Invites a student through the admin route and returns their id and invitation token. */
export async function inviteStudent(
  h: Harness,
  body: Record<string, unknown> = {},
): Promise<{ id: string; token: string }> {
  invited++;
  const res = await h.call('POST', '/api/admin/students/invite', {
    body: { name: `Student ${invited}`, email: `student${invited}-${randomUUID()}@example.edu`, ...body },
  });
  const json = (await res.json()) as { student: { _id: string; inviteToken: string } };
  return { id: json.student._id, token: json.student.inviteToken };
}

/** A JSON answer; tests check it field by field with `expect`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any shape; the assertions are the types
export type JsonBody = Record<string, any>;

/** Calls a student route by token (no admin token), JSON in and out. */
export async function studentCall(
  h: Harness,
  method: string,
  urlPath: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: JsonBody }> {
  const res = await fetch(`${h.url}${urlPath}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as JsonBody) : {} };
}

/** A result as the results service records it for an attempt. */
export function resultEvent(
  submitted: Record<string, unknown>,
  overrides: Partial<EventPayload<'results.result.recorded.v1'>> = {},
): EventPayload<'results.result.recorded.v1'> {
  return create(contracts['results.result.recorded.v1'], {
    resultId: randomUUID(),
    attemptId: String(submitted.attemptId),
    studentId: String(submitted.studentId),
    name: String(submitted.name),
    email: String(submitted.email),
    score: 6,
    totalPoints: 6,
    percentage: 100,
    passed: true,
    attemptNumber: Number(submitted.attemptNumber),
    canRetake: false,
    assessmentCode: 'RDY-7K3F-92QX',
    completedAt: timestampFromDate(new Date()),
    sections: [
      {
        sectionId: 1,
        title: 'Computer skills',
        score: 3,
        totalPoints: 3,
        correct: 2,
        questions: 2,
        percentage: 100,
      },
    ],
    versionId: String(submitted.versionId),
    version: 1,
    passingScore: 70,
    assessmentTitle: 'Readiness check',
    ...overrides,
  } as never);
}
