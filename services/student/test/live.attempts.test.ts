import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { AttemptAdjustment, AttemptFinalisedBy } from '@readiness/contracts';
import { eventually } from '@readiness/testing';
import {
  adminToken,
  inviteStudent,
  openAttemptStream,
  startAttempt,
  studentCall,
  useStudent,
  type JsonBody,
} from './harness';

jest.setTimeout(60_000);

// Room for the five pages of one link the replica test opens and closes (the caps are event-streams.capped's).
const h = useStudent('embedded', {
  config: { ATTEMPT_STREAM_CHECK_MS: 200, SUBMIT_RESULT_WAIT_MS: 0, ATTEMPT_STREAMS_PER_LINK: 10 },
});

/** A student invited under `name` who pressed Start; the attempt's id and deadline. */
async function started(name?: string) {
  const s = await startAttempt(h, 'Live', name);
  return { ...s, deadlineAt: Date.parse(s.attempt.deadlineAt as string) };
}

const deadlineOf = async (attemptId: string) => {
  const [row] = await h.database.execute<{ deadline_at: Date }>(
    sql`SELECT deadline_at FROM attempts WHERE id = ${attemptId}`,
  );
  return new Date(row!.deadline_at).getTime();
};

async function live(query = ''): Promise<JsonBody> {
  const res = await h.call('GET', `/api/admin/live${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as JsonBody;
}

const extend = (attemptId: string, body: unknown, token?: string) =>
  h.call('POST', `/api/admin/live/${attemptId}/extend`, { body, token });

describe('the Live screen', () => {
  test('lists attempts in progress least time left first, with where each student stands, searchable and paged', async () => {
    const tag = randomUUID().slice(0, 8);
    const ahead = await started(`Ahead ${tag}`);
    const behind = await started(`Behind ${tag}`);
    // Section 1 done: the student is on section 2 of 2 with 2 of 3 answered.
    await studentCall(h, 'PUT', `/api/student/${ahead.token}/answers`, {
      attemptId: ahead.attemptId,
      seq: 1,
      answers: [
        { questionId: 'q1', answer: 'yes' },
        { questionId: 'q2', answer: 'opt-a' },
      ],
    });
    // Its page reports the section it shows: section 2, then back to section 1 to check an answer.
    const shown = (sectionId: number, ms: number) => ({
      attemptId: ahead.attemptId,
      deviceId: 'device-live-1',
      entries: [{ kind: 'section_reached', at: new Date(Date.now() - ms).toISOString(), sectionId }],
    });
    const reportSection = (sectionId: number, ms: number) =>
      studentCall(h, 'POST', `/api/student/${ahead.token}/activity`, shown(sectionId, ms));
    expect((await reportSection(2, 2000)).status).toBe(204);
    // The second student has less time left: listed first.
    await h.database.execute(
      sql`UPDATE attempts SET deadline_at = deadline_at - interval '10 minutes' WHERE id = ${behind.attemptId}`,
    );

    const page = await live(`?search=${tag}`);
    expect(page.pagination).toMatchObject({ totalResults: 2, currentPage: 1 });
    expect(page.attempts.map((a: JsonBody) => a.name)).toEqual([`Behind ${tag}`, `Ahead ${tag}`]);
    const [b, a] = page.attempts as JsonBody[];
    expect(a).toMatchObject({
      attemptId: ahead.attemptId,
      answered: 2,
      total: 3,
      section: { number: 2, title: 'Study habits', count: 2 },
      presence: 'active',
      addedMinutes: 0,
    });
    expect(a!.savedAt).toEqual(expect.any(String));
    // A page that reported no section yet shows none (not a guess from the answers).
    expect(b).toMatchObject({ answered: 0, section: null, savedAt: null });
    expect(b!.timeLeftSeconds).toBeLessThan(a!.timeLeftSeconds);
    expect(a!.timeLeftSeconds).toBeGreaterThan(29 * 60);

    // Back on section 1, whose answers are all in: the screen follows the page, not the answers.
    expect((await reportSection(1, 1000)).status).toBe(204);
    expect((await live(`?search=${tag}`)).attempts[1]).toMatchObject({
      name: `Ahead ${tag}`,
      section: { number: 1, title: 'Computer skills', count: 2 },
    });
    // A section the version does not have is refused and changes nothing.
    expect((await reportSection(99, 500)).status).toBe(400);
    expect((await live(`?search=${tag}`)).attempts[1].section).toMatchObject({ number: 1 });

    const second = await live(`?search=${tag}&limit=1&page=2`);
    expect(second.attempts.map((x: JsonBody) => x.name)).toEqual([`Ahead ${tag}`]);
    expect(second.pagination).toMatchObject({ totalPages: 2, hasPrev: true, hasNext: false });
    // A page past the end still says how many there are; a search that matches nobody is empty.
    expect((await live(`?search=${tag}&page=9`)).pagination.totalResults).toBe(2);
    expect((await live(`?search=${encodeURIComponent('%_\\')}`)).attempts).toEqual([]);
    // A submitted attempt leaves the list.
    await studentCall(h, 'POST', `/api/student/${ahead.token}/submit`, {
      attemptId: ahead.attemptId,
      answers: [],
    });
    expect((await live(`?search=${tag}`)).attempts.map((x: JsonBody) => x.name)).toEqual([`Behind ${tag}`]);
  });

  test('autosave is the heartbeat: active, idle for minutes while the page is open, offline when nothing is heard', async () => {
    const s = await started();
    const row = async () => (await live(`?search=${encodeURIComponent(s.name)}`)).attempts[0] as JsonBody;
    expect(await row()).toMatchObject({ presence: 'active', idleMinutes: 0 });
    await h.database.execute(
      sql`UPDATE attempts SET started_at = started_at - interval '5 minutes', page_seen_at = now()
          WHERE id = ${s.attemptId}`,
    );
    expect(await row()).toMatchObject({ presence: 'idle', idleMinutes: 5 });
    await h.database.execute(
      sql`UPDATE attempts SET page_seen_at = now() - interval '2 minutes' WHERE id = ${s.attemptId}`,
    );
    expect(await row()).toMatchObject({ presence: 'offline' });
  });

  test('the list is for admins only and refuses bad paging', async () => {
    expect((await h.call('GET', '/api/admin/live', { token: null })).status).toBe(401);
    expect((await h.call('GET', '/api/admin/live?limit=101')).status).toBe(400);
    expect((await h.call('GET', '/api/admin/live?page=0')).status).toBe(400);
  });
});

describe('adding time', () => {
  test('moves the deadline by the minutes, audited and announced; two admins at once both add', async () => {
    const s = await started();
    const actor = randomUUID();
    const res = await extend(s.attemptId, { minutes: 10 }, adminToken(actor));
    expect(res.status).toBe(200);
    const body = (await res.json()) as JsonBody;
    expect(body.message).toBe(`Added 10 minutes for ${s.name}`);
    expect(Date.parse(body.attempt.deadlineAt as string)).toBe(s.deadlineAt + 10 * 60_000);
    expect(await deadlineOf(s.attemptId)).toBe(s.deadlineAt + 10 * 60_000);

    const both = await Promise.all([
      extend(s.attemptId, { minutes: 5 }),
      extend(s.attemptId, { minutes: 7 }),
    ]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(await deadlineOf(s.attemptId)).toBe(s.deadlineAt + 22 * 60_000);
    const row = (await live(`?search=${encodeURIComponent(s.name)}`)).attempts[0] as JsonBody;
    expect(row.addedMinutes).toBe(22);

    await eventually(
      () =>
        h.eventsNamed('student.attempt.adjusted.v1').filter((e) => e.payload.attemptId === s.attemptId)
          .length === 3,
      'three adjusted events',
    );
    const [firstEvent] = h
      .eventsNamed('student.attempt.adjusted.v1')
      .filter((e) => e.payload.attemptId === s.attemptId);
    expect(firstEvent!.payload).toMatchObject({
      studentId: s.id,
      name: s.name,
      adjustment: AttemptAdjustment.EXTENDED,
      addedMinutes: 10,
      actorId: actor,
    });
    const [audit] = await h.database.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM student_audit WHERE action = 'attempt.extended' AND student_id = ${s.id}`,
    );
    expect(audit!.n).toBe(3);
  });

  test.each([
    [{ minutes: 0 }],
    [{ minutes: -5 }],
    [{ minutes: 601 }],
    [{ minutes: 2.5 }],
    [{ minutes: '10' }],
    [{ minutes: 1e308 }],
    [{}],
    [[10]],
  ])('refuses %j with a 400 and changes nothing', async (body) => {
    const s = await started();
    const res = await extend(s.attemptId, body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as JsonBody).message).toMatch(/minutes|JSON object/i);
    expect(await deadlineOf(s.attemptId)).toBe(s.deadlineAt);
  });

  test('an unknown attempt is a 404; one just submitted, or past its deadline and grace, a 409 that changes nothing', async () => {
    expect((await extend(randomUUID(), { minutes: 5 })).status).toBe(404);
    expect((await extend('not-an-id', { minutes: 5 })).status).toBe(404);
    expect((await extend('../students', { minutes: 5 })).status).toBe(404);
    expect((await extend(randomUUID(), { minutes: 5 }, '')).status).toBe(401);

    const done = await started();
    await studentCall(h, 'POST', `/api/student/${done.token}/submit`, {
      attemptId: done.attemptId,
      answers: [],
    });
    const late = await extend(done.attemptId, { minutes: 5 });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({
      code: 'attempt_closed',
      message: 'This attempt is no longer in progress',
    });
    expect(await deadlineOf(done.attemptId)).toBe(done.deadlineAt);

    const over = await started();
    await h.database.execute(
      sql`UPDATE attempts SET deadline_at = now() - interval '40 seconds' WHERE id = ${over.attemptId}`,
    );
    const before = await deadlineOf(over.attemptId);
    expect((await extend(over.attemptId, { minutes: 5 })).status).toBe(409);
    expect(await deadlineOf(over.attemptId)).toBe(before);
  });

  test('extra time set on a student while their attempt runs applies to it, and never shortens it', async () => {
    const s = await started();
    await extend(s.attemptId, { minutes: 3 });
    const patch = (extraTimePercent: number) =>
      h.call('PATCH', `/api/admin/students/${s.id}`, { body: { extraTimePercent } });
    expect((await patch(50)).status).toBe(200);
    // 30 minutes + 50 % + the 3 minutes added: 48 minutes from the start.
    const [row] = await h.database.execute<{ started_at: Date }>(
      sql`SELECT started_at FROM attempts WHERE id = ${s.attemptId}`,
    );
    const start = new Date(row!.started_at).getTime();
    expect(await deadlineOf(s.attemptId)).toBe(start + 48 * 60_000);
    expect((await patch(0)).status).toBe(200);
    expect(await deadlineOf(s.attemptId)).toBe(start + 48 * 60_000);
  });
});

