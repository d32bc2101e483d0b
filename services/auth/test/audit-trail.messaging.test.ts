/*
 * The audit log shows what admins did across the system: sign-ins (and how) from auth itself, and the other
 * services' admin actions as their events bring them, each once. A super admin searches, filters and exports
 * it; nobody else reads it.
 */
import { randomUUID } from 'node:crypto';
import { eventually } from '@readiness/testing';
import {
  AttemptAdjustment,
  QuestionFileChange,
  ReportDocument,
  timestampFromDate,
  VersionPublication,
} from '@readiness/contracts';
import { ROOT, client, startAuth, uniqueEmail, type Harness } from './harness';

jest.setTimeout(90_000);

interface Entry {
  actor: { _id: string; name: string; email: string } | null;
  action: string;
  target: { _id: string; name: string; email: string } | null;
  details: Record<string, unknown>;
  createdAt: string;
}

let h: Harness;
let api: ReturnType<typeof client>;
let root: string;
let rootId: string;
const ADMIN = { name: 'Regular Admin', email: uniqueEmail('regular'), password: 'regular-password-9' };

const log = async (query = '') =>
  (await api.call<{ entries: Entry[] }>('GET', `/api/admin/audit-log${query}`, { token: root })).body.entries;

/** The log's entries that `match`, once at least `count` of them are in. */
const entriesWhen = (what: string, match: (e: Entry) => boolean, count = 1, query = '?limit=200') =>
  eventually(async () => {
    const found = (await log(query)).filter(match);
    return found.length >= count ? found : false;
  }, what);

beforeAll(async () => {
  h = await startAuth('real');
  api = client(h.url);
  root = await api.login(ROOT.email, ROOT.password);
  rootId = (await api.call<{ admin: { _id: string } }>('GET', '/api/auth/me', { token: root })).body.admin
    ._id;
  await api.createAdmin(root, { ...ADMIN, role: 'admin' });
});

afterAll(async () => {
  await h?.close();
});

it('writes each admin action another service announces once, naming the admin and the student', async () => {
  const studentId = randomUUID();
  const invited = await h.publish('student.student.invited.v1', {
    studentId,
    name: 'Ada Student',
    email: 'ada.student@example.edu',
    actorId: rootId,
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    extraTimePercent: 25,
  });
  // Redelivered: still one entry.
  await h.bus.publish([invited]);
  await h.publish('results.result.deleted.v1', {
    resultId: 'r-1',
    attemptId: 'a-1',
    studentId,
    actorId: rootId,
  });
  await h.publish('student.student.deleted.v1', {
    studentId,
    email: 'ada.student@example.edu',
    actorId: rootId,
  });
  const now = new Date();
  const yesterday = new Date(Date.now() - 86_400_000);
  // The event says what happened, whatever the timing: a save relayed long after it was made is still a save...
  await h.publish('assessment.version.published.v1', {
    versionId: randomUUID(),
    version: 3,
    active: true,
    title: 'Readiness',
    createdAt: timestampFromDate(yesterday),
    createdById: rootId,
    createdByName: 'Super Admin',
    publishedById: rootId,
    publishedByName: 'Super Admin',
    publication: VersionPublication.SAVED,
  });
  // ...and a version made active again, by someone else than its author, is that even moments after it was made.
  await h.publish('assessment.version.published.v1', {
    versionId: randomUUID(),
    version: 1,
    active: true,
    title: 'Readiness',
    createdAt: timestampFromDate(now),
    createdById: randomUUID(),
    createdByName: 'Former Admin',
    publishedById: rootId,
    publishedByName: 'Super Admin',
    publication: VersionPublication.REACTIVATED,
  });
  // From an assessment service older than the field: a version published a day after it was made was made active
  // again.
  await h.publish('assessment.version.published.v1', {
    versionId: randomUUID(),
    version: 2,
    active: true,
    title: 'Readiness',
    createdAt: timestampFromDate(yesterday),
    createdById: randomUUID(),
    createdByName: 'Former Admin',
    publishedById: rootId,
    publishedByName: 'Super Admin',
  });

  const entries = await entriesWhen(
    'the announced actions in the log',
    (e) => e.target?.name === 'Ada Student' || e.action.startsWith('assessment.version'),
    6,
  );
  const actions = entries.map((e) => e.action);
  expect(actions.filter((a) => a === 'student.invited')).toHaveLength(1);
  expect(actions).toEqual(expect.arrayContaining(['student.invited', 'result.deleted', 'student.deleted']));
  const versions = entries.filter((e) => e.action.startsWith('assessment.version'));
  expect(Object.fromEntries(versions.map((e) => [e.details.version, e.action]))).toEqual({
    3: 'assessment.version-saved',
    1: 'assessment.version-activated',
    2: 'assessment.version-activated',
  });
  const resultDeleted = entries.find((e) => e.action === 'result.deleted')!;
  // The result event carries only the student's id: the name comes from the invitation seen before.
  expect(resultDeleted).toMatchObject({
    actor: { _id: rootId, name: 'Super Admin', email: ROOT.email },
    target: { _id: studentId, name: 'Ada Student', email: 'ada.student@example.edu' },
    details: { resultId: 'r-1' },
  });
  expect(entries.find((e) => e.action === 'student.invited')?.details).toMatchObject({
    extraTimePercent: 25,
  });
});

