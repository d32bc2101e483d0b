import { randomUUID } from 'node:crypto';
import type { MessageInitShape } from '@bufbuild/protobuf';
import {
  AssessmentVersionPublishedSchema,
  QuestionType,
  StudentAttemptStartedSchema,
  StudentAttemptSubmittedSchema,
  StudentDeletedSchema,
  StudentInvitationResentSchema,
  StudentInvitedSchema,
  create,
  timelineMessages,
  timestampFromDate,
  type EventName,
  type EventPayload,
  type TimelineFact,
} from '@readiness/contracts';
import type { BusMessage } from '@readiness/kit/bus';
import { createLogger } from '@readiness/kit/logger';
import {
  eventually,
  startServiceUnderTest,
  testAdminToken,
  type SeenEvent as Seen,
  type ServiceUnderTest,
} from '@readiness/testing';
import { resultsService, type ResultsConfig, type ResultsConfigInput } from '../src';

export const logger = createLogger({ name: 'results-test', level: 'silent' });

/** An admin token as auth signs it; `forged` signs with a key auth never published. */
export const adminToken = testAdminToken;

const WATCHED = [
  'results.result.recorded.v1',
  'results.result.deleted.v1',
  'results.certificate.resend-requested.v1',
  'results.results.exported.v1',
] as const satisfies EventName[];

type Watched = (typeof WATCHED)[number];

export type SeenEvent<N extends Watched = Watched> = Seen<N>;

export type VersionInput = MessageInitShape<typeof AssessmentVersionPublishedSchema>;

export interface Harness extends ServiceUnderTest<ResultsConfig, undefined, Watched> {
  recorded(): Array<SeenEvent<'results.result.recorded.v1'>>;
  republish(message: BusMessage): Promise<void>;
  /** Publishes a submission and waits for its recorded event. */
  submit(input: SubmissionInput): Promise<EventPayload<'results.result.recorded.v1'>>;
}

/** The service in-process on port 0 against a fresh database, with a RabbitMQ vhost (`real`) or the memory bus. */
export async function startResults(
  kind: 'real' | 'embedded',
  options: { config?: Partial<ResultsConfigInput> } = {},
): Promise<Harness> {
  const h = await startServiceUnderTest(resultsService, { kind, config: options.config, watch: WATCHED });
  const recorded = () => h.eventsNamed('results.result.recorded.v1');
  return Object.assign(h, {
    recorded,
    async republish(message: BusMessage) {
      await h.bus.publish([message]);
    },
    async submit(input: SubmissionInput) {
      const attemptId = input.attemptId ?? randomUUID();
      await h.publish('student.attempt.submitted.v1', submittedEvent({ ...input, attemptId }));
      const seen = await eventually(
        () => recorded().find((e) => e.payload.attemptId === attemptId) ?? false,
        'the recorded event',
      );
      return seen.payload;
    },
  });
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

/**
 * Results at the pass mark (70) of versions weighted so that q2 and q3 right score just under it or on it:
 * 139 of 200 (69.5 %), 1399 of 2000 (69.95 %) and 7 of 10 (70 %), with what every surface shows of them.
 */
export const AT_THE_PASS_MARK = [
  { points: [61, 39, 100], score: 139, total: 200, shown: 69.5, passed: false, level: 'Needs Improvement' },
  {
    points: [601, 399, 1000],
    score: 1399,
    total: 2000,
    shown: 69.9,
    passed: false,
    level: 'Needs Improvement',
  },
  { points: [3, 2, 5], score: 7, total: 10, shown: 70, passed: true, level: 'Satisfactory' },
] as const;

/** The harness version with q1, q2 and q3 worth `points`. */
export function weightedVersion(points: readonly number[]) {
  const version = versionEvent();
  version.questions.forEach((q, i) => {
    q.points = points[i]!;
  });
  return version;
}

/** q1 wrong, q2 and q3 right. */
export const ALL_BUT_Q1: SubmissionInput['answers'] = [
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
  /** What happened during the attempt, as the student service sends it. */
  timeline?: TimelineFact[];
  /** The questions the attempt was given (a section's draw); absent: all. */
  questionIds?: string[];
  /** The attempt's language as the student service sends it; absent: none (an older publisher). */
  language?: string;
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
    timeline: timelineMessages(s.timeline ?? []),
    questionIds: s.questionIds ?? [],
    language: s.language ?? '',
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
