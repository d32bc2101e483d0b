import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { eventually } from '@readiness/testing';
import {
  attemptStarted,
  attemptSubmitted,
  studentDeleted,
  studentInvited,
} from '@readiness/testing/fixtures';
import { useResults, versionEvent } from './harness';

jest.setTimeout(60_000);

// On the memory bus only: the bus is not the subject here; both buses pass one contract suite (kit/src/bus/test).
describe('erasing a student', () => {
  const version = versionEvent();
  const h = useResults('embedded', { versions: [version] });

  const count = async (query: ReturnType<typeof sql>) =>
    Number((await h.database.execute<{ n: string }>(query))[0]!.n);

  test("when a student is deleted, then their results and figures are erased, nobody else's, and late events about them recreate nothing", async () => {
    const gone = { studentId: randomUUID(), name: 'Gone Student', email: 'gone@example.edu' };
    const kept = { studentId: randomUUID(), name: 'Kept Student', email: 'kept@example.edu' };
    for (const s of [gone, kept]) await h.publish('student.student.invited.v1', studentInvited(s));
    const first = await h.submit({ ...gone, versionId: version.versionId, answers: [] });
    await h.submit({
      ...gone,
      versionId: version.versionId,
      attemptNumber: 2,
      answers: [{ questionId: 'q1', answer: 'yes' }],
    });
    const other = await h.submit({ ...kept, versionId: version.versionId, answers: [] });

    await h.publish('student.student.deleted.v1', studentDeleted(gone.studentId));
    await eventually(
      async () =>
        (await count(sql`SELECT count(*) AS n FROM results WHERE student_id = ${gone.studentId}`)) === 0,
      'the erasure',
    );
    expect(await count(sql`SELECT count(*) AS n FROM students WHERE student_id = ${gone.studentId}`)).toBe(0);
    expect((await h.call('GET', `/api/admin/results/${first.resultId}`)).status).toBe(404);
    expect((await h.call('GET', `/api/admin/results/${other.resultId}`)).status).toBe(200);
    const dashboard = (await (await h.call('GET', '/api/admin/dashboard')).json()) as {
      stats: { totalStudents: number; completedAssessments: number };
    };
    expect(dashboard.stats).toMatchObject({ totalStudents: 1, completedAssessments: 1 });
    const search = (await (await h.call('GET', '/api/admin/results?search=gone')).json()) as {
      results: unknown[];
    };
    expect(search.results).toEqual([]);

    // Events about the student that were still on their way change nothing.
    const lateAttempt = randomUUID();
    await h.publish('student.student.invited.v1', studentInvited(gone));
    await h.publish(
      'student.attempt.started.v1',
      attemptStarted({ studentId: gone.studentId, attemptNumber: 3 }),
    );
    await h.publish(
      'student.attempt.submitted.v1',
      attemptSubmitted({ ...gone, attemptId: lateAttempt, versionId: version.versionId, answers: [] }),
    );
    const marker = await h.submit({ ...kept, versionId: version.versionId, attemptNumber: 2, answers: [] });
    expect(marker.studentId).toBe(kept.studentId);
    await new Promise((r) => setTimeout(r, 300));
    expect(await count(sql`SELECT count(*) AS n FROM students WHERE student_id = ${gone.studentId}`)).toBe(0);
    expect(await count(sql`SELECT count(*) AS n FROM results WHERE student_id = ${gone.studentId}`)).toBe(0);
    expect(h.recorded().some((e) => e.payload.attemptId === lateAttempt)).toBe(false);
  });
});