it('writes time added to an attempt and an attempt ended from the Live screen, once each, with the minutes', async () => {
  const studentId = randomUUID();
  const attemptId = randomUUID();
  const student = {
    studentId,
    attemptId,
    name: 'Grace Live',
    email: 'grace.live@example.edu',
    attemptNumber: 2,
  };
  const extended = await h.publish('student.attempt.adjusted.v1', {
    ...student,
    adjustment: AttemptAdjustment.EXTENDED,
    addedMinutes: 15,
    deadlineAt: timestampFromDate(new Date('2026-11-28T10:45:00Z')),
    actorId: rootId,
  });
  await h.bus.publish([extended]);
  await h.publish('student.attempt.adjusted.v1', {
    ...student,
    adjustment: AttemptAdjustment.ENDED,
    deadlineAt: timestampFromDate(new Date('2026-11-28T10:20:00Z')),
    actorId: rootId,
  });
  const entries = await entriesWhen(
    'the attempt actions in the log',
    (e) => e.target?.name === 'Grace Live',
    2,
  );
  await new Promise((r) => setTimeout(r, 300));
  expect((await log('?limit=200')).filter((e) => e.target?.name === 'Grace Live')).toHaveLength(2);
  expect(entries.find((e) => e.action === 'attempt.extended')).toMatchObject({
    actor: { _id: rootId },
    target: { _id: studentId, name: 'Grace Live', email: 'grace.live@example.edu' },
    details: { attemptId, attemptNumber: 2, minutes: 15, deadlineAt: '2026-11-28T10:45:00.000Z' },
  });
  expect(entries.find((e) => e.action === 'attempt.ended')?.details).toMatchObject({
    attemptId,
    endedAt: '2026-11-28T10:20:00.000Z',
  });
});

it("writes a student's extra time set by an admin, once, with the new percentage (issue 43, item 6)", async () => {
  const studentId = randomUUID();
  const changed = await h.publish('student.extra-time.changed.v1', {
    studentId,
    name: 'Tom Extra',
    email: 'tom.extra@example.edu',
    actorId: rootId,
    extraTimePercent: 50,
  });
  await h.bus.publish([changed]);
  const ofStudent = (e: Entry) => e.target?._id === studentId;
  const query = '?action=student.extra-time-changed&limit=200';
  await entriesWhen('the extra time change in the log', ofStudent, 1, query);
  // The redelivery has had time to arrive: the log read again still holds one entry.
  await new Promise((r) => setTimeout(r, 300));
  const entry = (await log(query)).filter(ofStudent);
  expect(entry).toHaveLength(1);
  expect(entry[0]).toMatchObject({
    actor: { _id: rootId },
    target: { name: 'Tom Extra', email: 'tom.extra@example.edu' },
    details: { extraTimePercent: 50 },
  });
});

it("writes an admin's reminder, once, and not the reminder job's (issue 46)", async () => {
  const studentId = randomUUID();
  const reminder = { studentId, name: 'Rita Reminded', email: 'rita@example.edu', reminderNumber: 2 };
  const byAdmin = await h.publish('student.reminder.requested.v1', { ...reminder, actorId: rootId });
  await h.publish('student.reminder.requested.v1', { ...reminder, actorId: '', reminderNumber: 3 });
  await h.bus.publish([byAdmin]);
  const ofStudent = (e: Entry) => e.target?._id === studentId;
  const query = '?action=student.reminded&limit=200';
  await entriesWhen('the reminder in the log', ofStudent, 1, query);
  await new Promise((r) => setTimeout(r, 300));
  const entries = (await log(query)).filter(ofStudent);
  expect(entries).toHaveLength(1);
  expect(entries[0]).toMatchObject({
    actor: { _id: rootId },
    target: { name: 'Rita Reminded', email: 'rita@example.edu' },
    details: { reminderNumber: 2 },
  });
});

