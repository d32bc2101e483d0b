import { http } from '../../../testing/openapi-http';
import { answer, refusal } from '../../../testing/answer';
import { onePage } from '../../../testing/paging';
import { server } from '../../../testing/server';
import type { ImportProblem, InviteDelivery, Student } from '../api/types';

/*
 * An in-memory stand-in for the student service's admin side: server-side search, status filter and
 * paging, invite with the duplicate check, resend, delete, and the CSV import with its dry run.
 */
export const store = {
  students: [] as Student[],
  listQueries: [] as URLSearchParams[],
  invites: [] as Record<string, unknown>[],
  resent: [] as string[],
  reminded: [] as string[],
  remindFilters: [] as { dryRun: boolean; body: Record<string, unknown> }[],
  imports: [] as { dryRun: boolean; text: string }[],
  deliveries: [] as InviteDelivery[],
};

/** The day the stand-in calls today (UTC), for "reminded today". */
const TODAY = new Date().toISOString().slice(0, 10);

export const DUPLICATE_MESSAGE = 'A student with this email is already invited';

/** A student as the service answers it: the link is built on the site's origin from the token. */
export const student = ({ inviteToken = 'tok-0', ...overrides }: Partial<Student>): Student => ({
  _id: 'st-0',
  name: 'Student',
  email: 'student@example.edu',
  status: 'invited',
  inviteToken,
  inviteUrl: `${window.location.origin}/assessment/${inviteToken}`,
  invitedAt: '2025-03-01T09:00:00.000Z',
  expiresAt: '2025-03-08T09:00:00.000Z',
  expired: false,
  extraTimePercent: 0,
  language: null,
  reminderCount: 0,
  lastRemindedAt: null,
  createdAt: '2025-03-01T09:00:00.000Z',
  ...overrides,
});

