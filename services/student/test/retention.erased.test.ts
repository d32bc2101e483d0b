import { eventually } from '@readiness/testing';
import { sql } from 'drizzle-orm';
import { adminToken, inviteStudent, outboxCount, startAttempt, useStudent, type JsonBody } from './harness';

jest.setTimeout(60_000);

// The job runs every 100 ms on every replica; retention is off until a test switches it on.
const JOB = { RETENTION_JOB_INTERVAL_MS: 100 };

// On the memory bus: the database, the outbox and the locks are the subject, not the broker.
const h = useStudent('embedded', { config: JOB });

const SUPER = adminToken(undefined, { role: 'super_admin' });
const call = (method: string, path: string, body?: unknown, token = SUPER) =>
  h.call(method, `/api/admin/students/retention${path}`, { body, token });
const answer = async (res: Response) => ({ status: res.status, json: (await res.json()) as JsonBody });
const dryRun = async (months: number) => answer(await call('GET', `/dry-run?months=${months}`));
const put = async (body: unknown, token = SUPER) => answer(await call('PUT', '', body, token));
const setting = async () => (await answer(await call('GET', ''))).json;

/** Makes the student's every activity (invitation, reminder, attempts) `months` months and a day old. */
async function ageStudent(id: string, months: number): Promise<void> {
  const age = sql`make_interval(months => ${months}, days => 1)`;
  await h.database.execute(
    sql`UPDATE students SET invited_at = now() - ${age}, last_reminded_at = NULL WHERE id = ${id}`,
  );
  await h.database.execute(
    sql`UPDATE attempts SET started_at = now() - ${age}, saved_at = NULL,
          submitted_at = CASE WHEN status = 'in_progress' THEN NULL ELSE now() - ${age} END
        WHERE student_id = ${id}`,
  );
}

const exists = async (id: string) =>
  (await h.database.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM students WHERE id = ${id}`))[0]!
    .n === 1;
const deletedEvents = (id: string) =>
  h.eventsNamed('student.student.deleted.v1').filter((e) => e.payload.studentId === id);
const erasureAudits = async (id: string) =>
  h.database.execute<{ actor_id: string; details: JsonBody }>(
    sql`SELECT actor_id, details FROM student_audit WHERE action = 'student.deleted' AND student_id = ${id}`,
  );

test('when a super admin has saved nothing, then retention is off and other administrators are refused (403), and a bad value is refused (400) with a clear message, changing nothing', async () => {
  expect(await setting()).toEqual({ enabled: false, months: 24, updatedAt: null, updatedBy: null });

  const admin = adminToken();
  expect((await call('GET', '', undefined, admin)).status).toBe(403);
  expect((await call('GET', '/dry-run?months=12', undefined, admin)).status).toBe(403);
  expect((await put({ enabled: false, months: 12 }, admin)).status).toBe(403);

  for (const [body, message] of [
    [{ enabled: true, months: 0, expectedCount: 0 }, 'Months must be a whole number from 1 to 120'],
    [{ enabled: true, months: 121, expectedCount: 0 }, 'Months must be a whole number from 1 to 120'],
    [{ enabled: true, months: 1.5, expectedCount: 0 }, 'Months must be a whole number from 1 to 120'],
    [{ enabled: 'yes', months: 12 }, 'enabled must be true or false'],
    [{ enabled: true, months: 12 }, 'Run the dry run first'],
  ] as const) {
    const refused = await put(body);
    expect([refused.status, refused.json.message]).toEqual([400, expect.stringContaining(message)]);
  }
  expect((await dryRun(0)).status).toBe(400);
  expect(await setting()).toMatchObject({ enabled: false, updatedAt: null });
  const [audits] = await h.database.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM student_audit WHERE action = 'student.retention-settings-changed'`,
  );
  expect(audits!.n).toBe(0);
});

