import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { TimelineKind, timelineFacts } from '@readiness/contracts';
import { eventually } from '@readiness/testing';
import { adminToken, startAttempt, studentCall, useStudent } from './harness';

jest.setTimeout(60_000);

const h = useStudent('embedded', { config: { SUBMIT_RESULT_WAIT_MS: 0 } });

async function started() {
  const s = await startAttempt(h, 'Timeline');
  return { ...s, startedAt: s.attempt.startedAt as string };
}

const report = (token: string, body: unknown) =>
  studentCall(h, 'POST', `/api/student/${token}/activity`, body);
const DEVICE = 'device-aaaa-1111';

/** The timeline the attempt's submitted event carried. */
async function submittedTimeline(attemptId: string, waitMs?: number) {
  await eventually(
    () => h.eventsNamed('student.attempt.submitted.v1').some((e) => e.payload.attemptId === attemptId),
    'the submitted event',
    waitMs,
  );
  const event = h.eventsNamed('student.attempt.submitted.v1').find((e) => e.payload.attemptId === attemptId)!;
  return { raw: event.payload.timeline, facts: timelineFacts(event.payload.timeline) };
}

describe("an attempt's timeline", () => {
  test('the submitted event carries the start, what the page reported, saves merged, a second device, an extension and the end, in order', async () => {
    const s = await started();
    const soon = (ms: number) => new Date(Date.parse(s.startedAt) + ms).toISOString();
    expect((await report(s.token, { attemptId: s.attemptId, deviceId: DEVICE, entries: [] })).status).toBe(
      204,
    );
    expect(
      (
        await report(s.token, {
          attemptId: s.attemptId,
          deviceId: DEVICE,
          entries: [{ kind: 'section_reached', at: soon(10), sectionId: 1 }],
        })
      ).status,
    ).toBe(204);
    for (const seq of [1, 2, 3]) {
      const saved = await studentCall(h, 'PUT', `/api/student/${s.token}/answers`, {
        attemptId: s.attemptId,
        seq,
        answers: [{ questionId: 'q1', answer: seq % 2 ? 'yes' : 'no' }],
      });
      expect(saved.status).toBe(200);
    }
    const now = new Date().toISOString();
    expect(
      (
        await report(s.token, {
          attemptId: s.attemptId,
          deviceId: DEVICE,
          entries: [
            { kind: 'page_hidden', at: now, seconds: 45 },
            { kind: 'pasted', at: now, questionId: 'q3', chars: 120 },
            { kind: 'offline', at: now, seconds: 125 },
          ],
        })
      ).status,
    ).toBe(204);
    // The same attempt opened elsewhere: one second device, however often that device reports.
    for (let i = 0; i < 2; i++) {
      expect(
        (await report(s.token, { attemptId: s.attemptId, deviceId: 'phone-bbbb-2222', entries: [] })).status,
      ).toBe(204);
    }
    const actor = randomUUID();
    const extended = await h.call('POST', `/api/admin/live/${s.attemptId}/extend`, {
      body: { minutes: 15 },
      token: adminToken(actor),
    });
    expect(extended.status).toBe(200);
    await studentCall(h, 'PUT', `/api/student/${s.token}/answers`, {
      attemptId: s.attemptId,
      seq: 4,
      answers: [{ questionId: 'q1', answer: 'yes' }],
    });
    expect(
      (
        await studentCall(h, 'POST', `/api/student/${s.token}/submit`, {
          attemptId: s.attemptId,
          answers: [],
        })
      ).status,
    ).toBe(202);

    const { raw, facts } = await submittedTimeline(s.attemptId);
    expect(raw[0]!.kind).toBe(TimelineKind.STARTED);
    expect(facts.map((f) => f.kind)).toEqual([
      'started',
      'section_reached',
      'saved',
      'page_hidden',
      'pasted',
      'offline',
      'second_device',
      'extended',
      'saved',
      'submitted',
    ]);
    expect(facts[0]!.at).toBe(new Date(s.startedAt).toISOString());
    expect(facts[1]).toMatchObject({ sectionId: 1 });
    expect(facts[2]).toMatchObject({ count: 3, until: expect.any(String) });
    expect(facts[3]).toMatchObject({ seconds: 45 });
    expect(facts[4]).toMatchObject({ questionId: 'q3', count: 120 });
    expect(facts[5]).toMatchObject({ seconds: 125 });
    expect(facts[7]).toMatchObject({ minutes: 15, actorId: actor });
    expect(facts[8]).toMatchObject({ count: 1 });
    // Every time lies within the attempt, oldest first.
    const times = facts.map((f) => Date.parse(f.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  test('an attempt an administrator ends, or the deadline job ends, says so and who', async () => {
    const s = await started();
    const actor = randomUUID();
    expect(
      (await h.call('POST', `/api/admin/live/${s.attemptId}/end`, { token: adminToken(actor) })).status,
    ).toBe(200);
    const ended = (await submittedTimeline(s.attemptId)).facts;
    expect(ended.map((f) => f.kind)).toEqual(['started', 'ended']);
    expect(ended[1]).toMatchObject({ actorId: actor });

    const late = await started();
    await h.database.execute(
      sql`UPDATE attempts SET deadline_at = now() - interval '10 minutes' WHERE id = ${late.attemptId}`,
    );
    // The deadline job ends it.
    expect((await submittedTimeline(late.attemptId, 20_000)).facts.map((f) => f.kind)).toEqual([
      'started',
      'timed_out',
    ]);
  });

  test('times the page reports are kept within the attempt: never before its start, never in the future', async () => {
    const s = await started();
    await report(s.token, {
      attemptId: s.attemptId,
      deviceId: DEVICE,
      entries: [
        { kind: 'page_hidden', at: '2001-01-01T00:00:00Z', seconds: 5 },
        { kind: 'offline', at: '2999-01-01T00:00:00Z', seconds: 5 },
      ],
    });
    await studentCall(h, 'POST', `/api/student/${s.token}/submit`, { attemptId: s.attemptId, answers: [] });
    const facts = (await submittedTimeline(s.attemptId)).facts;
    const start = Date.parse(s.startedAt);
    const end = Date.parse(facts[facts.length - 1]!.at);
    for (const f of facts) {
      expect(Date.parse(f.at)).toBeGreaterThanOrEqual(start);
      expect(Date.parse(f.at)).toBeLessThanOrEqual(end);
    }
  });

  test('bad reports answer 400 and record nothing; another link, an unknown or a closed attempt are refused', async () => {
    const s = await started();
    const bad: unknown[] = [
      { attemptId: s.attemptId, entries: [] },
      { attemptId: s.attemptId, deviceId: 'short', entries: [] },
      { attemptId: s.attemptId, deviceId: 'evil\u0000device', entries: [] },
      {
        attemptId: s.attemptId,
        deviceId: DEVICE,
        entries: [{ kind: 'penalty', at: new Date().toISOString() }],
      },
      {
        attemptId: s.attemptId,
        deviceId: DEVICE,
        entries: [{ kind: 'page_hidden', at: 'yesterday', seconds: 1 }],
      },
      {
        attemptId: s.attemptId,
        deviceId: DEVICE,
        entries: [{ kind: 'page_hidden', at: new Date().toISOString(), seconds: -1 }],
      },
      {
        attemptId: s.attemptId,
        deviceId: DEVICE,
        entries: [{ kind: 'offline', at: new Date().toISOString(), seconds: 1e9 }],
      },
      {
        attemptId: s.attemptId,
        deviceId: DEVICE,
        entries: [{ kind: 'pasted', at: new Date().toISOString(), questionId: 'q1', chars: 0 }],
      },
      {
        attemptId: s.attemptId,
        deviceId: DEVICE,
        entries: Array.from({ length: 51 }, () => ({
          kind: 'page_hidden',
          at: new Date().toISOString(),
          seconds: 1,
        })),
      },
      // A section or question this assessment does not have.
      {
        attemptId: s.attemptId,
        deviceId: DEVICE,
        entries: [{ kind: 'section_reached', at: new Date().toISOString(), sectionId: 99 }],
      },
      {
        attemptId: s.attemptId,
        deviceId: DEVICE,
        entries: [{ kind: 'pasted', at: new Date().toISOString(), questionId: 'q-none', chars: 3 }],
      },
    ];
    for (const body of bad) expect((await report(s.token, body)).status).toBe(400);
    const [rows] = await h.database.execute<{ n: string; devices: string[] }>(
      sql`SELECT (SELECT count(*) FROM attempt_timeline WHERE attempt_id = a.id) AS n, a.devices
          FROM attempts a WHERE a.id = ${s.attemptId}`,
    );
    expect(rows).toEqual({ n: '0', devices: [] });

    const other = await started();
    const entries = [{ kind: 'page_hidden', at: new Date().toISOString(), seconds: 3 }];
    expect((await report(other.token, { attemptId: s.attemptId, deviceId: DEVICE, entries })).status).toBe(
      404,
    );
    expect((await report('not-a-token', { attemptId: s.attemptId, deviceId: DEVICE, entries })).status).toBe(
      404,
    );
    expect((await report(s.token, { attemptId: randomUUID(), deviceId: DEVICE, entries })).status).toBe(404);
    await studentCall(h, 'POST', `/api/student/${s.token}/submit`, { attemptId: s.attemptId, answers: [] });
    const closed = await report(s.token, { attemptId: s.attemptId, deviceId: DEVICE, entries });
    expect(closed.status).toBe(409);
    expect(closed.json.code).toBe('attempt_closed');
  });

  test('a flood of reports stops being recorded at the cap, and a burst of new devices is bounded', async () => {
    const s = await started();
    const entries = Array.from({ length: 50 }, () => ({
      kind: 'page_hidden',
      at: new Date().toISOString(),
      seconds: 1,
    }));
    await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        report(s.token, { attemptId: s.attemptId, deviceId: `device-burst-${i}`, entries }),
      ),
    );
    const [row] = await h.database.execute<{ hidden: string; seconds: string; devices: number }>(
      sql`SELECT count(*) FILTER (WHERE kind = 'page_hidden') AS hidden,
            count(*) FILTER (WHERE kind = 'second_device') AS seconds,
            (SELECT cardinality(devices) FROM attempts WHERE id = ${s.attemptId}) AS devices
          FROM attempt_timeline WHERE attempt_id = ${s.attemptId}`,
    );
    // 24 × 50 facts were sent at once: the cap (1,000) holds exactly, and so does the one of 20 devices.
    expect(Number(row!.hidden)).toBe(1000);
    expect(row!.devices).toBe(20);
    expect(Number(row!.seconds)).toBe(19);
  });
});
