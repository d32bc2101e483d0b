import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { eventually } from '@readiness/testing';
import { attemptStarted, invitationResent, studentInvited } from '@readiness/testing/fixtures';
import {
  ALL_BUT_Q1,
  ALL_RIGHT,
  AT_THE_PASS_MARK,
  useResults,
  versionEvent,
  weightedVersion,
} from './harness';

jest.setTimeout(60_000);

interface DashboardJson {
  stats: {
    totalStudents: number;
    completedAssessments: number;
    passedAssessments: number;
    pendingInvites: number;
    passRate: number;
    inProgress: number;
  };
  recentResults: Array<{
    _id: string;
    student: { name: string; email: string };
    percentage: number;
    passed: boolean;
    completedAt: string;
  }>;
}

// On the memory bus only: the bus is not the subject here; both buses pass one contract suite (kit/src/bus/test).
describe('the dashboard', () => {
  const version = versionEvent();
  const h = useResults('embedded', { versions: [version] });

  const dashboard = async () => {
    const res = await h.call('GET', '/api/admin/dashboard');
    expect(res.status).toBe(200);
    return (await res.json()) as DashboardJson;
  };

  const known = async (studentId: string) =>
    eventually(
      async () =>
        (
          await h.database.execute(
            sql`SELECT 1 FROM students WHERE student_id = ${studentId} AND name IS NOT NULL`,
          )
        ).length > 0,
      'the student',
    );

  test('when nothing happened yet, then every figure is 0 and there are no recent results', async () => {
    expect(await dashboard()).toEqual({
      stats: {
        totalStudents: 0,
        completedAssessments: 0,
        passedAssessments: 0,
        pendingInvites: 0,
        passRate: 0,
        inProgress: 0,
      },
      recentResults: [],
    });
  });

  test('when students are invited, start, pass and fail, then the figures follow the student events and the results', async () => {
    const [waiting, working, passing, failing] = ['Ada', 'Grace', 'Emmy', 'Alan'].map((name) => ({
      studentId: randomUUID(),
      name,
      email: `${name.toLowerCase()}@example.edu`,
    }));
    for (const s of [waiting!, working!, passing!, failing!])
      await h.publish('student.student.invited.v1', studentInvited(s));
    await h.publish('student.invitation.resent.v1', invitationResent(waiting!));
    for (const s of [waiting!, working!, passing!, failing!]) await known(s.studentId);

    await h.publish('student.attempt.started.v1', attemptStarted({ studentId: working!.studentId }));
    await h.publish('student.attempt.started.v1', attemptStarted({ studentId: passing!.studentId }));
    await h.submit({
      ...passing!,
      versionId: version.versionId,
      submittedAt: new Date('2026-04-01T10:00:00Z'),
      answers: ALL_RIGHT,
    });
    // The failing student's start event is late: it arrives after the result and changes nothing.
    const failed = await h.submit({
      ...failing!,
      versionId: version.versionId,
      submittedAt: new Date('2026-04-01T11:00:00Z'),
      answers: [],
    });
    await h.publish('student.attempt.started.v1', attemptStarted({ studentId: failing!.studentId }));

    await eventually(async () => (await dashboard()).stats.inProgress === 1, 'the figures');
    const json = await dashboard();
    expect(json.stats).toEqual({
      totalStudents: 4,
      completedAssessments: 2,
      passedAssessments: 1,
      pendingInvites: 1,
      passRate: 50,
      inProgress: 1,
    });
    expect(json.recentResults).toEqual([
      {
        _id: failed.resultId,
        student: { name: 'Alan', email: 'alan@example.edu' },
        percentage: 0,
        passed: false,
        completedAt: '2026-04-01T11:00:00.000Z',
      },
      expect.objectContaining({
        student: { name: 'Emmy', email: 'emmy@example.edu' },
        percentage: 100,
        passed: true,
      }),
    ]);

    // A retake: the failing student starts attempt 2, which is in progress until it is scored.
    await h.publish(
      'student.attempt.started.v1',
      attemptStarted({ studentId: failing!.studentId, attemptNumber: 2 }),
    );
    await eventually(async () => (await dashboard()).stats.inProgress === 2, 'the retake in progress');
    await h.submit({
      ...failing!,
      versionId: version.versionId,
      attemptNumber: 2,
      answers: [{ questionId: 'q1', answer: 'yes' }],
    });
    await eventually(async () => (await dashboard()).stats.inProgress === 1, 'the retake scored');
    expect((await dashboard()).stats).toMatchObject({
      completedAssessments: 3,
      passedAssessments: 1,
      passRate: 33,
    });
  });

  test('when more than five results exist, then the five most recent are listed', async () => {
    for (let i = 0; i < 6; i++) {
      await h.submit({
        versionId: version.versionId,
        submittedAt: new Date(Date.UTC(2030, 5, 1, i)),
        answers: [],
      });
    }
    const json = await dashboard();
    expect(json.recentResults).toHaveLength(5);
    expect(json.recentResults.map((r) => r.completedAt)).toEqual(
      [5, 4, 3, 2, 1].map((i) => new Date(Date.UTC(2030, 5, 1, i)).toISOString()),
    );
  });

  test('when the recent results are at the pass mark of 70, then they read 69.5, 69.9 and 70 % (139 of 200, 1399 of 2000, 7 of 10)', async () => {
    for (const [i, { points }] of AT_THE_PASS_MARK.entries()) {
      const weighted = weightedVersion(points);
      await h.publish('assessment.version.published.v1', weighted);
      await h.submit({
        versionId: weighted.versionId,
        submittedAt: new Date(Date.UTC(2031, 0, 1, i)),
        answers: ALL_BUT_Q1,
      });
    }
    const json = await dashboard();
    expect(json.recentResults.slice(0, 3).map((r) => [r.percentage, r.passed])).toEqual(
      [...AT_THE_PASS_MARK].reverse().map((r) => [r.shown, r.passed]),
    );
  });
});