export function seedStudents(): void {
  store.listQueries.length = 0;
  store.invites.length = 0;
  store.resent.length = 0;
  store.reminded.length = 0;
  store.remindFilters.length = 0;
  store.imports.length = 0;
  store.students = [
    student({ _id: 'st-1', name: 'Marie Curie', email: 'marie@example.edu', inviteToken: 'tok-marie' }),
    student({
      _id: 'st-2',
      name: 'Niels Bohr',
      email: 'niels@example.edu',
      status: 'started',
      inviteToken: 'tok-niels',
      phoneNumber: '+45 1234 5678',
    }),
    student({
      _id: 'st-3',
      name: 'Lise Meitner',
      email: 'lise@example.edu',
      status: 'completed',
      inviteToken: 'tok-lise',
    }),
    student({
      _id: 'st-4',
      name: 'Paul Dirac',
      email: 'paul@example.edu',
      inviteToken: 'tok-paul',
    }),
  ];
  const at = '2025-03-01T09:01:00.000Z';
  store.deliveries = [
    { studentId: 'st-1', kind: 'invitation', status: 'sent', reason: null, at },
    { studentId: 'st-4', kind: 'invitation', status: 'failed', reason: '550 mailbox unavailable', at },
  ];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function checkCsv(text: string) {
  const lines = text.split(/\r?\n/);
  const problems: ImportProblem[] = [];
  const seen = new Set<string>();
  const valid: Student[] = [];
  lines.slice(1).forEach((raw, i) => {
    const line = i + 2;
    if (!raw.trim()) return;
    const [name = '', email = '', phoneNumber = ''] = raw.split(',').map((c) => c.trim());
    const lower = email.toLowerCase();
    if (!EMAIL.test(email)) problems.push({ line, email, message: 'Invalid email address' });
    else if (seen.has(lower)) problems.push({ line, email, message: 'Duplicate email in the file' });
    else if (store.students.some((s) => s.email === lower))
      problems.push({ line, email, message: 'Already invited' });
    else {
      seen.add(lower);
      valid.push(
        student({
          _id: `st-${lower}`,
          name,
          email: lower,
          ...(phoneNumber ? { phoneNumber } : {}),
          inviteToken: `tok-${lower}`,
        }),
      );
    }
  });
  return { problems, valid };
}

const handlers = [
  http.get('/api/admin/notifications/deliveries', ({ request }) => {
    const ids = (new URL(request.url).searchParams.get('studentIds') ?? '').split(',');
    return answer('/api/admin/notifications/deliveries', 'get', {
      deliveries: store.deliveries.filter((d) => ids.includes(d.studentId)),
    });
  }),
  http.get('/api/admin/students', ({ request }) => {
    const params = new URL(request.url).searchParams;
    store.listQueries.push(params);
    const q = (params.get('search') ?? '').toLowerCase();
    const status = params.get('status');
    const matching = store.students.filter(
      (s) =>
        (!q || s.name.toLowerCase().includes(q) || s.email.includes(q)) && (!status || s.status === status),
    );
    const { rows, pagination } = onePage(matching, params, 20);
    return answer('/api/admin/students', 'get', { students: rows, pagination });
  }),
  http.post('/api/admin/students/invite', async ({ request }) => {
    const body = await request.json();
    store.invites.push(body);
    const email = body.email.trim().toLowerCase();
    if (store.students.some((s) => s.email === email)) {
      return refusal(409, { message: DUPLICATE_MESSAGE, code: 'already_invited' });
    }
    const created = student({
      _id: `st-${email}`,
      name: body.name,
      email,
      inviteToken: `tok-${email}`,
      ...(body.phoneNumber ? { phoneNumber: body.phoneNumber } : {}),
      extraTimePercent: body.extraTimePercent ?? 0,
    });
    store.students = [created, ...store.students];
    store.deliveries.push({
      studentId: created._id,
      kind: 'invitation',
      status: 'queued',
      reason: null,
      at: created.createdAt,
    });
    return answer(
      '/api/admin/students/invite',
      'post',
      { message: `Invitation sent to ${created.name}`, student: created },
      { status: 201 },
    );
  }),
  http.post('/api/admin/students/{id}/resend-assessment', ({ params }) => {
    store.resent.push(params.id);
    const resent = store.students.find((s) => s._id === params.id);
    if (!resent) return refusal(404, { message: 'Student not found', code: 'not_found' });
    return answer('/api/admin/students/{id}/resend-assessment', 'post', {
      message: `Invitation sent to ${resent.name}`,
      student: resent,
    });
  }),
  http.post('/api/admin/students/{id}/remind', ({ params }) => {
    const one = store.students.find((s) => s._id === params.id);
    if (!one) return refusal(404, { message: 'Student not found', code: 'student_not_found' });
    if (one.lastRemindedAt?.startsWith(TODAY)) {
      return refusal(409, { message: 'The student was already reminded today', code: 'reminded_today' });
    }
    store.reminded.push(one._id);
    const reminded = {
      ...one,
      reminderCount: one.reminderCount + 1,
      lastRemindedAt: `${TODAY}T10:00:00.000Z`,
    };
    store.students = store.students.map((s) => (s._id === one._id ? reminded : s));
    return answer(
      '/api/admin/students/{id}/remind',
      'post',
      { message: `Reminder sent to ${one.name}`, student: reminded },
      { status: 202 },
    );
  }),
  http.post('/api/admin/students/remind', async ({ request }) => {
    const dryRun = new URL(request.url).searchParams.get('dryRun') === 'true';
    const body = await request.json();
    store.remindFilters.push({ dryRun, body });
    const q = (body.search ?? '').toLowerCase();
    const reached = store.students.filter(
      (s) =>
        (!q || s.name.toLowerCase().includes(q) || s.email.includes(q)) &&
        (body.status === 'all' || s.status === body.status) &&
        s.status === 'invited' &&
        !s.expired &&
        !s.lastRemindedAt?.startsWith(TODAY),
    );
    if (!dryRun) reached.forEach((s) => store.reminded.push(s._id));
    return answer('/api/admin/students/remind', 'post', { count: reached.length }, { status: 202 });
  }),
  http.patch('/api/admin/students/{id}', async ({ request, params }) => {
    const { extraTimePercent } = await request.json();
    store.students = store.students.map((s) => (s._id === params.id ? { ...s, extraTimePercent } : s));
    const changed = store.students.find((s) => s._id === params.id);
    if (!changed) return refusal(404, { message: 'Student not found', code: 'not_found' });
    return answer('/api/admin/students/{id}', 'patch', { student: changed });
  }),
  http.delete('/api/admin/students/{id}', ({ params }) => {
    store.students = store.students.filter((s) => s._id !== params.id);
    return answer('/api/admin/students/{id}', 'delete', { message: 'Student deleted successfully' });
  }),
  http.post('/api/admin/students/import', async ({ request }) => {
    const dryRun = new URL(request.url).searchParams.get('dryRun') === 'true';
    const file = (await request.formData()).get('file') as File;
    const text = await file.text();
    store.imports.push({ dryRun, text });
    const { problems, valid } = checkCsv(text);
    if (!dryRun) store.students = [...valid, ...store.students];
    return answer('/api/admin/students/import', 'post', {
      total: valid.length + problems.length,
      valid: valid.length,
      dryRun,
      imported: dryRun ? 0 : valid.length,
      problems,
    });
  }),
];

/** Installs the stand-in for one test file, on top of the shared auth handlers. */
export function useStudentServer(): void {
  beforeEach(() => {
    seedStudents();
    server.use(...handlers);
  });
}