describe('ending an attempt', () => {
  test('scores it from its last saved answers like the deadline job, once; a second end is a 409', async () => {
    const s = await started();
    await studentCall(h, 'PUT', `/api/student/${s.token}/answers`, {
      attemptId: s.attemptId,
      seq: 1,
      answers: [{ questionId: 'q1', answer: 'yes' }],
    });
    const actor = randomUUID();
    const res = await h.call('POST', `/api/admin/live/${s.attemptId}/end`, { token: adminToken(actor) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as JsonBody).message).toBe(
      `Attempt ended for ${s.name}; it is scored from the last saved answers`,
    );
    await eventually(
      () => h.eventsNamed('student.attempt.submitted.v1').some((e) => e.payload.attemptId === s.attemptId),
      'the submitted event',
    );
    const [submitted] = h
      .eventsNamed('student.attempt.submitted.v1')
      .filter((e) => e.payload.attemptId === s.attemptId);
    expect(submitted!.payload.finalisedBy).toBe(AttemptFinalisedBy.ADMIN);
    expect(submitted!.payload.answers.map((a) => [a.questionId, a.answer])).toEqual([['q1', 'yes']]);
    const [row] = await h.database.execute<{ status: string; finalised_by: string; ended_by: string }>(
      sql`SELECT status, finalised_by, ended_by FROM attempts WHERE id = ${s.attemptId}`,
    );
    expect(row).toEqual({ status: 'submitted', finalised_by: 'admin', ended_by: actor });

    const again = await h.call('POST', `/api/admin/live/${s.attemptId}/end`);
    expect(again.status).toBe(409);
    // The student's autosave now meets a closed attempt.
    const save = await studentCall(h, 'PUT', `/api/student/${s.token}/answers`, {
      attemptId: s.attemptId,
      seq: 2,
      answers: [{ questionId: 'q1', answer: 'no' }],
    });
    expect(save.status).toBe(409);
    await eventually(
      () =>
        h
          .eventsNamed('student.attempt.adjusted.v1')
          .some(
            (e) => e.payload.attemptId === s.attemptId && e.payload.adjustment === AttemptAdjustment.ENDED,
          ),
      'the ended event',
    );
    expect(
      h.eventsNamed('student.attempt.submitted.v1').filter((e) => e.payload.attemptId === s.attemptId),
    ).toHaveLength(1);
  });

  test('an end racing the student’s own submit ends the attempt once', async () => {
    const s = await started();
    const [end, submit] = await Promise.all([
      h.call('POST', `/api/admin/live/${s.attemptId}/end`),
      studentCall(h, 'POST', `/api/student/${s.token}/submit`, {
        attemptId: s.attemptId,
        answers: [{ questionId: 'q1', answer: 'yes' }],
      }),
    ]);
    expect([200, 409]).toContain(end.status);
    expect([200, 202, 409]).toContain(submit.status);
    await eventually(
      () => h.eventsNamed('student.attempt.submitted.v1').some((e) => e.payload.attemptId === s.attemptId),
      'the submitted event',
    );
    await new Promise((r) => setTimeout(r, 300));
    const events = h
      .eventsNamed('student.attempt.submitted.v1')
      .filter((e) => e.payload.attemptId === s.attemptId);
    expect(events).toHaveLength(1);
    // Whoever came first ended it: the event says who, and the other was told it was over.
    expect(events[0]!.payload.finalisedBy).toBe(
      end.status === 200 ? AttemptFinalisedBy.ADMIN : AttemptFinalisedBy.STUDENT,
    );
  });

  test('an unknown attempt is a 404, for admins only', async () => {
    expect((await h.call('POST', `/api/admin/live/${randomUUID()}/end`)).status).toBe(404);
    expect((await h.call('POST', `/api/admin/live/${randomUUID()}/end`, { token: null })).status).toBe(401);
  });
});

