import { sql } from 'drizzle-orm';
import { eventually } from '@readiness/testing';
import { inviteStudent, studentCall, useStudent } from './harness';

jest.setTimeout(60_000);

const JOB = { DEADLINE_JOB_INTERVAL_MS: 100 };

const h = useStudent('embedded', { config: JOB });

test('when attempts pass their deadline and grace with no submit, then two replicas finalise each exactly once from the last autosave before the deadline', async () => {
  await h.startReplica(JOB);
  await h.startReplica(JOB);
  const attempts: Array<{ id: string; token: string; attemptId: string }> = [];
  for (let i = 0; i < 30; i++) {
    const s = await inviteStudent(h);
    const { json } = await studentCall(h, 'POST', `/api/student/${s.token}/start`);
    attempts.push({ ...s, attemptId: json.attempt.id as string });
    await studentCall(h, 'PUT', `/api/student/${s.token}/answers`, {
      attemptId: json.attempt.id,
      seq: 1,
      answers: [{ questionId: 'q1', answer: i % 2 ? 'yes' : 'no' }],
    });
  }
  // One more autosave of the first student after the deadline (within the grace): it does not count.
  await h.database.execute(
    sql`UPDATE attempts SET deadline_at = now() - interval '5 seconds' WHERE id = ${attempts[0]!.attemptId}`,
  );
  expect(
    (
      await studentCall(h, 'PUT', `/api/student/${attempts[0]!.token}/answers`, {
        attemptId: attempts[0]!.attemptId,
        seq: 2,
        answers: [{ questionId: 'q1', answer: 'yes' }],
      })
    ).status,
  ).toBe(200);
  const ids = attempts.map((a) => a.attemptId);
  await h.database.execute(
    sql`UPDATE attempts SET deadline_at = now() - interval '31 seconds' WHERE id IN ${ids}`,
  );

  const submitted = async () =>
    (await h.database.execute(sql`SELECT id FROM outbox WHERE name = 'student.attempt.submitted.v1'`)).length;
  await eventually(async () => (await submitted()) === 30, 'every attempt finalised', 20_000);
  await new Promise((r) => setTimeout(r, 500));
  const [counts] = await h.database.execute<{ events: number; finalised: number }>(
    sql`SELECT (SELECT count(*)::int FROM outbox WHERE name = 'student.attempt.submitted.v1') AS events,
               (SELECT count(*)::int FROM attempts WHERE status = 'submitted' AND finalised_by = 'deadline'
                  AND graded_from_autosave) AS finalised`,
  );
  expect(counts).toEqual({ events: 30, finalised: 30 });

  // The answers that count are the autosave made before the deadline, not the one after it.
  const [first] = await h.database.execute<{ answers: unknown; finalised_by: string }>(
    sql`SELECT answers, finalised_by FROM attempts WHERE id = ${ids[0]}`,
  );
  expect(first).toEqual({ answers: [{ questionId: 'q1', answer: 'no' }], finalised_by: 'deadline' });
  const page = await studentCall(h, 'GET', `/api/student/${attempts[0]!.token}/assessment`);
  expect(page.json).toMatchObject({ attempt: null, awaitingResult: true });
});