test('when the dry run counts N students and more become due before the confirmation, then switching on is refused (409) until it is run again; an old student is then erased through the erasure path, a recent one and one with an attempt in progress are kept', async () => {
  // Due after 60 months: nobody else in this file is that old.
  const old = await startAttempt(h, 'Old');
  await h.database.execute(sql`UPDATE attempts SET status = 'submitted' WHERE id = ${old.attemptId}`);
  await ageStudent(old.id, 60);
  const recent = await inviteStudent(h);
  const running = await startAttempt(h, 'Running');
  await ageStudent(running.id, 60);

  const first = await dryRun(60);
  expect(first.status).toBe(200);
  expect(first.json).toMatchObject({ months: 60, count: 1 });
  expect(Date.parse(first.json.oldestActivityAt as string)).toBeLessThan(
    Date.parse(first.json.cutoff as string),
  );

  const meanwhile = await inviteStudent(h);
  await ageStudent(meanwhile.id, 61);
  const grew = await put({ enabled: true, months: 60, expectedCount: first.json.count });
  expect([grew.status, grew.json.code]).toEqual([409, 'retention_count_changed']);
  expect(grew.json.message).toContain('2 students would be erased now, more than the 1 you confirmed');
  expect((await setting()).enabled).toBe(false);
  expect(await exists(old.id)).toBe(true);

  const again = await dryRun(60);
  expect(again.json.count).toBe(2);
  const on = await put({ enabled: true, months: 60, expectedCount: 2 });
  expect(on.status).toBe(200);
  expect(on.json).toMatchObject({ enabled: true, months: 60 });
  expect(on.json.updatedAt).not.toBeNull();

  await eventually(async () => !(await exists(old.id)) && !(await exists(meanwhile.id)), 'the erasures');
  await eventually(async () => deletedEvents(old.id).length === 1, 'the deletion event on the bus');
  expect(deletedEvents(old.id)[0]!.payload).toMatchObject({ actorId: 'system', reason: 'retention' });
  expect(await erasureAudits(old.id)).toEqual([{ actor_id: 'system', details: { reason: 'retention' } }]);
  expect([await exists(recent.id), await exists(running.id)]).toEqual([true, true]);

  const [changed] = await h.database.execute<{ actor_id: string; details: JsonBody }>(
    sql`SELECT actor_id, details FROM student_audit WHERE action = 'student.retention-settings-changed'
        ORDER BY id DESC LIMIT 1`,
  );
  expect(changed!.details).toEqual({
    enabled: true,
    months: 60,
    previous: { enabled: false, months: 24 },
    confirmedCount: 2,
  });

  // Lengthening N or switching off needs no count; shortening it does.
  expect((await put({ enabled: true, months: 80 })).status).toBe(200);
  expect((await put({ enabled: true, months: 70 })).status).toBe(400);
  expect((await put({ enabled: false, months: 70 })).json).toMatchObject({ enabled: false, months: 70 });
});

test('when two more replicas run the job at once over many due students, then each is erased exactly once', async () => {
  await put({ enabled: false, months: 100 });
  await h.startReplica(JOB);
  await h.startReplica(JOB);
  const due = await Promise.all(Array.from({ length: 30 }, () => inviteStudent(h)));
  const ids = due.map((s) => s.id);
  const erasureEvents = () => outboxCount(h, 'student.student.deleted.v1');
  const earlier = await erasureEvents();
  await h.database.execute(
    sql`UPDATE students SET invited_at = now() - interval '101 months' WHERE id IN ${ids}`,
  );
  const { count } = (await dryRun(100)).json as { count: number };
  expect(count).toBe(30);
  expect((await put({ enabled: true, months: 100, expectedCount: count })).status).toBe(200);

  const remaining = async () =>
    (
      await h.database.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM students WHERE id IN ${ids}`)
    )[0]!.n;
  await eventually(async () => (await remaining()) === 0, 'every due student erased', 20_000);
  // Several more passes of every replica: nobody is erased twice.
  await new Promise((r) => setTimeout(r, 500));
  // One event and one audit row each (the outbox empties a sent event's payload: counted by name).
  expect(await erasureEvents()).toBe(earlier + 30);
  const audits = await h.database.execute<{ student_id: string; n: number }>(
    sql`SELECT student_id, count(*)::int AS n FROM student_audit
        WHERE action = 'student.deleted' AND student_id IN ${ids} GROUP BY student_id`,
  );
  expect(audits.map((r) => r.n)).toEqual(ids.map(() => 1));
});
