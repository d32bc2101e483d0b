import { ReminderTrigger } from '@readiness/contracts';
import { createSecretBox, generateEventSecretsKey } from '@readiness/kit/outbox';
import { eventually } from '@readiness/testing';
import { sql } from 'drizzle-orm';
import { inviteStudent, outboxCount, studentCall, useStudent, type JsonBody } from './harness';

jest.setTimeout(60_000);

const key = generateEventSecretsKey();
const secrets = createSecretBox(key);
const JOB = { REMINDER_JOB_INTERVAL_MS: 100, EVENT_SECRETS_KEY: key };

// On the memory bus: the outbox and the database are the subject, not the broker.
const h = useStudent('embedded', { config: JOB });

const remind = async (id: string) => {
  const res = await h.call('POST', `/api/admin/students/${id}/remind`);
  return { status: res.status, json: (await res.json()) as JsonBody };
};
const remindersOf = (id: string) =>
  h.eventsNamed('student.reminder.requested.v1').filter((e) => e.payload.studentId === id);

test('when an admin sends a reminder now, then it is queued with the same link and expiry (202), the row counts it, and a second one today, or one to a student who started, is refused (409)', async () => {
  const s = await inviteStudent(h, { language: 'fr' });
  const before = (await (await h.call('GET', '/api/admin/students?limit=100')).json()) as JsonBody;
  const listed = (before.students as JsonBody[]).find((x) => x._id === s.id)!;
  expect(listed).toMatchObject({ reminderCount: 0, lastRemindedAt: null });

  const first = await remind(s.id);
  expect(first.status).toBe(202);
  expect(first.json.student).toMatchObject({
    reminderCount: 1,
    inviteToken: s.token,
    expiresAt: listed.expiresAt,
  });
  expect(Date.parse(first.json.student.lastRemindedAt as string)).toBeGreaterThan(Date.now() - 60_000);

  await eventually(async () => remindersOf(s.id).length === 1, 'the reminder event');
  const [event] = remindersOf(s.id);
  expect(event!.payload).toMatchObject({
    trigger: ReminderTrigger.ADMIN,
    reminderNumber: 1,
    language: 'fr',
    expiresAt: listed.expiresAt,
  });
  expect(event!.payload.actorId).not.toBe('');
  expect(secrets.open(event!.payload.sealedInvitationUrl)).toBe(
    `https://readiness.example.edu/assessment/${s.token}`,
  );

  const again = await remind(s.id);
  expect([again.status, again.json.code]).toEqual([409, 'reminded_today']);

  const started = await inviteStudent(h);
  expect((await studentCall(h, 'POST', `/api/student/${started.token}/start`)).status).toBe(201);
  const refused = await remind(started.id);
  expect([refused.status, refused.json.code]).toEqual([409, 'student_started']);
  expect((await remind('00000000-0000-4000-8000-000000000000')).status).toBe(404);

  const [audit] = await h.database.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM student_audit WHERE action = 'student.reminded' AND student_id = ${s.id}`,
  );
  expect(audit!.n).toBe(1);
});

test('when an admin reminds every student of a filter, then the dry run counts those who can be reminded and the send reminds exactly them', async () => {
  const tag = `bulk${Date.now()}`;
  const a = await inviteStudent(h, { name: `${tag} A` });
  const b = await inviteStudent(h, { name: `${tag} B` });
  const started = await inviteStudent(h, { name: `${tag} C` });
  await studentCall(h, 'POST', `/api/student/${started.token}/start`);
  expect((await remind(b.id)).status).toBe(202);

  const send = async (dryRun: boolean) => {
    const res = await h.call('POST', `/api/admin/students/remind${dryRun ? '?dryRun=true' : ''}`, {
      body: { search: tag, status: 'all' },
    });
    return [res.status, ((await res.json()) as JsonBody).count];
  };
  expect(await send(true)).toEqual([202, 1]);
  expect(remindersOf(a.id)).toHaveLength(0);
  expect(await send(false)).toEqual([202, 1]);
  await eventually(async () => remindersOf(a.id).length === 1, 'the reminder of A');
  expect(await send(true)).toEqual([202, 0]);
  expect(remindersOf(b.id)).toHaveLength(1);
  expect(remindersOf(started.id)).toHaveLength(0);
});

test('when students are owed a reminder and three replicas run the job at once, then each is reminded exactly once, and one who started is not', async () => {
  await h.startReplica(JOB);
  await h.startReplica(JOB);
  const owed = await Promise.all(Array.from({ length: 30 }, () => inviteStudent(h)));
  const started = await inviteStudent(h);
  await studentCall(h, 'POST', `/api/student/${started.token}/start`);
  const expiring = await inviteStudent(h);
  const ids = [...owed.map((s) => s.id), started.id];
  const counted = () => outboxCount(h, 'student.reminder.requested.v1');
  const earlier = await counted();
  await h.database.execute(
    sql`UPDATE students SET invited_at = now() - interval '3 days 1 minute' WHERE id IN ${ids}`,
  );
  await h.database.execute(
    sql`UPDATE students SET invited_at = now() - interval '1 day', expires_at = now() + interval '23 hours'
        WHERE id = ${expiring.id}`,
  );

  await eventually(async () => (await counted()) === earlier + 31, 'every owed reminder', 20_000);
  // Several more passes of every replica: nobody gets a second one today.
  await new Promise((r) => setTimeout(r, 600));
  expect(await counted()).toBe(earlier + 31);
  const rows = await h.database.execute<{ id: string; reminder_count: number }>(
    sql`SELECT id, reminder_count FROM students WHERE id IN ${[...ids, expiring.id]}`,
  );
  const count = new Map(rows.map((r) => [r.id, r.reminder_count]));
  expect(owed.map((s) => count.get(s.id))).toEqual(owed.map(() => 1));
  expect([count.get(started.id), count.get(expiring.id)]).toEqual([0, 1]);
});

test('when an admin sets the reminder settings, then they are read back, refused out of range, and the job follows them', async () => {
  const read = async () =>
    (await (await h.call('GET', '/api/admin/students/reminder-settings')).json()) as JsonBody;
  expect(await read()).toEqual({ afterDays: [3, 7], beforeExpiryHours: 24, max: 3, updatedAt: null });
  const put = (body: unknown) => h.call('PUT', '/api/admin/students/reminder-settings', { body });
  expect((await put({ afterDays: [0], beforeExpiryHours: 24, max: 3 })).status).toBe(400);
  expect((await put({ afterDays: [2], beforeExpiryHours: 24, max: 21 })).status).toBe(400);
  const saved = await put({ afterDays: [2, 1, 2], beforeExpiryHours: 0, max: 1 });
  expect(saved.status).toBe(200);
  expect(await saved.json()).toMatchObject({ afterDays: [1, 2], beforeExpiryHours: 0, max: 1 });
  expect((await read()).updatedAt).not.toBeNull();

  const s = await inviteStudent(h);
  await h.database.execute(
    sql`UPDATE students SET invited_at = now() - interval '25 hours' WHERE id = ${s.id}`,
  );
  // Any replica's job may send it (each has its own memory bus): the row counts it.
  await eventually(async () => {
    const [row] = await h.database.execute<{ n: number }>(
      sql`SELECT reminder_count AS n FROM students WHERE id = ${s.id}`,
    );
    return row!.n === 1;
  }, 'the reminder after one day');
});
