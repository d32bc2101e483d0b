import { sql } from 'drizzle-orm';
import { eventually } from '@readiness/testing';
import {
  inviteStudent,
  publishVersion,
  startStudent,
  studentCall,
  useStudent,
  versionEvent,
} from './harness';

jest.setTimeout(60_000);

/** Every key anywhere in a JSON value, and every object that names one of the crafted questions. */
function scan(value: unknown, keys = new Set<string>(), questions: Array<Record<string, unknown>> = []) {
  if (Array.isArray(value)) value.forEach((v) => scan(v, keys, questions));
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.id === 'string' && /^q\d$/.test(o.id) && 'question' in o) questions.push(o);
    for (const [k, v] of Object.entries(o)) {
      keys.add(k);
      scan(v, keys, questions);
    }
  }
  return { keys, questions };
}

const QUESTION_FIELDS = [
  'fileInstructions',
  'hasDownloadableFile',
  'id',
  'options',
  'points',
  'question',
  'required',
  'section',
  'type',
];

// On the memory bus only: the bus is not the subject here; both buses pass one contract suite (kit/src/bus/test).
describe('the student flow', () => {
  const h = useStudent('embedded');

  test('when a student opens the assessment, then nothing starts; when two tabs start at once, then one attempt exists and both get it', async () => {
    const s = await inviteStudent(h);
    const opened = await studentCall(h, 'GET', `/api/student/${s.token}/assessment`);
    expect(opened.status).toBe(200);
    expect(opened.json).toMatchObject({
      alreadyCompleted: false,
      result: null,
      previousAttempt: null,
      attempt: null,
      awaitingResult: false,
    });
    // Before Start the page carries no question (issue 43 item 2); the welcome page counts them by section.
    expect(opened.json.assessment.questions).toEqual([]);
    expect(opened.json.assessment.sections.map((x: { questionCount: number }) => x.questionCount)).toEqual([
      2, 1,
    ]);
    const [before] = await h.database.execute<{ status: string; n: number }>(
      sql`SELECT status, (SELECT count(*)::int FROM attempts WHERE student_id = ${s.id}) AS n FROM students WHERE id = ${s.id}`,
    );
    expect(before).toEqual({ status: 'invited', n: 0 });

    const both = await Promise.all(
      [1, 2, 3].map(() => studentCall(h, 'POST', `/api/student/${s.token}/start`)),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    const ids = new Set(both.map((r) => r.json.attempt.id));
    expect(ids.size).toBe(1);
    const first = both.find((r) => r.status === 201)!.json;
    expect(first.message).toBe('Assessment started. Good luck!');
    const started = Date.parse(first.attempt.startedAt);
    expect(Date.parse(first.attempt.deadlineAt) - started).toBe(30 * 60_000);
    expect(Math.abs(Date.parse(first.serverNow) - Date.now())).toBeLessThan(5_000);
    const [after] = await h.database.execute<{ status: string; n: number }>(
      sql`SELECT status, (SELECT count(*)::int FROM attempts WHERE student_id = ${s.id}) AS n FROM students WHERE id = ${s.id}`,
    );
    expect(after).toEqual({ status: 'started', n: 1 });
    await eventually(
      () =>
        h.events.filter((e) => e.name === 'student.attempt.started.v1' && e.payload.studentId === s.id)
          .length === 1,
      'one started event',
    );
  });

  test('when two Starts both read that no attempt is in progress, then one writes it and the other answers with it', async () => {
    // Both read the standing, then wait to write (the outbox held locked): the second write finds the attempt
    // number taken, reads again and returns the attempt in progress, where a lock per student used to queue them.
    const s = await inviteStudent(h);
    let starts: Array<ReturnType<typeof studentCall>> = [];
    await h.database.transaction(async (tx) => {
      await tx.execute(sql`LOCK TABLE outbox IN SHARE MODE`);
      starts = [1, 2].map(() => studentCall(h, 'POST', `/api/student/${s.token}/start`));
      await eventually(async () => {
        const [row] = await h.database.execute<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'outbox'::regclass AND NOT granted`,
        );
        return row!.n >= 2;
      }, 'both starts waiting to write');
    });
    const both = await Promise.all(starts);
    expect(both.map((r) => r.status).sort()).toEqual([200, 201]);
    expect(new Set(both.map((r) => r.json.attempt.id)).size).toBe(1);
    const [row] = await h.database.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM attempts WHERE student_id = ${s.id}`,
    );
    expect(row!.n).toBe(1);
    await eventually(
      () =>
        h.events.filter((e) => e.name === 'student.attempt.started.v1' && e.payload.studentId === s.id)
          .length === 1,
      'one started event',
    );
  });

  test('when autosaves arrive out of order, then the newest sequence wins, and a reload resumes with the answers and the deadline', async () => {
    const s = await inviteStudent(h, { extraTimePercent: 50 });
    const { json } = await studentCall(h, 'POST', `/api/student/${s.token}/start`);
    const attemptId = json.attempt.id as string;
    expect(Date.parse(json.attempt.deadlineAt) - Date.parse(json.attempt.startedAt)).toBe(45 * 60_000);
    const save = (seq: number, answers: Array<{ questionId: string; answer: string }>) =>
      studentCall(h, 'PUT', `/api/student/${s.token}/answers`, { attemptId, seq, answers });
    const newer = await save(5, [
      { questionId: 'q1', answer: 'yes' },
      { questionId: 'q2', answer: 'opt-a' },
    ]);
    expect(newer.status).toBe(200);
    expect(newer.json.seq).toBe(5);
    const older = await save(3, [{ questionId: 'q1', answer: 'no' }]);
    expect(older.status).toBe(200);
    expect(older.json.seq).toBe(5);
    expect(typeof older.json.serverNow).toBe('string');

    const resumed = await studentCall(h, 'GET', `/api/student/${s.token}/assessment`);
    expect(resumed.json.attempt).toMatchObject({
      id: attemptId,
      attemptNumber: 1,
      seq: 5,
      deadlineAt: json.attempt.deadlineAt,
      answers: [
        { questionId: 'q1', answer: 'yes' },
        { questionId: 'q2', answer: 'opt-a' },
      ],
      files: [],
    });
    const again = await studentCall(h, 'POST', `/api/student/${s.token}/start`);
    expect(again.status).toBe(200);
    expect(again.json.attempt.answers).toEqual(resumed.json.attempt.answers);
  });

  test('when any student route answers, then the answer key is nowhere in it', async () => {
    const s = await inviteStudent(h);
    const bodies: unknown[] = [];
    bodies.push((await studentCall(h, 'GET', `/api/student/${s.token}`)).json);
    const page = (await studentCall(h, 'GET', `/api/student/${s.token}/assessment`)).json;
    bodies.push(page);
    const start = (await studentCall(h, 'POST', `/api/student/${s.token}/start`)).json;
    bodies.push(start);
    bodies.push(
      (
        await studentCall(h, 'PUT', `/api/student/${s.token}/answers`, {
          attemptId: start.attempt.id,
          seq: 1,
          answers: [{ questionId: 'q2', answer: 'opt-a' }],
        })
      ).json,
    );
    bodies.push((await studentCall(h, 'GET', `/api/student/${s.token}/assessment`)).json);
    bodies.push((await studentCall(h, 'GET', `/api/student/${s.token}/results`)).json);
    const { keys, questions } = scan(bodies);
    for (const forbidden of ['correctAnswer', 'correct_answer', 'answerKey', 'isCorrect']) {
      expect(keys.has(forbidden)).toBe(false);
    }
    expect(questions.length).toBeGreaterThanOrEqual(6);
    for (const q of questions) {
      expect(
        Object.keys(q)
          .filter((k) => k !== 'downloadableFile')
          .sort(),
      ).toEqual(QUESTION_FIELDS);
      // The key of the multiple-choice question shows up only as one of its options, never beside the question.
      const own = Object.entries(q).filter(([k]) => k !== 'options' && k !== 'id');
      expect(own.map(([, v]) => v)).not.toContain('opt-secret-key');
    }
    expect(page.assessment.questions).toEqual([]);
    const file = start.assessment.questions.find((q: { id: string }) => q.id === 'q3');
    expect(file.downloadableFile).toEqual({
      originalName: 'Template.docx',
      filename: 'seed-template.docx',
      size: 1234,
      mimetype: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      url: '/api/assessment/files/seed-template.docx',
    });
    expect(start.assessment.questions.find((q: { id: string }) => q.id === 'q1').options).toEqual([]);
  });

  test('when hostile input arrives, then it is refused with a 4xx and nothing is kept', async () => {
    const s = await inviteStudent(h);
    const other = await inviteStudent(h);
    const mine = (await studentCall(h, 'POST', `/api/student/${s.token}/start`)).json.attempt.id as string;
    const theirs = (await studentCall(h, 'POST', `/api/student/${other.token}/start`)).json.attempt
      .id as string;
    const save = (body: unknown) => studentCall(h, 'PUT', `/api/student/${s.token}/answers`, body);
    const cases: Array<[unknown, number]> = [
      [{ attemptId: mine, seq: 1, answers: [{ questionId: 'q-foreign', answer: 'yes' }] }, 400],
      [{ attemptId: mine, seq: 1, answers: [{ questionId: 'q1', answer: 'maybe' }] }, 400],
      [{ attemptId: mine, seq: 1, answers: [{ questionId: 'q2', answer: 'opt-z' }] }, 400],
      [{ attemptId: mine, seq: 1, answers: [{ questionId: 'q1', answer: 'yes\u0007' }] }, 400],
      [{ attemptId: mine, seq: 1, answers: [{ questionId: 'q1\u0000', answer: 'yes' }] }, 400],
      [
        {
          attemptId: mine,
          seq: 1,
          answers: [
            { questionId: 'q1', answer: 'yes' },
            { questionId: 'q1', answer: 'no' },
          ],
        },
        400,
      ],
      [
        {
          attemptId: mine,
          seq: 1,
          answers: Array.from({ length: 5000 }, () => ({ questionId: 'q1', answer: 'yes' })),
        },
        400,
      ],
      [{ attemptId: mine, seq: -1, answers: [] }, 400],
      [{ attemptId: mine, seq: 'x', answers: [] }, 400],
      [{ attemptId: mine, seq: 1, answers: 'yes' }, 400],
      [{ attemptId: theirs, seq: 1, answers: [{ questionId: 'q1', answer: 'yes' }] }, 404],
      // Someone else's attempt answers 404 before the answers are judged, whatever they hold.
      [{ attemptId: theirs, seq: 1, answers: [{ questionId: 'q1', answer: 'maybe' }] }, 404],
      [{ attemptId: "x' OR 1=1 --", seq: 1, answers: [] }, 404],
    ];
    for (const [body, status] of cases) {
      const res = await save(body);
      expect([JSON.stringify(body).slice(0, 80), res.status]).toEqual([
        JSON.stringify(body).slice(0, 80),
        status,
      ]);
      expect(typeof res.json.message).toBe('string');
    }
    const [row] = await h.database.execute<{ seq: string; answers: unknown }>(
      sql`SELECT seq::text, answers FROM attempts WHERE id IN (${mine}, ${theirs}) ORDER BY seq DESC LIMIT 1`,
    );
    expect(row).toEqual({ seq: '0', answers: [] });
  });

  test('when a token is unknown, expired or deleted, then every student route answers the same 404', async () => {
    const expired = await inviteStudent(h);
    await h.database.execute(
      sql`UPDATE students SET expires_at = now() - interval '1 minute' WHERE id = ${expired.id}`,
    );
    const deleted = await inviteStudent(h);
    await h.call('DELETE', `/api/admin/students/${deleted.id}`);
    const body = { attemptId: '00000000-0000-4000-8000-000000000000', seq: 1, answers: [] };
    for (const token of ['no-such-token', expired.token, deleted.token, 'x'.repeat(300)]) {
      const calls = [
        await studentCall(h, 'GET', `/api/student/${token}/assessment`),
        await studentCall(h, 'POST', `/api/student/${token}/start`),
        await studentCall(h, 'PUT', `/api/student/${token}/answers`, body),
        await studentCall(h, 'POST', `/api/student/${token}/submit`, { answers: [] }),
        await studentCall(h, 'GET', `/api/student/${token}/results`),
        await studentCall(h, 'DELETE', `/api/student/${token}/files/q3`),
      ];
      const form = new FormData();
      form.append('attemptId', body.attemptId);
      form.append('questionId', 'q3');
      form.append('file', new Blob(['hello']), 'a.txt');
      const upload = await fetch(`${h.url}/api/student/${token}/files`, { method: 'POST', body: form });
      calls.push({ status: upload.status, json: (await upload.json()) as Record<string, unknown> });
      for (const c of calls) {
        expect(c).toEqual({
          status: 404,
          json: { message: 'Invalid or expired invitation link', code: 'not_found' },
        });
      }
    }
  });
});

test('when a new version is published during an attempt, then that student keeps the version they started and a new student gets the new one', async () => {
  const h = await startStudent('embedded');
  try {
    await publishVersion(h, { title: 'First' });
    const taking = await inviteStudent(h);
    const attempt = (await studentCall(h, 'POST', `/api/student/${taking.token}/start`)).json.attempt;
    await publishVersion(h, {
      version: 2,
      title: 'Second',
      questions: [
        { id: 'q9', type: 1, question: 'New?', section: 1, points: 1, required: true, correctAnswer: 'no' },
      ],
    } as never);
    const fresh = await inviteStudent(h);
    await eventually(async () => {
      const r = await studentCall(h, 'GET', `/api/student/${fresh.token}/assessment`);
      return r.json.assessment?.title === 'Second';
    }, 'version 2 active');
    const resumed = await studentCall(h, 'GET', `/api/student/${taking.token}/assessment`);
    expect(resumed.json.assessment.title).toBe('First');
    expect(resumed.json.attempt.id).toBe(attempt.id);
    // Autosave is checked against the version the attempt is pinned to.
    const save = (questionId: string) =>
      studentCall(h, 'PUT', `/api/student/${taking.token}/answers`, {
        attemptId: attempt.id,
        seq: 1,
        answers: [{ questionId, answer: 'yes' }],
      });
    expect((await save('q9')).status).toBe(400);
    expect((await save('q1')).status).toBe(200);
  } finally {
    await h.close();
  }
});

test('when no version was published yet, then the assessment answers 404 no_assessment and start refuses', async () => {
  const h = await startStudent('embedded');
  try {
    const s = await inviteStudent(h);
    const page = await studentCall(h, 'GET', `/api/student/${s.token}/assessment`);
    expect(page).toEqual({ status: 404, json: { message: 'No assessment found', code: 'no_assessment' } });
    expect((await studentCall(h, 'POST', `/api/student/${s.token}/start`)).status).toBe(404);
    // A roll-back to an earlier version (published again, active, later) makes it the active one again.
    const v1 = versionEvent({ version: 1, title: 'First' });
    const v2 = versionEvent({ version: 2, title: 'Second' });
    await h.publish('assessment.version.published.v1', v1, new Date(Date.now() - 2000));
    await h.publish('assessment.version.published.v1', v2, new Date(Date.now() - 1000));
    await eventually(async () => {
      const r = await studentCall(h, 'GET', `/api/student/${s.token}/assessment`);
      return r.json.assessment?.title === 'Second';
    }, 'version 2 active');
    await h.publish('assessment.version.published.v1', v1);
    await eventually(async () => {
      const r = await studentCall(h, 'GET', `/api/student/${s.token}/assessment`);
      return r.json.assessment?.title === 'First';
    }, 'version 1 active again');
  } finally {
    await h.close();
  }
});