it('writes a student erased by the retention setting with no admin as the actor and the reason (issue 46)', async () => {
  const studentId = randomUUID();
  await h.publish('student.student.deleted.v1', {
    studentId,
    email: 'old.student@example.edu',
    actorId: 'system',
    reason: 'retention',
  });
  const [entry] = await entriesWhen(
    'the erasure in the log',
    (e) => e.target?._id === studentId,
    1,
    '?action=student.deleted&limit=200',
  );
  expect(entry).toMatchObject({
    actor: null,
    target: { email: 'old.student@example.edu' },
    details: { reason: 'retention' },
  });
});

it('writes question files uploaded and removed, naming the admin from the event when auth does not know them', async () => {
  const filename = `${randomUUID()}.png`;
  const file = {
    filename,
    originalName: 'Campus map.png',
    size: 1234n,
    actorId: rootId,
    actorName: 'Super Admin',
  };
  await h.publish('assessment.question-file.changed.v1', { ...file, change: QuestionFileChange.UPLOADED });
  await h.publish('assessment.question-file.changed.v1', { ...file, change: QuestionFileChange.DETACHED });
  const entries = await entriesWhen('the question file entries', (e) => e.details.filename === filename, 2);
  expect(entries.find((e) => e.action === 'assessment.question-file-uploaded')).toMatchObject({
    actor: { _id: rootId },
    target: null,
    details: { originalName: 'Campus map.png', size: 1234 },
  });
  expect(entries.find((e) => e.action === 'assessment.question-file-removed')?.details).toMatchObject({
    originalName: 'Campus map.png',
    kept: true,
  });
});

it('writes a results export with its filters and rows', async () => {
  await h.publish('results.results.exported.v1', {
    actorId: rootId,
    search: 'zz-export',
    status: 'passed',
    rows: 7,
  });
  const entry = (
    await entriesWhen(
      'the export entry',
      (e) => e.details.search === 'zz-export',
      1,
      '?action=results.exported&limit=200',
    )
  )[0]!;
  expect(entry).toMatchObject({
    actor: { _id: rootId },
    target: null,
    details: { format: 'csv', status: 'passed', rows: 7 },
  });
});

it('writes PDF report and certificate downloads', async () => {
  const resultId = randomUUID();
  await h.publish('report.report.downloaded.v1', {
    actorId: rootId,
    resultId,
    document: ReportDocument.CERTIFICATE,
    fileName: 'certificate-Ada-Lovelace-ada@example.edu.pdf',
  });
  await h.publish('report.report.downloaded.v1', {
    actorId: rootId,
    resultId,
    document: ReportDocument.REPORT,
    fileName: 'assessment-report-Ada-Lovelace.pdf',
  });
  const entries = await entriesWhen('the download entries', (e) => e.details.resultId === resultId, 2);
  expect(entries.map((e) => e.action).sort()).toEqual(['certificate.downloaded', 'report.downloaded']);
  expect(entries.find((e) => e.action === 'report.downloaded')).toMatchObject({
    actor: { _id: rootId },
    details: { fileName: 'assessment-report-Ada-Lovelace.pdf' },
  });
});

