import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { eventually } from '@readiness/testing';
import { resultEvent, startAttempt, studentCall, useStudent, type JsonBody } from './harness';

jest.setTimeout(90_000);

// On the memory bus only: the bus is not the subject here (see docs/testing.md); the events travel through it.
describe('when an administrator deletes a result', () => {
  const h = useStudent('embedded', { config: { SUBMIT_RESULT_WAIT_MS: 50, INVITE_TTL_DAYS: 30 } });

  /** The student as the Student Management list shows them. */
  const listed = async (name: string) => {
    const res = await h.call('GET', `/api/admin/students?search=${encodeURIComponent(name)}`);
    const json = (await res.json()) as { students: JsonBody[] };
    return json.students[0]!;
  };
  /** How many students a status filter of the list finds under this name. */
  const underFilter = async (name: string, status: string) => {
    const res = await h.call(
      'GET',
      `/api/admin/students?search=${encodeURIComponent(name)}&status=${status}`,
    );
    return ((await res.json()) as { students: unknown[] }).students.length;
  };

  /** Submits the attempt and records its result as the results service would; the result's id. */
  async function scored(s: { token: string; attemptId: string }, passed = false): Promise<string> {
    const res = await studentCall(h, 'POST', `/api/student/${s.token}/submit`, { answers: [] });
    expect([200, 202]).toContain(res.status);
    const submitted = await eventually(
      () =>
        h.eventsNamed('student.attempt.submitted.v1').find((e) => e.payload.attemptId === s.attemptId) ??
        false,
      'the submitted event',
    );
    const resultId = randomUUID();
    await h.publish(
      'results.result.recorded.v1',
      resultEvent(submitted!.payload, { resultId, passed, canRetake: !passed, score: 2, percentage: 33 }),
    );
    await eventually(async () => {
      const page = await studentCall(h, 'GET', `/api/student/${s.token}/assessment`);
      return page.json.previousAttempt !== null || page.json.alreadyCompleted === true;
    }, 'the result recorded');
    return resultId;
  }

  const deleted = (resultId: string, s: { id: string; attemptId: string }) =>
    h.publish('results.result.deleted.v1', {
      resultId,
      attemptId: s.attemptId,
      studentId: s.id,
      actorId: 'admin',
    } as never);

  test('when it was the student’s only result, then they are Invited again (not In Progress) and their link opens Start', async () => {
    const s = await startAttempt(h, 'Only');
    const resultId = await scored(s);
    await eventually(async () => (await listed(s.name)).status === 'completed', 'completed');

    await deleted(resultId, s);
    await eventually(async () => (await listed(s.name)).status === 'invited', 'invited again');
    expect(await underFilter(s.name, 'invited')).toBe(1);
    expect(await underFilter(s.name, 'started')).toBe(0);
    expect(await underFilter(s.name, 'completed')).toBe(0);
    expect((await listed(s.name)).expired).toBe(false);
    const page = await studentCall(h, 'GET', `/api/student/${s.token}/assessment`);
    expect(page.status).toBe(200);
    expect(page.json).toMatchObject({ alreadyCompleted: false, previousAttempt: null });

    // Start moves them on as it moves any invited student.
    expect((await studentCall(h, 'POST', `/api/student/${s.token}/start`)).status).toBe(201);
    expect((await listed(s.name)).status).toBe('started');
  });

  test('when their invitation window closed long ago, then the deletion leaves their link open for INVITE_TTL_DAYS, the Invited Date unchanged', async () => {
    const s = await startAttempt(h, 'Late');
    const resultId = await scored(s);
    await h.database.execute(
      sql`UPDATE students SET invited_at = now() - interval '90 days', expires_at = now() - interval '60 days'
          WHERE id = ${s.id}::uuid`,
    );
    const { createdAt, invitedAt } = await listed(s.name);

    await deleted(resultId, s);
    await eventually(async () => (await listed(s.name)).status === 'invited', 'invited again');
    const [row] = await h.database.execute<{ days: number; invited_days: number }>(
      sql`SELECT extract(epoch FROM expires_at - now()) / 86400 AS days,
                 extract(epoch FROM now() - invited_at) / 86400 AS invited_days
          FROM students WHERE id = ${s.id}::uuid`,
    );
    expect(Number(row!.days)).toBeGreaterThan(29.9);
    expect(Number(row!.days)).toBeLessThanOrEqual(30);
    expect(Math.round(Number(row!.invited_days))).toBe(90);
    expect(await listed(s.name)).toMatchObject({ createdAt, invitedAt, expired: false });
    expect((await studentCall(h, 'GET', `/api/student/${s.token}/assessment`)).status).toBe(200);
  });

  test('when the student has another attempt open, then they stay In Progress; with another result left, Completed', async () => {
    const retaking = await startAttempt(h, 'Retaking');
    const first = await scored(retaking);
    const again = await studentCall(h, 'POST', `/api/student/${retaking.token}/start`);
    expect(again.status).toBe(201);
    await deleted(first, retaking);
    await eventually(async () => {
      const page = await studentCall(h, 'GET', `/api/student/${retaking.token}/assessment`);
      return page.json.previousAttempt === null;
    }, 'the copy dropped');
    expect((await listed(retaking.name)).status).toBe('started');

    const twice = await startAttempt(h, 'Twice');
    const older = await scored(twice);
    const second = await studentCall(h, 'POST', `/api/student/${twice.token}/start`);
    await scored({ token: twice.token, attemptId: second.json.attempt.id as string });
    await deleted(older, twice);
    await eventually(async () => {
      const [n] = await h.database.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM results WHERE student_id = ${twice.id}::uuid`,
      );
      return n!.n === 1;
    }, 'one copy dropped');
    expect((await listed(twice.name)).status).toBe('completed');
  });

  test('when the deletion event comes again, or names a result there is no copy of, then nothing changes', async () => {
    const s = await startAttempt(h, 'Again');
    const resultId = await scored(s);
    await deleted(resultId, s);
    await eventually(async () => (await listed(s.name)).status === 'invited', 'invited again');
    expect((await studentCall(h, 'POST', `/api/student/${s.token}/start`)).status).toBe(201);
    await deleted(resultId, s);
    await deleted(randomUUID(), s);
    // A later event of the bus has been handled once these two have.
    const probe = await startAttempt(h, 'Probe');
    const probeResult = await scored(probe);
    await deleted(probeResult, probe);
    await eventually(async () => (await listed(probe.name)).status === 'invited', 'the probe handled');
    expect((await listed(s.name)).status).toBe('started');
  });
});
