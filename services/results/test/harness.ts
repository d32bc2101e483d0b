import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MessageInitShape } from '@bufbuild/protobuf';
import jwt from 'jsonwebtoken';
import {
  AssessmentVersionPublishedSchema,
  QuestionType,
  StudentAttemptStartedSchema,
  StudentAttemptSubmittedSchema,
  StudentDeletedSchema,
  StudentInvitationResentSchema,
  StudentInvitedSchema,
  create,
  decodePayload,
  encodePayload,
  timestampFromDate,
  type EventName,
  type EventPayload,
} from '@readiness/contracts';
import { createJwtVerifier } from '@readiness/kit/auth';
import { createMemoryBus, createRabbitBus, type BusMessage, type EventBus } from '@readiness/kit/bus';
import { openDatabase, type Database } from '@readiness/kit/db';
import { createLogger } from '@readiness/kit/logger';
import { startService, type RunningService } from '@readiness/kit/runtime';
import { createTestDatabase, createTestVhost, eventually } from '@readiness/testing';
import { resultsService, type ResultsConfig, type ResultsConfigInput } from '../src';

export const logger = createLogger({ name: 'results-test', level: 'silent' });

const ISSUER = 'readiness-auth';
const AUDIENCE = 'readiness-admin';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const forger = generateKeyPairSync('rsa', { modulusLength: 2048 });
const kid = randomUUID();

/** An admin token as auth signs it; `forged` signs with a key auth never published. */
export function adminToken(
  adminId: string = randomUUID(),
  options: { forged?: boolean; mustChangePassword?: boolean } = {},
): string {
  return jwt.sign(
    {
      role: 'admin',
      sid: randomUUID(),
      ...(options.mustChangePassword ? { must_change_password: true } : {}),
    },
    options.forged ? forger.privateKey : privateKey,
    {
      algorithm: 'RS256',
      keyid: kid,
      subject: adminId,
      jwtid: randomUUID(),
      issuer: ISSUER,
      audience: AUDIENCE,
      expiresIn: 600,
    },
  );
}

const WATCHED = [
  'results.result.recorded.v1',
  'results.result.deleted.v1',
  'results.certificate.resend-requested.v1',
] as const satisfies EventName[];

type Watched = (typeof WATCHED)[number];

export interface SeenEvent<N extends Watched = Watched> {
  id: string;
  name: N;
  payload: EventPayload<N>;
}

export type VersionInput = MessageInitShape<typeof AssessmentVersionPublishedSchema>;

export interface Harness {
  service: RunningService<ResultsConfig, undefined>;
  url: string;
  database: Database;
  bus: EventBus;
  /** The RabbitMQ URL (with its vhost) of a `real` harness. */
  amqpUrl?: string;
  /** Every results event the bus delivered, decoded. */
  events: SeenEvent[];
  recorded(): Array<SeenEvent<'results.result.recorded.v1'>>;
  call(
    method: string,
    urlPath: string,
    options?: { token?: string | null; body?: unknown },
  ): Promise<Response>;
  /** Publishes an event as its owner would; returns the envelope (publish it again to redeliver). */
  publish<N extends EventName>(name: N, payload: EventPayload<N>): Promise<BusMessage>;
  republish(message: BusMessage): Promise<void>;
  /** Publishes a submission and waits for its recorded event. */
  submit(input: SubmissionInput): Promise<EventPayload<'results.result.recorded.v1'>>;
  close(): Promise<void>;
}

/** The service in-process on port 0 against a fresh database, with a RabbitMQ vhost (`real`) or the memory bus. */
export async function startResults(
  kind: 'real' | 'embedded',
  options: { config?: Partial<ResultsConfigInput> } = {},
): Promise<Harness> {
  const closers: Array<() => Promise<void> | void> = [];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'results-test-'));
  closers.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const db = await createTestDatabase();
  closers.push(db.close);
  const database = await openDatabase({ url: db.url, logger });
  closers.push(() => database.close());
  let bus: EventBus;
  let amqpUrl: string | undefined;
  if (kind === 'real') {
    const vhost = await createTestVhost();
    amqpUrl = vhost.url;
    closers.push(vhost.close);
    bus = createRabbitBus({ url: vhost.url, service: 'results', logger, retryDelaysMs: [100, 200] });
  } else {
    bus = createMemoryBus({ logger, service: 'results', retryDelaysMs: [100, 200] });
  }
  closers.push(() => bus.close());
  const events: SeenEvent[] = [];
  await bus.subscribe({
    queue: 'test.results-events',
    events: [...WATCHED],
    handle: async (msg) => {
      const name = msg.name as Watched;
      events.push({ id: msg.id, name, payload: decodePayload(name, msg.payload) } as SeenEvent);
    },
  });
  await bus.start();
  const service = await startService(resultsService, {
    config: {
      PORT: 0,
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      ...options.config,
    },
    logger,
    adapters: { database, bus },
    shared: {
      adminVerifier: createJwtVerifier({
        publicKeys: [{ kid, key: publicKey }],
        issuer: ISSUER,
        audience: AUDIENCE,
      }),
    },
  });
  closers.push(() => service.stop());

  const token = adminToken();
  const call = (method: string, urlPath: string, opts: { token?: string | null; body?: unknown } = {}) => {
    const bearer = opts.token === undefined ? token : opts.token;
    return fetch(`${service.url}${urlPath}`, {
      method,
      headers: {
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    });
  };

  return {
    service,
    url: service.url,
    database,
    bus,
    amqpUrl,
    events,
    recorded: () =>
      events.filter(
        (e): e is SeenEvent<'results.result.recorded.v1'> => e.name === 'results.result.recorded.v1',
      ),
    call,
    async publish(name, payload) {
      const message: BusMessage = {
        id: randomUUID(),
        name,
        occurredAt: new Date(),
        correlationId: randomUUID(),
        payload: encodePayload(name, payload),
      };
      await bus.publish([message]);
      return message;
    },
    async republish(message) {
      await bus.publish([message]);
    },
    async submit(input) {
      const attemptId = input.attemptId ?? randomUUID();
      await bus.publish([
        {
          id: randomUUID(),
          name: 'student.attempt.submitted.v1',
          occurredAt: new Date(),
          payload: encodePayload('student.attempt.submitted.v1', submittedEvent({ ...input, attemptId })),
        },
      ]);
      const seen = await eventually(
        () =>
          events.find(
            (e): e is SeenEvent<'results.result.recorded.v1'> =>
              e.name === 'results.result.recorded.v1' &&
              (e.payload as EventPayload<'results.result.recorded.v1'>).attemptId === attemptId,
          ) ?? false,
        'the recorded event',
      );
      return seen.payload;
    },
    async close() {
      for (const close of closers.reverse()) await close();
    },
  };
}