it('records sign-ins and refused sign-ins by password, and filters by actor, action, date and text', async () => {
  const token = await api.login(ADMIN.email, ADMIN.password);
  expect(token).toEqual(expect.any(String));
  expect(
    (
      await api.call('POST', '/api/auth/login', {
        body: { email: ADMIN.email, password: 'wrong-password-1' },
      })
    ).status,
  ).toBe(401);
  // An e-mail nobody has leaves nothing behind.
  await api.call('POST', '/api/auth/login', {
    body: { email: uniqueEmail('nobody'), password: 'whatever-1' },
  });

  const signIns = await log(`?action=admin.signed-in&q=${encodeURIComponent(ADMIN.email)}`);
  // This one, and the first sign-in (where the admin replaced the password the super admin chose).
  expect(signIns).toHaveLength(2);
  expect(signIns[0]).toMatchObject({ details: { method: 'password' }, target: { email: ADMIN.email } });
  const refused = await log(`?action=admin.sign-in-refused&q=${encodeURIComponent(ADMIN.email)}`);
  expect(refused).toHaveLength(1);
  expect(refused[0]).toMatchObject({
    actor: null,
    details: { method: 'password', reason: 'wrong_password' },
  });
  expect(await log(`?action=admin.sign-in-refused&q=nobody-`)).toHaveLength(0);

  const byActor = await log(`?actor=${rootId}&limit=200`);
  expect(byActor.length).toBeGreaterThan(0);
  expect(byActor.every((e) => e.actor?._id === rootId)).toBe(true);
  const future = new Date(Date.now() + 3_600_000).toISOString();
  expect(await log(`?from=${encodeURIComponent(future)}`)).toHaveLength(0);
  expect((await log(`?to=${encodeURIComponent(future)}&limit=5`)).length).toBe(5);
  // A search is text, not a pattern: % and _ match themselves.
  expect(await log('?q=%25')).toHaveLength(0);
});

it('exports the filtered log as CSV, with formula-looking cells escaped', async () => {
  await api.createAdmin(root, {
    name: '=HYPERLINK("x")',
    email: uniqueEmail('formula'),
    password: 'formula-pass-9',
    role: 'admin',
  });
  const res = await fetch(`${h.url}/api/admin/audit-log/export.csv?action=admin.created`, {
    headers: { authorization: `Bearer ${root}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(res.headers.get('content-disposition')).toMatch(
    /^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/,
  );
  const lines = (await res.text())
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(lines[0]).toBe('When,Actor,Actor Email,Action,Action Key,Target,Target Email,Details');
  // The action in words beside its key, and the details as words rather than JSON.
  expect(lines.slice(1).every((line) => line.includes(',Admin created,admin.created,'))).toBe(true);
  expect(
    lines.slice(1).every((line) => line.endsWith(',Role: admin') || line.endsWith(',Role: super_admin')),
  ).toBe(true);
  expect(lines.some((line) => line.includes(`"'=HYPERLINK(""x"")"`))).toBe(true);
});

it('exports every action in words, with nested details as words too', async () => {
  await h.publish('student.attempt.adjusted.v1', {
    attemptId: 'att-csv',
    attemptNumber: 2,
    studentId: randomUUID(),
    name: 'Csv Student',
    email: 'csv.student@example.edu',
    actorId: rootId,
    adjustment: AttemptAdjustment.EXTENDED,
    addedMinutes: 15,
    deadlineAt: timestampFromDate(new Date('2026-11-20T12:00:00Z')),
  });
  await eventually(async () => expect(await log('?action=attempt.extended&q=Csv')).toHaveLength(1));
  const res = await fetch(`${h.url}/api/admin/audit-log/export.csv?action=attempt.extended&q=Csv`, {
    headers: { authorization: `Bearer ${root}` },
  });
  const [, line] = (await res.text())
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(line).toContain(',Time added to an attempt,attempt.extended,Csv Student,csv.student@example.edu,');
  // Each detail as "Name: value" (the database keeps no order of keys).
  for (const part of [
    'Attempt id: att-csv',
    'Attempt number: 2',
    'Minutes: 15',
    'Deadline at: 2026-11-20T12:00:00.000Z',
  ]) {
    expect(line).toContain(part);
  }
  expect(line).not.toContain('{');
});

it('refuses bad filters with a message, and everyone but super admins', async () => {
  for (const [query, message] of [
    ['?actor=not-an-id', 'actor must be an admin id'],
    ['?action=DROP%20TABLE', 'action must be an action name such as admin.signed-in'],
    ['?from=yesterday', 'from must be an ISO date-time'],
    [`?q=${'x'.repeat(101)}`, 'Search must be at most 100 characters'],
  ]) {
    const res = await api.call('GET', `/api/admin/audit-log${query}`, { token: root });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  }
  const regular = await api.login(ADMIN.email, ADMIN.password);
  expect((await api.call('GET', '/api/admin/audit-log', { token: regular })).status).toBe(403);
  expect((await api.call('GET', '/api/admin/audit-log/export.csv', { token: regular })).status).toBe(403);
});
