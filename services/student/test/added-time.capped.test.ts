import { sql } from 'drizzle-orm';
import { eventually } from '@readiness/testing';
import { startAttempt, useStudent, type JsonBody } from './harness';

jest.setTimeout(60_000);

// The version's limit is 30 minutes; at 1.5 times it, administrators may add 45 minutes to an attempt in all.
const CAP_MINUTES = 45;
const CAP_MESSAGE = /at most 45 minutes can be added to an attempt \(1\.5 × its 30-minute time limit\)/i;

const h = useStudent('embedded', {
  config: { ADDED_TIME_MAX_MULTIPLE: 1.5, SUBMIT_RESULT_WAIT_MS: 0 },
  version: { timeLimitMinutes: 30 },
});

async function started() {
  const s = await startAttempt(h, 'Capped');
  return { ...s, deadlineAt: Date.parse(s.attempt.deadlineAt) };
}

const extend = async (attemptId: string, minutes: number) => {
  const res = await h.call('POST', `/api/admin/live/${attemptId}/extend`, { body: { minutes } });
  return { status: res.status, json: (await res.json()) as JsonBody };
};

/** What the attempt holds, and what was written for its extensions (audit rows, timeline rows, events). */
async function recorded(s: { id: string; attemptId: string }) {
  const [row] = await h.database.execute<{ deadline_at: Date; added_seconds: number }>(
    sql`SELECT deadline_at, added_seconds FROM attempts WHERE id = ${s.attemptId}`,
  );
  const [counts] = await h.database.execute<{ audited: number; noted: number }>(
    sql`SELECT
          (SELECT count(*)::int FROM student_audit WHERE action = 'attempt.extended' AND student_id = ${s.id}) AS audited,
          (SELECT count(*)::int FROM attempt_timeline WHERE attempt_id = ${s.attemptId} AND kind = 'extended') AS noted`,
  );
  return {
    deadlineAt: new Date(row!.deadline_at).getTime(),
    addedMinutes: row!.added_seconds / 60,
    audited: counts!.audited,
    noted: counts!.noted,
  };
}

describe('the most time an attempt can be given', () => {
  test('when 20 extensions of 5 minutes arrive at once, then they apply one after another and stop at the cap exactly', async () => {
    const s = await started();
    const answers = await Promise.all(Array.from({ length: 20 }, () => extend(s.attemptId, 5)));
    const granted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(granted).toHaveLength(CAP_MINUTES / 5);
    expect(refused).toHaveLength(20 - CAP_MINUTES / 5);
    for (const r of refused) {
      expect(r.status).toBe(409);
      expect(r.json.code).toBe('extension_limit');
      expect(r.json.message).toMatch(CAP_MESSAGE);
    }
    // Each granted extension saw the ones before it: the deadlines they answer are all different.
    const deadlines = granted
      .map((g) => Date.parse(g.json.attempt.deadlineAt as string))
      .sort((a, b) => a - b);
    expect(deadlines).toEqual(Array.from({ length: 9 }, (_, i) => s.deadlineAt + (i + 1) * 5 * 60_000));

    expect(await recorded(s)).toEqual({
      deadlineAt: s.deadlineAt + CAP_MINUTES * 60_000,
      addedMinutes: CAP_MINUTES,
      audited: 9,
      noted: 9,
    });
    const announced = () =>
      h.eventsNamed('student.attempt.adjusted.v1').filter((e) => e.payload.attemptId === s.attemptId).length;
    await eventually(() => announced() === 9, 'nine adjusted events');

    // At the cap, even one more minute is refused and says nothing is left.
    const more = await extend(s.attemptId, 1);
    expect(more.status).toBe(409);
    expect(more.json.message).toMatch(CAP_MESSAGE);
    expect(more.json.message).toMatch(/all 45 are added already/);
    expect((await recorded(s)).addedMinutes).toBe(CAP_MINUTES);
  });

  test('when one extension asks for more than is left, then it is refused whole with what is left, and what fits is granted', async () => {
    const s = await started();
    const tooMuch = await extend(s.attemptId, 46);
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.json.message).toMatch(CAP_MESSAGE);
    expect(await recorded(s)).toEqual({ deadlineAt: s.deadlineAt, addedMinutes: 0, audited: 0, noted: 0 });

    expect((await extend(s.attemptId, 40)).status).toBe(200);
    const over = await extend(s.attemptId, 6);
    expect(over.status).toBe(409);
    expect(over.json.message).toMatch(/40 are added already, so at most 5 more/);
    expect((await extend(s.attemptId, 5)).status).toBe(200);
    expect(await recorded(s)).toMatchObject({
      deadlineAt: s.deadlineAt + CAP_MINUTES * 60_000,
      addedMinutes: CAP_MINUTES,
      audited: 2,
    });
  });
});
