import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { eventually } from '@readiness/testing';
import {
  inviteStudent,
  publishVersion,
  resultEvent,
  startStudent,
  studentCall,
  type Harness,
  type SeenEvent,
} from './harness';

jest.setTimeout(90_000);

const submittedOf = (h: Harness, attemptId: string) =>
  h.eventsNamed('student.attempt.submitted.v1').filter((e) => e.payload.attemptId === attemptId);

/** Answers each submitted event as the results service would: one result per attempt. */
function fakeResults(
  h: Harness,
  outcome: (
    e: SeenEvent<'student.attempt.submitted.v1'>,
  ) => { passed: boolean; score?: number; totalPoints?: number } | undefined,
) {
  const answered = new Set<string>();
  const timer = setInterval(() => {
    for (const e of h.eventsNamed('student.attempt.submitted.v1')) {
      const id = e.payload.attemptId;
      if (answered.has(id)) continue;
      const o = outcome(e);
      if (!o) continue;
      answered.add(id);
      void h.publish(
        'results.result.recorded.v1',
        resultEvent(e.payload, {
          passed: o.passed,
          canRetake: !o.passed,
          score: o.score ?? (o.passed ? 6 : 2),
          totalPoints: o.totalPoints ?? 6,
          // The event's whole percent, rounded: 69.5 % and 69.95 % arrive as 70.
          percentage: Math.round(((o.score ?? (o.passed ? 6 : 2)) * 100) / (o.totalPoints ?? 6)),
        }),
      );
    }
  }, 20);
  return () => clearInterval(timer);
}

