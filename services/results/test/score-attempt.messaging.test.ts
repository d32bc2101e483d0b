import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { eventually } from '@readiness/testing';
import { attemptSubmitted } from '@readiness/testing/fixtures';
import { useResults, versionEvent } from './harness';

jest.setTimeout(60_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(['real', 'embedded'] as const)('scoring on %s adapters', (kind) => {
  const h = useResults(kind);

  const resultCount = async (attemptId: string) =>
    Number(
      (
        await h.database.execute<{ n: string }>(
          sql`SELECT count(*) AS n FROM results WHERE attempt_id = ${attemptId}`,
        )
      )[0]!.n,
    );

  test('when a submission arrives for a known version, then one result is recorded and its event carries every figure', async () => {
    const version = versionEvent();
    await h.publish('assessment.version.published.v1', version);
    await eventually(
      async () =>
        (await h.database.execute(sql`SELECT 1 FROM versions WHERE version_id = ${version.versionId}`))
          .length > 0,
      'the version copy',
    );
    const attemptId = randomUUID();
    const studentId = randomUUID();
    // The student's LMS launch travels on, for the integrations service to send the score back through it.
    const ltiLaunchId = randomUUID();
    await h.publish(
      'student.attempt.submitted.v1',
      attemptSubmitted({
        attemptId,
        studentId,
        versionId: version.versionId,
        ltiLaunchId,
        answers: [
          { questionId: 'q1', answer: 'yes' },
          { questionId: 'q2', answer: 'a' },
          { questionId: 'q3', answer: 'file_uploaded', file: true },
        ],
      }),
    );
    const event = await eventually(
      () => h.recorded().find((e) => e.payload.attemptId === attemptId) ?? false,
      'the recorded event',
    );
    expect(event.payload).toMatchObject({
      studentId,
      name: 'Ada Lovelace',
      email: 'ada@example.edu',
      score: 4,
      totalPoints: 6,
      percentage: 67,
      passed: false,
      canRetake: true,
      attemptNumber: 1,
      versionId: version.versionId,
      version: 1,
      passingScore: 70,
      assessmentTitle: 'Readiness check',
      ltiLaunchId,
    });
    expect(event.payload.assessmentCode).toMatch(/^RDY-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
    expect(
      event.payload.sections.map((s) => [
        s.sectionId,
        s.score,
        s.totalPoints,
        s.correct,
        s.questions,
        s.percentage,
      ]),
    ).toEqual([
      [1, 1, 1, 1, 1, 100],
      [2, 3, 5, 1, 2, 60],
    ]);
    expect(event.payload.answers.map((a) => [a.questionId, a.isCorrect, a.points, a.maxPoints])).toEqual([
      ['q1', true, 1, 1],
      ['q2', false, 0, 2],
      ['q3', true, 3, 3],
    ]);
    expect(await resultCount(attemptId)).toBe(1);
  });

  test('when the same submission is delivered three times, and once more under another event id, then one result and one recorded event', async () => {
    const version = versionEvent();
    await h.publish('assessment.version.published.v1', version);
    const attemptId = randomUUID();
    const submission = attemptSubmitted({
      attemptId,
      versionId: version.versionId,
      answers: [{ questionId: 'q1', answer: 'yes' }],
    });
    const first = await h.publish('student.attempt.submitted.v1', submission);
    await h.republish(first);
    await h.republish(first);
    await h.publish('student.attempt.submitted.v1', submission);
    await eventually(() => h.recorded().some((e) => e.payload.attemptId === attemptId), 'the recorded event');
    await sleep(500);
    expect(h.recorded().filter((e) => e.payload.attemptId === attemptId)).toHaveLength(1);
    expect(await resultCount(attemptId)).toBe(1);
  });

  test('when a submission arrives before its version, then it waits past the usual attempts and is scored once the version comes', async () => {
    const version = versionEvent({ passingScore: 50 });
    const attemptId = randomUUID();
    await h.publish(
      'student.attempt.submitted.v1',
      attemptSubmitted({
        attemptId,
        versionId: version.versionId,
        answers: [
          { questionId: 'q2', answer: 'b' },
          { questionId: 'q3', answer: 'file_uploaded', file: true },
        ],
      }),
    );
    // Longer than the bus's five attempts at 100 ms and 200 ms.
    await sleep(1_500);
    expect(await resultCount(attemptId)).toBe(0);
    await h.publish('assessment.version.published.v1', version);
    const event = await eventually(
      () => h.recorded().find((e) => e.payload.attemptId === attemptId) ?? false,
      'the recorded event',
    );
    expect(event.payload).toMatchObject({
      score: 5,
      totalPoints: 6,
      percentage: 83,
      passed: true,
      canRetake: false,
    });
  });
});
