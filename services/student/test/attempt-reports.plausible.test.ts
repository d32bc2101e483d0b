import { sql } from 'drizzle-orm';
import { timelineFacts } from '@readiness/contracts';
import { eventually } from '@readiness/testing';
import { startAttempt, studentCall, useStudent, yesNoBank, type JsonBody } from './harness';

jest.setTimeout(60_000);

/** Eight yes/no questions, four drawn for each attempt: every attempt leaves four off its paper. */
const BANK = yesNoBank(8);

const h = useStudent('embedded', {
  config: { SUBMIT_RESULT_WAIT_MS: 0 },
  version: {
    timeLimitMinutes: 30,
    sections: [{ id: 1, title: 'Bank', description: '', draw: 4 }],
    questions: BANK,
  } as never,
});

async function started() {
  const s = await startAttempt(h, 'Plausible');
  const given = s.attempt.paper.questionIds as string[];
  return { ...s, given, notGiven: BANK.map((q) => q.id).filter((id) => !given.includes(id)) };
}

const autosave = (token: string, body: unknown) =>
  studentCall(h, 'PUT', `/api/student/${token}/answers`, body);

describe('durations the page reports', () => {
  test('when the page reports a period longer than the attempt, then the timeline keeps it as long as the attempt', async () => {
    const s = await started();
    const now = new Date().toISOString();
    const report = await studentCall(h, 'POST', `/api/student/${s.token}/activity`, {
      attemptId: s.attemptId,
      deviceId: 'device-plausible-1',
      entries: [
        { kind: 'page_hidden', at: now, seconds: 86_400 },
        { kind: 'offline', at: now, seconds: 1801 },
        { kind: 'offline', at: now, seconds: 1800 },
        { kind: 'page_hidden', at: now, seconds: 45 },
      ],
    });
    expect(report.status).toBe(204);
    // Time added later makes the attempt longer, and a later report may be as long as that.
    expect(
      (await h.call('POST', `/api/admin/live/${s.attemptId}/extend`, { body: { minutes: 10 } })).status,
    ).toBe(200);
    await studentCall(h, 'POST', `/api/student/${s.token}/activity`, {
      attemptId: s.attemptId,
      deviceId: 'device-plausible-1',
      entries: [{ kind: 'offline', at: now, seconds: 86_400 }],
    });
    await studentCall(h, 'POST', `/api/student/${s.token}/submit`, { attemptId: s.attemptId, answers: [] });

    await eventually(
      () => h.eventsNamed('student.attempt.submitted.v1').some((e) => e.payload.attemptId === s.attemptId),
      'the submitted event',
    );
    const event = h
      .eventsNamed('student.attempt.submitted.v1')
      .find((e) => e.payload.attemptId === s.attemptId)!;
    const periods = timelineFacts(event.payload.timeline)
      .filter((f) => f.kind === 'page_hidden' || f.kind === 'offline')
      .map((f) => [f.kind, f.seconds]);
    expect(periods).toEqual([
      ['page_hidden', 1800],
      ['offline', 1800],
      ['offline', 1800],
      ['page_hidden', 45],
      ['offline', 2400],
    ]);
  });
});

describe('autosave takes only the questions the attempt was given', () => {
  test('when an autosave answers a question of the version that is not on the attempt, then it answers 400 and the saved answers stay as they were', async () => {
    const s = await started();
    const kept = [{ questionId: s.given[0]!, answer: 'yes' }];
    expect((await autosave(s.token, { attemptId: s.attemptId, seq: 1, answers: kept })).status).toBe(200);

    for (const answers of [
      [{ questionId: s.notGiven[0]!, answer: 'yes' }],
      [
        { questionId: s.given[1]!, answer: 'no' },
        { questionId: s.notGiven[1]!, answer: 'no' },
      ],
    ]) {
      const refused = await autosave(s.token, { attemptId: s.attemptId, seq: 2, answers });
      expect(refused.status).toBe(400);
      expect(refused.json).toEqual({
        code: 'question_not_given',
        message: `Question ${answers[answers.length - 1]!.questionId} is not one of the questions this attempt was given`,
      });
    }
    const page = await studentCall(h, 'GET', `/api/student/${s.token}/assessment`);
    expect(page.json.attempt).toMatchObject({ seq: 1, answers: kept });
    const [saves] = await h.database.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM attempt_timeline WHERE attempt_id = ${s.attemptId} AND kind = 'saved'`,
    );
    expect(saves!.n).toBe(1);
  });

  test('when the first autosave of an attempt this replica never saw answers a question not given, then it is refused too', async () => {
    const s = await started();
    // Another replica started it: a save here checks it against the attempt, not only its version. (Last in the
    // file: a replica on the same pool takes the outbox hand-off over, and after it stops events wait for a claim.)
    const replica = await h.startReplica({});
    try {
      const res = await fetch(`${replica.url}/api/student/${s.token}/answers`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          attemptId: s.attemptId,
          seq: 1,
          answers: [{ questionId: s.notGiven[0]!, answer: 'yes' }],
        }),
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as JsonBody).code).toBe('question_not_given');
    } finally {
      await replica.stop();
    }
    const page = await studentCall(h, 'GET', `/api/student/${s.token}/assessment`);
    expect(page.json.attempt).toMatchObject({ seq: 0, answers: [] });
  });
});
