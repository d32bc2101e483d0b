import { randomUUID } from 'node:crypto';
import {
  QuestionType,
  create,
  events as contracts,
  timestampFromDate,
  type EventName,
  type EventPayload,
} from '@readiness/contracts';
import { sql } from 'drizzle-orm';
import { createLogger } from '@readiness/kit/logger';
import {
  eventually,
  lateBound,
  startServiceUnderTest,
  testAdminToken,
  type SeenEvent as Seen,
  type ServiceUnderTest,
} from '@readiness/testing';
import type { SharedAdapters } from '@readiness/kit/runtime';
import { studentService, type StudentConfig, type StudentConfigInput } from '../src';

export const logger = createLogger({ name: 'student-test', level: 'silent' });

/** An admin token as auth signs it (an administrator's unless `options.role` says super_admin). */
export const adminToken = (adminId?: string, options?: { role?: string }) => testAdminToken(adminId, options);

const WATCHED = [
  'student.student.invited.v1',
  'student.invitation.resent.v1',
  'student.reminder.requested.v1',
  'student.student.deleted.v1',
  'student.extra-time.changed.v1',
  'student.attempt.started.v1',
  'student.attempt.submitted.v1',
  'student.attempt.adjusted.v1',
  'student.export.requested.v1',
] as const satisfies EventName[];

export type SeenEvent<N extends (typeof WATCHED)[number] = (typeof WATCHED)[number]> = Seen<N>;

export interface Harness extends ServiceUnderTest<StudentConfig, undefined, (typeof WATCHED)[number]> {
  importCsv(csv: string, options?: { dryRun?: boolean; token?: string }): Promise<Response>;
}

export interface StartOptions {
  config?: Partial<StudentConfigInput>;
  /** Reach RabbitMQ through a TCP proxy the test can cut (`real` only). */
  brokerProxy?: boolean;
  /** What the process shares with the other services (the all-in-one's key-value store, say); replicas too. */
  shared?: SharedAdapters;
}

/** The service in-process on port 0 against a fresh database, with a RabbitMQ vhost (`real`) or the memory bus. */
export async function startStudent(kind: 'real' | 'embedded', options: StartOptions = {}): Promise<Harness> {
  const h = await startServiceUnderTest(studentService, {
    kind,
    config: { PUBLIC_ORIGIN: 'https://readiness.example.edu', ...options.config },
    watch: WATCHED,
    s3: true,
    brokerProxy: options.brokerProxy,
    shared: options.shared,
  });
  const token = testAdminToken();
  return Object.assign(h, {
    importCsv(csv: string, opts: { dryRun?: boolean; token?: string } = {}) {
      const form = new FormData();
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'students.csv');
      return fetch(`${h.url}/api/admin/students/import${opts.dryRun ? '?dryRun=true' : ''}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${opts.token ?? token}` },
        body: form,
      });
    },
  });
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

/** `n` yes/no questions of section 1, `bank-1` to `bank-n`, a point each, right when answered `yes`. */
export const yesNoBank = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `bank-${i + 1}`,
    type: QuestionType.YES_NO,
    question: `Bank question ${i + 1}`,
    section: 1,
    points: 1,
    required: true,
    correctAnswer: 'yes',
  }));

/** A yes/no practice question, right when answered `yes`, as a version offers it before Start. */
export const PRACTICE_QUESTION = {
  id: 'practice',
  type: QuestionType.YES_NO,
  question: 'Is this a practice question?',
  correctAnswer: 'yes',
  options: [],
};

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

/**
 * The service for a whole file's tests: started before them (`startStudent`), with a version published
 * (`publishVersion`: the default one, `version`'s overrides, none when `false`), and closed after them. The harness
 * it answers is there from the file's first test on.
 */
export function useStudent(
  kind: 'real' | 'embedded',
  options: StartOptions & { version?: Partial<EventPayload<'assessment.version.published.v1'>> | false } = {},
): Harness {
  const { version = {}, ...start } = options;
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startStudent(kind, start);
    if (version !== false) await publishVersion(h, version);
  });
  afterAll(() => h?.close());
  return lateBound(() => h, 'the student service');
}

/** How many events of `name` the service's outbox holds, sent or not (a sent one's payload is emptied). */
export async function outboxCount(h: Harness, name: (typeof WATCHED)[number]): Promise<number> {
  const [row] = await h.database.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM outbox WHERE name = ${name}`,
  );
  return row!.n;
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

/**
 * A student invited under a name of its own (`label` and a random tag) who pressed Start: their id, token and name,
 * the attempt as Start answered it, and its id.
 */
export async function startAttempt(h: Harness, label: string, name = `${label} ${randomUUID().slice(0, 8)}`) {
  const s = await inviteStudent(h, { name });
  const { status, json } = await studentCall(h, 'POST', `/api/student/${s.token}/start`);
  if (status !== 201) throw new Error(`Start answered ${status}: ${JSON.stringify(json)}`);
  const attempt = json.attempt as JsonBody;
  return { ...s, name, attempt, attemptId: attempt.id as string };
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

/** A link's event stream, as the student's page follows its attempt. */
export interface AttemptStream {
  res: Response;
  messages: JsonBody[];
  /** The server ended the stream (or the test closed it). */
  ended: () => boolean;
  close: () => Promise<void>;
}

/** Opens a link's event stream on `base` (a server's URL), reading its `attempt` events as they come. */
export async function openAttemptStream(
  base: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<AttemptStream> {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/student/${token}/events`, { signal: controller.signal, headers });
  const messages: JsonBody[] = [];
  let ended = false;
  const reading = (async () => {
    if (!res.body || res.status !== 200) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          if (block.startsWith('event: attempt'))
            messages.push(JSON.parse(block.split('\ndata: ')[1]!) as JsonBody);
        }
      }
    } catch {
      // aborted
    }
    ended = true;
  })();
  if (res.status !== 200) ended = true;
  return {
    res,
    messages,
    ended: () => ended,
    close: async () => {
      controller.abort();
      await reading;
    },
  };
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

/** An administrator's JSON call to `url` (a replica, a gateway): the status, the body and its Retry-After. */
export async function adminJson(url: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${testAdminToken()}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: res.status,
    json: (await res.json()) as JsonBody,
    retryAfter: res.headers.get('retry-after'),
  };
}
