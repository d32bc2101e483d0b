/**
 * Students of one scenario, taken through the product's own APIs behind the gateway: invited by the seeded super
 * admin, then each loads the assessment, starts, autosaves and submits. Half of them answer every question right
 * (a pass), half answer every question wrong (a fail).
 */
import { randomUUID } from 'node:crypto';
import { api } from '../../../deploy/all-in-one/test/launcher';
import { ADMIN } from './fault-stack';

interface Question {
  id: string;
  type: 'yes_no' | 'multiple_choice' | 'file_upload';
  points: number;
  correctAnswer?: string;
  options?: Array<{ id: string }>;
}

export interface Answer {
  questionId: string;
  answer: string;
}

/** The active assessment's answers that pass it and answers that fail it. */
export interface AnswerSheet {
  /** The version the answers are for (the active one). */
  version: number;
  pass: Answer[];
  fail: Answer[];
}

export interface Student {
  /** Position in the scenario; even positions pass. */
  index: number;
  id: string;
  email: string;
  token: string;
  attemptId: string;
  passes: boolean;
  /** HTTP status of the submit; 0 when the request itself failed. */
  submitStatus?: number;
}

export interface Admin {
  base: string;
  token: string;
}

export async function signIn(base: string): Promise<Admin> {
  const login = await api<{ token: string }>(base, 'POST', '/api/auth/login', { body: ADMIN });
  if (login.status !== 200)
    throw new Error(`admin sign-in answered ${login.status}: ${JSON.stringify(login.body)}`);
  return { base, token: login.body.token };
}

/** Reads the answer key of the active assessment through the admin API and checks that it decides a pass. */
export async function answerSheet(admin: Admin): Promise<AnswerSheet> {
  const res = await api<{ assessment: { version: number; passingScore: number; questions: Question[] } }>(
    admin.base,
    'GET',
    '/api/assessment',
    { token: admin.token },
  );
  if (res.status !== 200) throw new Error(`the active assessment answered ${res.status}`);
  const { questions, passingScore, version } = res.body.assessment;
  const answerable = questions.filter((q) => q.type !== 'file_upload' && q.correctAnswer);
  const total = questions.reduce((sum, q) => sum + q.points, 0);
  const right = answerable.reduce((sum, q) => sum + q.points, 0);
  if (right * 100 < passingScore * total)
    throw new Error('the active assessment cannot be passed without uploading files');
  const wrong = (q: Question): string =>
    q.type === 'yes_no'
      ? q.correctAnswer === 'yes'
        ? 'no'
        : 'yes'
      : (q.options ?? []).find((o) => o.id !== q.correctAnswer)!.id;
  return {
    version,
    pass: answerable.map((q) => ({ questionId: q.id, answer: q.correctAnswer! })),
    fail: answerable.map((q) => ({ questionId: q.id, answer: wrong(q) })),
  };
}

/** Runs `fn` over `items`, at most `concurrency` at a time, in order of start. */
export async function inPool<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

async function expectOk<T>(what: string, call: Promise<{ status: number; body: T }>): Promise<T> {
  const res = await call;
  if (res.status < 200 || res.status >= 300)
    throw new Error(`${what} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

const CONCURRENCY = 16;

/**
 * Invites `count` students named after the scenario (or by `options.name`) and brings each to the point of
 * submitting: the assessment loaded, the attempt started and the answers autosaved.
 */
export async function prepareStudents(
  admin: Admin,
  scenario: string,
  count: number,
  sheet: AnswerSheet,
  options: { name?: (label: string) => string } = {},
): Promise<Student[]> {
  const run = randomUUID().slice(0, 8);
  return inPool(
    Array.from({ length: count }, (_, i) => i),
    CONCURRENCY,
    async (index) => {
      const label = String(index).padStart(3, '0');
      const email = `${scenario}-${label}.${run}@faults.example.edu`;
      const { student } = await expectOk(
        'invite',
        api<{ student: { _id: string; inviteToken: string } }>(
          admin.base,
          'POST',
          '/api/admin/students/invite',
          {
            token: admin.token,
            body: { name: options.name?.(label) ?? `Student ${scenario.toUpperCase()} ${label}`, email },
          },
        ),
      );
      const link = `/api/student/${student.inviteToken}`;
      await expectOk('assessment', api(admin.base, 'GET', `${link}/assessment`));
      const started = await expectOk(
        'start',
        api<{ attempt: { id: string } }>(admin.base, 'POST', `${link}/start`),
      );
      const passes = index % 2 === 0;
      await expectOk(
        'autosave',
        api(admin.base, 'PUT', `${link}/answers`, {
          body: { attemptId: started.attempt.id, seq: 1, answers: passes ? sheet.pass : sheet.fail },
        }),
      );
      return {
        index,
        id: student._id,
        email,
        token: student.inviteToken,
        attemptId: started.attempt.id,
        passes,
      };
    },
  );
}

/**
 * The burst: every student submits, `concurrency` at a time. A failed request is recorded (status 0), never
 * retried: only a 2xx counts as accepted. `onSubmitted` runs after each answer (a scenario injects its fault there).
 */
export async function submitAll(
  base: string,
  students: Student[],
  sheet: AnswerSheet,
  options: { concurrency?: number; onSubmitted?: (done: number) => void | Promise<void> } = {},
): Promise<void> {
  let done = 0;
  await inPool(students, options.concurrency ?? 32, async (s) => {
    try {
      const res = await api(base, 'POST', `/api/student/${s.token}/submit`, {
        headers: { 'Idempotency-Key': `submit-${s.attemptId}` },
        body: {
          attemptId: s.attemptId,
          answers: s.passes ? sheet.pass : sheet.fail,
          timeSpent: 1,
          startedAt: new Date().toISOString(),
        },
      });
      s.submitStatus = res.status;
    } catch {
      s.submitStatus = 0;
    }
    done++;
    await options.onSubmitted?.(done);
  });
}

export const accepted = (students: Student[]) =>
  students.filter((s) => s.submitStatus !== undefined && s.submitStatus >= 200 && s.submitStatus < 300);