// On the memory bus only: the bus is not the subject here; both buses pass one contract suite (kit/src/bus/test).
describe('submitting', () => {
  let h: Harness;
  let stopResults: () => void;
  const verdicts = new Map<string, boolean>();
  const figures = new Map<string, { score: number; totalPoints: number }>();
  beforeAll(async () => {
    h = await startStudent('embedded', { config: { SUBMIT_RESULT_WAIT_MS: 3_000 } });
    await publishVersion(h);
    stopResults = fakeResults(h, (e) => {
      const passed = verdicts.get(String(e.payload.studentId));
      return passed === undefined ? undefined : { passed, ...figures.get(String(e.payload.studentId)) };
    });
  });
  afterAll(async () => {
    stopResults?.();
    await h?.close();
  });

  const begin = async (passed?: boolean) => {
    const s = await inviteStudent(h);
    if (passed !== undefined) verdicts.set(s.id, passed);
    const { json } = await studentCall(h, 'POST', `/api/student/${s.token}/start`);
    return { ...s, attemptId: json.attempt.id as string };
  };

  test('when the result is recorded within the wait, then submit answers 200 with it, the student is completed and a new start is refused', async () => {
    const s = await begin(true);
    const res = await studentCall(h, 'POST', `/api/student/${s.token}/submit`, {
      answers: [
        { questionId: 'q1', answer: 'yes' },
        { questionId: 'q2', answer: 'opt-secret-key' },
      ],
      timeSpent: 3,
      startedAt: new Date().toISOString(),
    });
    expect(res.status).toBe(200);
    expect(res.json.message).toBe('Assessment submitted successfully!');
    expect(res.json.result).toMatchObject({
      attemptId: s.attemptId,
      attemptNumber: 1,
      passed: true,
      percentage: 100,
      assessmentCode: 'RDY-7K3F-92QX',
      passingScore: 70,
      canRetake: false,
    });
    expect(res.json.result.sections[0]).toEqual({
      id: 1,
      title: 'Computer skills',
      score: 3,
      totalPoints: 3,
      correct: 2,
      questions: 2,
      percentage: 100,
    });
    const event = submittedOf(h, s.attemptId)[0]!.payload;
    expect(event).toMatchObject({
      studentId: s.id,
      attemptNumber: 1,
      version: 1,
      gradedFromAutosave: false,
      ltiLaunchId: '',
      answers: [
        { questionId: 'q1', answer: 'yes' },
        { questionId: 'q2', answer: 'opt-secret-key' },
      ],
    });
    const page = await studentCall(h, 'GET', `/api/student/${s.token}/assessment`);
    expect(page.json).toMatchObject({ alreadyCompleted: true, attempt: null, awaitingResult: false });
    expect(page.json.result._id).toBe(res.json.result._id);
    expect(page.json.previousAttempt).toEqual({
      percentage: 100,
      passed: true,
      completedAt: res.json.result.completedAt,
    });
    expect(await studentCall(h, 'POST', `/api/student/${s.token}/start`)).toEqual({
      status: 409,
      json: { message: 'Assessment already completed!', code: 'already_completed' },
    });
    const [student] = await h.database.execute<{ status: string }>(
      sql`SELECT status FROM students WHERE id = ${s.id}`,
    );
    expect(student!.status).toBe('completed');
    const results = await studentCall(h, 'GET', `/api/student/${s.token}/results`);
    expect(results.json.results).toHaveLength(1);
  });

  test('when the student came from an LMS, then the submission names their newest launch, for the grade to go back through', async () => {
    const s = await begin(true);
    const [older, newer] = [randomUUID(), randomUUID()];
    await h.database.execute(
      sql`INSERT INTO lti_launch_tickets (launch_id, student_id, used_at)
          VALUES (${older}, ${s.id}, now() - interval '1 hour'), (${newer}, ${s.id}, now())`,
    );
    const res = await studentCall(h, 'POST', `/api/student/${s.token}/submit`, {
      answers: [{ questionId: 'q1', answer: 'yes' }],
      timeSpent: 1,
      startedAt: new Date().toISOString(),
    });
    expect(res.status).toBe(200);
    expect(submittedOf(h, s.attemptId)[0]!.payload.ltiLaunchId).toBe(newer);
  });

  test.each([
    { score: 139, totalPoints: 200, passed: false, shown: 69.5 },
    { score: 1399, totalPoints: 2000, passed: false, shown: 69.9 },
    { score: 7, totalPoints: 10, passed: true, shown: 70 },
  ])(
    'when $score of $totalPoints points are recorded against a passing score of 70, then the result, the results and the previous attempt read $shown %',
    async ({ score, totalPoints, passed, shown }) => {
      const s = await inviteStudent(h);
      verdicts.set(s.id, passed);
      figures.set(s.id, { score, totalPoints });
      await studentCall(h, 'POST', `/api/student/${s.token}/start`);
      const res = await studentCall(h, 'POST', `/api/student/${s.token}/submit`, {
        answers: [{ questionId: 'q1', answer: 'yes' }],
      });
      expect(res.json.result).toMatchObject({
        score,
        totalPoints,
        percentage: shown,
        passed,
        passingScore: 70,
      });
      const results = await studentCall(h, 'GET', `/api/student/${s.token}/results`);
      expect(results.json.results[0]).toMatchObject({ percentage: shown, passed });
      const page = await studentCall(h, 'GET', `/api/student/${s.token}/assessment`);
      expect(page.json.previousAttempt).toMatchObject({ percentage: shown, passed });
    },
  );

  test('when the client asks Prefer: respond-async, then submit answers 202 at commit without waiting, and its repeat answers with the result once recorded', async () => {
    const s = await begin(true);
    const send = () =>
      fetch(`${h.url}/api/student/${s.token}/submit`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          prefer: 'respond-async, wait=0',
          'idempotency-key': `async-${s.attemptId}`,
        },
        body: JSON.stringify({
          attemptId: s.attemptId,
          answers: [
            { questionId: 'q1', answer: 'yes' },
            { questionId: 'q2', answer: 'opt-secret-key' },
          ],
          timeSpent: 2,
          startedAt: new Date().toISOString(),
        }),
      });
    const first = await send();
    expect(first.status).toBe(202);
    expect(first.headers.get('preference-applied')).toBe('respond-async');
    expect(await first.json()).toMatchObject({
      message: 'Assessment submitted successfully!',
      attemptId: s.attemptId,
      status: 'scoring',
    });
    expect(submittedOf(h, s.attemptId).length).toBeLessThanOrEqual(1);
    const repeat = await eventually(async () => {
      const res = await send();
      return res.status === 200
        ? ((await res.json()) as { result: { attemptId: string; passed: boolean } })
        : false;
    }, 'the result, on a repeat of the submit');
    expect(repeat.result).toMatchObject({ attemptId: s.attemptId, passed: true });
    expect(submittedOf(h, s.attemptId)).toHaveLength(1);
  });

  test('when Prefer names something else, then submit still waits for the result as the page expects', async () => {
    const s = await begin(true);
    const res = await fetch(`${h.url}/api/student/${s.token}/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', prefer: 'return=minimal, x-respond-async' },
      body: JSON.stringify({
        answers: [{ questionId: 'q1', answer: 'yes' }],
        timeSpent: 1,
        startedAt: new Date().toISOString(),
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('preference-applied')).toBeNull();
  });

  test('when the same submit is sent five times at once, then one attempt ends, one event goes out and all answer the same', async () => {
    const s = await begin();
    const send = () =>
      studentCall(
        h,
        'POST',
        `/api/student/${s.token}/submit`,
        {
          attemptId: s.attemptId,
          answers: [{ questionId: 'q1', answer: 'no' }],
          timeSpent: 1,
          startedAt: 'x',
        },
        { 'Idempotency-Key': `key-${s.attemptId}` },
      );
    const all = await Promise.all([send(), send(), send(), send(), send()]);
    for (const r of all) {
      expect(r.status).toBe(202);
      expect(r.json).toMatchObject({ attemptId: s.attemptId, status: 'scoring' });
    }
    await eventually(() => submittedOf(h, s.attemptId).length === 1, 'the submitted event');
    await new Promise((r) => setTimeout(r, 300));
    expect(submittedOf(h, s.attemptId)).toHaveLength(1);
    const [row] = await h.database.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM attempts WHERE student_id = ${s.id}`,
    );
    expect(row!.n).toBe(1);
    const page = await studentCall(h, 'GET', `/api/student/${s.token}/assessment`);
    expect(page.json).toMatchObject({ attempt: null, awaitingResult: true });
    expect((await studentCall(h, 'POST', `/api/student/${s.token}/start`)).json.code).toBe('awaiting_result');
    // The result arrives later: the same submit now answers with it.
    verdicts.set(s.id, false);
    await eventually(async () => (await send()).status === 200, 'the repeat answering with the result');
    const repeat = await send();
    expect(repeat.json.result).toMatchObject({ attemptId: s.attemptId, passed: false, canRetake: true });

    // Failed: a retake is attempt 2, and the welcome page shows the previous attempt.
    const retake = await studentCall(h, 'POST', `/api/student/${s.token}/start`);
    expect(retake.status).toBe(201);
    expect(retake.json.attempt.attemptNumber).toBe(2);
    const page2 = await studentCall(h, 'GET', `/api/student/${s.token}/assessment`);
    expect(page2.json).toMatchObject({
      alreadyCompleted: false,
      result: null,
      previousAttempt: { percentage: 33.3, passed: false },
      attempt: { attemptNumber: 2 },
    });
  });

  test('when a submit comes later than the grace, then the last autosave before the deadline is graded; within the grace it is taken whole', async () => {
    const late = await begin();
    const save = (seq: number, answer: string) =>
      studentCall(h, 'PUT', `/api/student/${late.token}/answers`, {
        attemptId: late.attemptId,
        seq,
        answers: [{ questionId: 'q1', answer }],
      });
    expect((await save(1, 'yes')).status).toBe(200);
    await h.database.execute(
      sql`UPDATE attempts SET deadline_at = now() - interval '10 seconds' WHERE id = ${late.attemptId}`,
    );
    // Within the grace an autosave is kept, but it is not one made before the deadline.
    expect((await save(2, 'no')).json.seq).toBe(2);
    await h.database.execute(
      sql`UPDATE attempts SET deadline_at = now() - interval '31 seconds' WHERE id = ${late.attemptId}`,
    );
    expect((await save(3, 'no')).json.code).toBe('attempt_closed');
    const res = await studentCall(h, 'POST', `/api/student/${late.token}/submit`, {
      attemptId: late.attemptId,
      answers: [
        { questionId: 'q1', answer: 'no' },
        { questionId: 'q2', answer: 'opt-a' },
      ],
    });
    expect(res.status).toBe(202);
    await eventually(() => submittedOf(h, late.attemptId).length === 1, 'the late submitted event');
    expect(submittedOf(h, late.attemptId)[0]!.payload).toMatchObject({
      gradedFromAutosave: true,
      answers: [{ questionId: 'q1', answer: 'yes' }],
    });

    const onTime = await begin();
    await h.database.execute(
      sql`UPDATE attempts SET deadline_at = now() - interval '20 seconds' WHERE id = ${onTime.attemptId}`,
    );
    const ok = await studentCall(h, 'POST', `/api/student/${onTime.token}/submit`, {
      answers: [{ questionId: 'q2', answer: 'opt-a' }],
    });
    expect(ok.status).toBe(202);
    await eventually(() => submittedOf(h, onTime.attemptId).length === 1, 'the on-time submitted event');
    expect(submittedOf(h, onTime.attemptId)[0]!.payload).toMatchObject({
      gradedFromAutosave: false,
      answers: [{ questionId: 'q2', answer: 'opt-a' }],
    });
  });

  test('when a result is deleted, then the copy goes and the student may start again', async () => {
    const s = await begin(true);
    const res = await studentCall(h, 'POST', `/api/student/${s.token}/submit`, { answers: [] });
    expect(res.status).toBe(200);
    await h.publish('results.result.deleted.v1', {
      resultId: res.json.result._id,
      attemptId: s.attemptId,
      studentId: s.id,
      actorId: 'admin',
    } as never);
    await eventually(async () => {
      const page = await studentCall(h, 'GET', `/api/student/${s.token}/assessment`);
      return page.json.alreadyCompleted === false && page.json.previousAttempt === null;
    }, 'the copy dropped');
    const [student] = await h.database.execute<{ status: string }>(
      sql`SELECT status FROM students WHERE id = ${s.id}`,
    );
    expect(student!.status).toBe('invited');
    expect((await studentCall(h, 'POST', `/api/student/${s.token}/start`)).status).toBe(201);
  });

  test('when a submit names another student’s attempt or nothing was started, then it is refused', async () => {
    const a = await begin();
    const b = await inviteStudent(h);
    const foreign = await studentCall(h, 'POST', `/api/student/${b.token}/submit`, {
      attemptId: a.attemptId,
      answers: [],
    });
    expect(foreign.status).toBe(404);
    expect(foreign.json.code).toBe('attempt_not_found');
    expect((await studentCall(h, 'POST', `/api/student/${b.token}/submit`, { answers: [] })).json.code).toBe(
      'not_started',
    );
  });
});