/** Follows a link's event stream on the first replica. */
const follow = (token: string) => openAttemptStream(h.url, token);

describe("the student's page follows its attempt", () => {
  test('it is told the deadline at once, an extension and an end within seconds', async () => {
    const s = await started();
    const page = await follow(s.token);
    expect(page.res.status).toBe(200);
    expect(page.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await eventually(() => page.messages.length === 1, 'the first message');
    expect(page.messages[0]).toMatchObject({
      attemptId: s.attemptId,
      status: 'in_progress',
      deadlineAt: new Date(s.deadlineAt).toISOString(),
      addedMinutes: 0,
    });
    const [seen] = await h.database.execute<{ seen: boolean }>(
      sql`SELECT page_seen_at IS NOT NULL AS seen FROM attempts WHERE id = ${s.attemptId}`,
    );
    expect(seen!.seen).toBe(true);

    await extend(s.attemptId, { minutes: 4 });
    await eventually(() => page.messages.length === 2, 'the extension', 5_000);
    expect(page.messages[1]).toMatchObject({
      status: 'in_progress',
      deadlineAt: new Date(s.deadlineAt + 4 * 60_000).toISOString(),
      addedMinutes: 4,
    });

    await h.call('POST', `/api/admin/live/${s.attemptId}/end`);
    await eventually(() => page.messages.length === 3, 'the end', 5_000);
    expect(page.messages[2]).toMatchObject({ status: 'closed' });
    await page.close();
  });

  test('an unknown link is a 404, a student who never started a 204, and a reconnect after the end is told closed', async () => {
    const unknown = await fetch(`${h.url}/api/student/${'x'.repeat(43)}/events`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/json/);
    const invited = await inviteStudent(h);
    expect((await fetch(`${h.url}/api/student/${invited.token}/events`)).status).toBe(204);

    const s = await started();
    await h.call('POST', `/api/admin/live/${s.attemptId}/end`);
    const page = await follow(s.token);
    await eventually(() => page.messages.length === 1, 'the state');
    expect(page.messages[0]).toMatchObject({ attemptId: s.attemptId, status: 'closed' });
    await page.close();
  });

  test('pages of one attempt open on two replicas; a page is told an extension once, and a replica stopping ends its streams at once', async () => {
    const s = await started();
    const replica = await h.startReplica({ ATTEMPT_STREAM_CHECK_MS: 200 });
    const pages = await Promise.all(
      Array.from({ length: 5 }, async (_, i) => {
        const res = await fetch(`${i % 2 ? replica.url : h.url}/api/student/${s.token}/events`);
        return res;
      }),
    );
    for (const p of pages) expect(p.status).toBe(200);
    for (const p of pages) await p.body?.cancel();
    const followed = await follow(s.token);
    await extend(s.attemptId, { minutes: 1 });
    await eventually(() => followed.messages.length === 2, 'one extension message', 5_000);
    await new Promise((r) => setTimeout(r, 600));
    expect(followed.messages).toHaveLength(2);
    await followed.close();

    const onReplica = await fetch(`${replica.url}/api/student/${s.token}/events`);
    const reader = onReplica.body!.getReader();
    await reader.read();
    const stopping = Date.now();
    await replica.stop();
    // Draining ended the stream: the page reconnects elsewhere, and the replica did not wait out its grace.
    for (;;) if ((await reader.read()).done) break;
    expect(Date.now() - stopping).toBeLessThan(5_000);
  });
});