/** A version as the assessment service publishes it: two sections, one question of each type (6 points). */
export function versionEvent(overrides: VersionInput = {}) {
  return create(AssessmentVersionPublishedSchema, {
    versionId: randomUUID(),
    version: 1,
    active: true,
    title: 'Readiness check',
    description: 'Are you ready to study online?',
    timeLimitMinutes: 30,
    passingScore: 70,
    sections: [
      { id: 1, title: 'Technology', description: 'Your equipment' },
      { id: 2, title: 'Habits', description: 'Your study habits' },
    ],
    questions: [
      {
        id: 'q1',
        type: QuestionType.YES_NO,
        question: 'Do you own a computer?',
        section: 1,
        points: 1,
        required: true,
        correctAnswer: 'yes',
      },
      {
        id: 'q2',
        type: QuestionType.MULTIPLE_CHOICE,
        question: 'How often do you study?',
        section: 2,
        points: 2,
        required: true,
        correctAnswer: 'b',
        options: [
          { id: 'a', text: 'Never' },
          { id: 'b', text: 'Every day' },
        ],
      },
      {
        id: 'q3',
        type: QuestionType.FILE_UPLOAD,
        question: 'Upload a photo of your study space',
        section: 2,
        points: 3,
        // Required, so a result without the file is worth 0 of 6 points on it; optional questions have their
        // own version in scoring.rules.test.ts.
        required: true,
      },
    ],
    createdAt: timestampFromDate(new Date()),
    ...overrides,
  });
}

/** Every answer of the harness version right: 6 of 6 points. */
export const ALL_RIGHT: SubmissionInput['answers'] = [
  { questionId: 'q1', answer: 'yes' },
  { questionId: 'q2', answer: 'b' },
  { questionId: 'q3', answer: 'file_uploaded', file: true },
];

export interface SubmissionInput {
  attemptId?: string;
  studentId?: string;
  name?: string;
  email?: string;
  versionId: string;
  attemptNumber?: number;
  submittedAt?: Date;
  answers: Array<{ questionId: string; answer: string; file?: boolean }>;
}

export function submittedEvent(s: SubmissionInput) {
  const startedAt = new Date((s.submittedAt ?? new Date()).getTime() - 12 * 60_000);
  return create(StudentAttemptSubmittedSchema, {
    attemptId: s.attemptId ?? randomUUID(),
    studentId: s.studentId ?? randomUUID(),
    name: s.name ?? 'Ada Lovelace',
    email: s.email ?? 'ada@example.edu',
    versionId: s.versionId,
    version: 1,
    attemptNumber: s.attemptNumber ?? 1,
    startedAt: timestampFromDate(startedAt),
    deadlineAt: timestampFromDate(new Date(startedAt.getTime() + 30 * 60_000)),
    submittedAt: timestampFromDate(s.submittedAt ?? new Date()),
    timeSpentMinutes: 12,
    answers: s.answers.map((a) => ({
      questionId: a.questionId,
      answer: a.answer,
      ...(a.file
        ? {
            file: {
              key: `answers/${randomUUID()}`,
              originalName: 'desk.jpg',
              size: 2048n,
              mimetype: 'image/jpeg',
            },
          }
        : {}),
    })),
  });
}

const invitation = (s: { studentId: string; name: string; email: string }) => ({
  ...s,
  sealedInvitationUrl: 'sealed.v1.x',
  expiresAt: new Date().toISOString(),
});

export const invitedEvent = (s: { studentId: string; name: string; email: string }) =>
  create(StudentInvitedSchema, invitation(s));

export const resentEvent = (s: { studentId: string; name: string; email: string }) =>
  create(StudentInvitationResentSchema, invitation(s));

export const startedEvent = (s: {
  studentId: string;
  attemptId?: string;
  versionId?: string;
  attemptNumber?: number;
}) =>
  create(StudentAttemptStartedSchema, {
    attemptId: s.attemptId ?? randomUUID(),
    studentId: s.studentId,
    versionId: s.versionId ?? randomUUID(),
    version: 1,
    attemptNumber: s.attemptNumber ?? 1,
    startedAt: timestampFromDate(new Date()),
    deadlineAt: timestampFromDate(new Date(Date.now() + 30 * 60_000)),
  });

export const deletedEvent = (studentId: string) =>
  create(StudentDeletedSchema, { studentId, email: 'gone@example.edu', actorId: randomUUID() });
