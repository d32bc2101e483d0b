import type { EventName, EventPayload } from '@readiness/contracts';
import type { BusMessage } from '@readiness/kit/bus';
import { createLogger } from '@readiness/kit/logger';
import {
  eventually,
  lateBound,
  startServiceUnderTest,
  testAdminToken,
  type SeenEvent as Seen,
  type ServiceUnderTest,
} from '@readiness/testing';
import {
  attemptSubmitted,
  newId,
  questionsWith,
  rightAnswers,
  versionPublished,
  type SubmissionInput,
  type VersionOverrides,
} from '@readiness/testing/fixtures';
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

export interface Harness extends ServiceUnderTest<ResultsConfig, undefined, Watched> {
  recorded(): Array<SeenEvent<'results.result.recorded.v1'>>;
  republish(message: BusMessage): Promise<void>;
  /** Publishes a submission and waits for its recorded event. */
  submit(input: SubmissionInput): Promise<EventPayload<'results.result.recorded.v1'>>;
}

/**
 * The service in-process on port 0 against a fresh database, with a RabbitMQ vhost (`real`) or the memory bus, and
 * the `versions` published to it.
 */
export interface StartOptions {
  config?: Partial<ResultsConfigInput>;
  versions?: Array<EventPayload<'assessment.version.published.v1'>>;
}

export async function startResults(kind: 'real' | 'embedded', options: StartOptions = {}): Promise<Harness> {
  const h = await startServiceUnderTest(resultsService, { kind, config: options.config, watch: WATCHED });
  for (const version of options.versions ?? []) await h.publish('assessment.version.published.v1', version);
  const recorded = () => h.eventsNamed('results.result.recorded.v1');
  return Object.assign(h, {
    recorded,
    async republish(message: BusMessage) {
      await h.bus.publish([message]);
    },
    async submit(input: SubmissionInput) {
      const attemptId = input.attemptId ?? newId();
      await h.publish('student.attempt.submitted.v1', attemptSubmitted({ ...input, attemptId }));
      const seen = await eventually(
        () => recorded().find((e) => e.payload.attemptId === attemptId) ?? false,
        'the recorded event',
      );
      return seen.payload;
    },
  });
}

/** The service for the tests of a file (or a `describe`): started before them (`startResults`), closed after them. */
export function useResults(kind: 'real' | 'embedded', options: StartOptions = {}): Harness {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startResults(kind, options);
  });
  afterAll(() => h?.close());
  return lateBound(() => h, 'the results service');
}

/**
 * The fixtures' version with its file question required, so that a result without the file is worth 0 of its 6
 * points on it (optional questions have their own version in scoring.rules.test.ts).
 */
export const versionEvent = (overrides: VersionOverrides = {}) =>
  versionPublished({ questions: questionsWith({ q3: { required: true } }), ...overrides });

/** Every answer of the harness version right: 6 of 6 points. */
export const ALL_RIGHT = rightAnswers();

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
export const ALL_BUT_Q1 = ALL_RIGHT.slice(1);