test('when the loaded assessment is served, then it costs one database round trip', async () => {
  const h = await startStudent('embedded');
  try {
    await publishVersion(h);
    const fresh = await inviteStudent(h);
    const started = await inviteStudent(h);
    await studentCall(h, 'POST', `/api/student/${started.token}/start`);
    await studentCall(h, 'GET', `/api/student/${fresh.token}/assessment`);
    // The start's event relayed and marked sent first: the relay's statements are not the page's.
    await eventually(
      async () => (await h.database.execute(sql`SELECT 1 FROM outbox WHERE sent_at IS NULL`)).length === 0,
      'the outbox relayed',
    );
    for (const s of [fresh, started]) {
      const { value, queries } = await h.countQueries(() =>
        studentCall(h, 'GET', `/api/student/${s.token}/assessment`),
      );
      expect(value.status).toBe(200);
      expect(queries).toBe(1);
    }
    const unknown = await h.countQueries(() => studentCall(h, 'GET', '/api/student/nobody/assessment'));
    expect(unknown.queries).toBe(1);
  } finally {
    await h.close();
  }
});

test('when the broker is cut during a burst of submissions, then all are accepted and all are published after it returns', async () => {
  const h = await startStudent('real', { brokerProxy: true, config: { SUBMIT_RESULT_WAIT_MS: 100 } });
  try {
    await publishVersion(h);
    const students: Array<{ id: string; token: string; attemptId: string }> = [];
    for (let i = 0; i < 20; i++) {
      const s = await inviteStudent(h);
      const { json } = await studentCall(h, 'POST', `/api/student/${s.token}/start`);
      students.push({ ...s, attemptId: json.attempt.id as string });
    }
    h.proxy!.cut();
    const answers = await Promise.all(
      students.map((s) =>
        studentCall(h, 'POST', `/api/student/${s.token}/submit`, {
          answers: [{ questionId: 'q1', answer: 'yes' }],
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(students.map(() => 202));
    await new Promise((r) => setTimeout(r, 500));
    h.proxy!.restore();
    await eventually(
      () => students.every((s) => submittedOf(h, s.attemptId).length >= 1),
      'every submission published',
      30_000,
    );
    const [row] = await h.database.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM attempts WHERE status = 'submitted'`,
    );
    expect(row!.n).toBe(20);
  } finally {
    await h.close();
  }
});
