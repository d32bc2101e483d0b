import { sql } from 'drizzle-orm';
import { eventually } from '@readiness/testing';
import { adminToken, useStudent } from './harness';

jest.setTimeout(60_000);

interface StudentJson {
  _id: string;
  name: string;
  email: string;
  phoneNumber?: string;
  status: string;
  inviteToken: string;
  inviteUrl: string;
  extraTimePercent: number;
  createdAt: string;
  expiresAt: string;
}

// On the memory bus only: the bus is not the subject here; both buses pass one contract suite (kit/src/bus/test).
describe('students', () => {
  const h = useStudent('embedded', { version: false });

  const invite = async (body: Record<string, unknown>) => {
    const res = await h.call('POST', '/api/admin/students/invite', { body });
    return { status: res.status, json: (await res.json()) as { message: string; student: StudentJson } };
  };

  test('when an admin invites a student, then the student is listed as invited with a link, and the invitation event goes out with the link sealed', async () => {
    const { status, json } = await invite({
      name: '  Ada Lovelace ',
      email: ' Ada@Example.EDU ',
      phoneNumber: '555-0100',
    });
    expect(status).toBe(201);
    expect(json.message).toBe('Invitation sent to Ada Lovelace');
    const s = json.student;
    expect(s).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.edu',
      phoneNumber: '555-0100',
      status: 'invited',
    });
    expect(Buffer.from(s.inviteToken, 'base64url')).toHaveLength(32);
    expect(s.inviteUrl).toBe(`https://readiness.example.edu/assessment/${s.inviteToken}`);

    const list = (await (await h.call('GET', '/api/admin/students?search=LOVELACE')).json()) as {
      students: StudentJson[];
      pagination: Record<string, unknown>;
    };
    expect(list.students.map((x) => x._id)).toEqual([s._id]);
    expect(list.students[0]!.inviteToken).toBe(s.inviteToken);
    expect(list.pagination).toEqual({
      currentPage: 1,
      totalPages: 1,
      totalResults: 1,
      hasNext: false,
      hasPrev: false,
    });

    await eventually(
      async () =>
        h.events.some((e) => e.name === 'student.student.invited.v1' && e.payload.studentId === s._id),
      'the invitation event',
    );
    const event = h.eventsNamed('student.student.invited.v1').find((e) => e.payload.studentId === s._id)!;
    expect(event.payload.email).toBe('ada@example.edu');
    expect(String(event.payload.sealedInvitationUrl)).toMatch(/^sealed\.v1\./);
    expect(JSON.stringify(event.payload)).not.toContain(s.inviteToken);

    // The token itself is nowhere in the database: not in the students table, not in the outbox.
    const dump = await h.database.execute<{ t: string }>(
      sql`SELECT (SELECT string_agg(s::text, '|') FROM students s) || coalesce((SELECT string_agg(encode(payload, 'escape'), '|') FROM outbox), '') AS t`,
    );
    expect(dump[0]!.t).not.toContain(s.inviteToken);

    const opened = await fetch(`${h.url}/api/student/${s.inviteToken}`);
    expect(opened.status).toBe(200);
    expect(await opened.json()).toEqual({ student: { name: 'Ada Lovelace', email: 'ada@example.edu' } });
  });

  test('when the same e-mail is invited again in another case, then 409 says it is already invited', async () => {
    await invite({ name: 'Grace Hopper', email: 'grace@example.edu' });
    const again = await invite({ name: 'Grace H', email: 'GRACE@example.edu ' });
    expect(again.status).toBe(409);
    expect(again.json).toEqual({
      message: 'A student with this email is already invited',
      code: 'already_invited',
    });
  });

  test.each([
    [{ name: '', email: 'a@b.co' }, 'Name is required'],
    [{ name: 'A', email: 'a@b.co' }, 'Name must be at least 2 characters'],
    [{ name: 'Alan', email: '' }, 'Email is required'],
    [{ name: 'Alan', email: 'not-an-email' }, 'Invalid email address'],
    // One address per field: a list, a display name or markup must not reach the mailer.
    [{ name: 'Alan', email: 'a,b@x.io' }, 'Invalid email address'],
    [{ name: 'Alan', email: '<script>@x.io' }, 'Invalid email address'],
    [{ name: 'Alan', email: 'alan@x.io;eve@y.io' }, 'Invalid email address'],
    [{ name: 'Alan', email: '"a b"@x.io' }, 'Invalid email address'],
    [{ name: 'Alan', email: 'Alan <alan@x.io>' }, 'Invalid email address'],
    [{ name: 'Alan', email: `${'a'.repeat(65)}@x.io` }, 'Invalid email address'],
    [
      { name: 'Alan', email: 'alan@b.co', extraTimePercent: 301 },
      'Extra time must be a whole percentage from 0 to 300',
    ],
  ])('when an invite breaks a rule (%j), then 400 with the message %s', async (body, message) => {
    const res = await invite(body);
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(message);
  });

  test('when an invitation is resent, then the mail carries the same link, valid for longer, the first mail’s link still opens, and the resent event goes out', async () => {
    const { json } = await invite({ name: 'Katherine Johnson', email: 'kj@example.edu' });
    const before = json.student;
    await h.database.execute(
      sql`UPDATE students SET expires_at = now() + interval '1 day' WHERE id = ${before._id}`,
    );
    const res = await h.call('POST', `/api/admin/students/${before._id}/resend-assessment`);
    expect(res.status).toBe(200);
    const after = ((await res.json()) as { student: StudentJson }).student;
    expect(after.inviteToken).toBe(before.inviteToken);
    expect(new Date(after.expiresAt).getTime()).toBeGreaterThan(Date.now() + 59 * 24 * 3600 * 1000);
    expect((await fetch(`${h.url}/api/student/${before.inviteToken}`)).status).toBe(200);
    const event = await eventually(
      async () =>
        h.events.find(
          (e) => e.name === 'student.invitation.resent.v1' && e.payload.studentId === before._id,
        ) ?? false,
      'the resent event',
    );
    expect(JSON.stringify(event.payload)).not.toContain(before.inviteToken);
  });

  test('when a student is deleted, then they are gone, their link answers 404, and the erase event goes out', async () => {
    const { json } = await invite({ name: 'Mary Jackson', email: 'mj@example.edu' });
    const s = json.student;
    const res = await h.call('DELETE', `/api/admin/students/${s._id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Student deleted successfully' });
    expect((await fetch(`${h.url}/api/student/${s.inviteToken}`)).status).toBe(404);
    const again = await h.call('DELETE', `/api/admin/students/${s._id}`);
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ message: 'Student not found', code: 'student_not_found' });
    expect((await h.call('DELETE', '/api/admin/students/not-an-id')).status).toBe(404);
    expect((await h.call('POST', '/api/admin/students/not-an-id/resend-assessment')).status).toBe(404);
    expect((await fetch(`${h.url}/api/student/${'x'.repeat(500)}`)).status).toBe(404);
    await eventually(
      async () =>
        h.events.some((e) => e.name === 'student.student.deleted.v1' && e.payload.studentId === s._id),
      'the erase event',
    );
  });

  test('when an invitation was never started and its time ran out, then its link answers the same 404, the list marks it expired, and a resend renews it', async () => {
    const { json } = await invite({ name: 'Hedy Lamarr', email: 'hedy@example.edu' });
    const s = json.student;
    await h.database.execute(
      sql`UPDATE students SET expires_at = now() - interval '1 minute' WHERE id = ${s._id}`,
    );
    const expired = await fetch(`${h.url}/api/student/${s.inviteToken}`);
    expect(expired.status).toBe(404);
    expect(await expired.json()).toEqual({
      message: 'Invalid or expired invitation link',
      code: 'not_found',
    });
    const listed = (await (await h.call('GET', '/api/admin/students?search=hedy')).json()) as {
      students: Array<StudentJson & { expired: boolean }>;
    };
    expect(listed.students[0]!.expired).toBe(true);
    const renewed = (
      (await (await h.call('POST', `/api/admin/students/${s._id}/resend-assessment`)).json()) as {
        student: StudentJson & { expired: boolean };
      }
    ).student;
    expect(renewed.expired).toBe(false);
    // Only an expired link is replaced: the old one stays dead, the new one opens.
    expect(renewed.inviteToken).not.toBe(s.inviteToken);
    expect((await fetch(`${h.url}/api/student/${s.inviteToken}`)).status).toBe(404);
    expect((await fetch(`${h.url}/api/student/${renewed.inviteToken}`)).status).toBe(200);
  });

  test('when an admin sets extra time, then the student carries it; out of range is refused', async () => {
    const { json } = await invite({ name: 'Dorothy Vaughan', email: 'dv@example.edu' });
    const ok = await h.call('PATCH', `/api/admin/students/${json.student._id}`, {
      body: { extraTimePercent: 50 },
    });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { student: StudentJson }).student.extraTimePercent).toBe(50);
    // Announced for the audit log, naming the admin and the student (issue 43, item 6).
    const changed = await eventually(
      async () =>
        h
          .eventsNamed('student.extra-time.changed.v1')
          .find((e) => e.payload.studentId === json.student._id) ?? false,
      'the extra time event',
    );
    expect(changed.payload).toMatchObject({
      name: 'Dorothy Vaughan',
      email: 'dv@example.edu',
      extraTimePercent: 50,
      actorId: expect.any(String),
    });
    const bad = await h.call('PATCH', `/api/admin/students/${json.student._id}`, {
      body: { extraTimePercent: -1 },
    });
    expect(bad.status).toBe(400);
    const unknown = await h.call('PATCH', '/api/admin/students/not-an-id', { body: { extraTimePercent: 0 } });
    expect(unknown.status).toBe(404);
    // The invitation of a student invited with extra time tells the mail their own time.
    const withExtra = await invite({ name: 'Mae Jemison', email: 'mae@example.edu', extraTimePercent: 40 });
    const event = await eventually(
      async () =>
        h
          .eventsNamed('student.student.invited.v1')
          .find((e) => e.payload.studentId === withExtra.json.student._id) ?? false,
      'the invited event',
    );
    expect(event.payload.extraTimePercent).toBe(40);
  });

  test('when a CSV with bad rows is checked, then every problem is reported by line, and the import keeps only the valid rows', async () => {
    await invite({ name: 'Existing One', email: 'existing@example.edu' });
    const csv = [
      'name,email,phoneNumber,extraTimePercent',
      'Alice Row,alice@example.edu,555-1,25',
      'Bob Row,not-an-email,,',
      'Carol Row,ALICE@example.edu,,',
      'Dan Row,existing@example.edu,,',
      '"Row, Eve",eve@example.edu,,',
      'Mallory Row,"a,b@x.io",,',
      'Trudy Row,<script>@x.io,,',
    ].join('\r\n');
    const dry = await h.importCsv(csv, { dryRun: true });
    expect(dry.status).toBe(200);
    const report = await dry.json();
    expect(report).toEqual({
      dryRun: true,
      total: 7,
      valid: 2,
      imported: 0,
      problems: [
        { line: 3, email: 'not-an-email', message: 'Invalid email address' },
        { line: 4, email: 'alice@example.edu', message: 'Duplicate email in the file (first on line 2)' },
        { line: 5, email: 'existing@example.edu', message: 'A student with this email is already invited' },
        { line: 7, email: 'a,b@x.io', message: 'Invalid email address' },
        { line: 8, email: '<script>@x.io', message: 'Invalid email address' },
      ],
    });
    const none = (await (await h.call('GET', '/api/admin/students?search=eve@')).json()) as {
      students: unknown[];
    };
    expect(none.students).toHaveLength(0);

    const done = await (await h.importCsv(csv)).json();
    expect(done).toMatchObject({ dryRun: false, imported: 2 });
    const listed = (await (await h.call('GET', '/api/admin/students?search=Row&status=invited')).json()) as {
      students: StudentJson[];
    };
    expect(listed.students.map((x) => x.email).sort()).toEqual(['alice@example.edu', 'eve@example.edu']);
    expect(listed.students.find((x) => x.email === 'alice@example.edu')!.extraTimePercent).toBe(25);
  });

  test('when the list is called without a token, then 401', async () => {
    const res = await fetch(`${h.url}/api/admin/students`);
    expect(res.status).toBe(401);
    expect((await h.call('GET', '/api/admin/students', { token: adminToken() })).status).toBe(200);
  });
});
