import { http, HttpResponse } from 'msw';
import { server } from '../../../testing/server';
import type { InviteDelivery, Student } from '../api/students-api';

/*
 * An in-memory stand-in for the student service's admin side: server-side search, status filter and
 * paging, invite with the duplicate check, resend, delete, and the CSV import with its dry run.
 */
export const store = {
  students: [] as Student[],
  listQueries: [] as URLSearchParams[],
  invites: [] as Record<string, unknown>[],
  resent: [] as string[],
  imports: [] as { dryRun: boolean; text: string }[],
  deliveries: [] as InviteDelivery[],
};

export const DUPLICATE_MESSAGE = 'A student with this email is already invited';

const student = (overrides: Partial<Student>): Student => ({
  _id: 'st-0',
  name: 'Student',
  email: 'student@example.edu',
  status: 'invited',
  inviteToken: 'tok-0',
  createdAt: '2025-03-01T09:00:00.000Z',
  ...overrides,
});

export function seedStudents(): void {
  store.listQueries.length = 0;
  store.invites.length = 0;
  store.resent.length = 0;
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
    { studentId: 'st-1', status: 'sent', reason: null, at },
    { studentId: 'st-4', status: 'failed', reason: '550 mailbox unavailable', at },
  ];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function checkCsv(text: string) {
  const lines = text.split(/\r?\n/);
  const problems: { line: number; message: string }[] = [];
  const seen = new Set<string>();
  const valid: Student[] = [];
  lines.slice(1).forEach((raw, i) => {
    const line = i + 2;
    if (!raw.trim()) return;
    const [name = '', email = '', phoneNumber = ''] = raw.split(',').map((c) => c.trim());
    const lower = email.toLowerCase();
    if (!EMAIL.test(email)) problems.push({ line, message: 'Invalid email address' });
    else if (seen.has(lower)) problems.push({ line, message: 'Duplicate email in the file' });
    else if (store.students.some((s) => s.email === lower))
      problems.push({ line, message: 'Already invited' });
    else {
      seen.add(lower);
      valid.push(
        student({
          _id: `st-${lower}`,
          name,
          email: lower,
          phoneNumber: phoneNumber || undefined,
          inviteToken: `tok-${lower}`,
        }),
      );
    }
  });
  return { problems, valid };
}

const handlers = [
  http.get('*/api/admin/notifications/deliveries', ({ request }) => {
    const ids = (new URL(request.url).searchParams.get('studentIds') ?? '').split(',');
    return HttpResponse.json({ deliveries: store.deliveries.filter((d) => ids.includes(d.studentId)) });
  }),
  http.get('*/api/admin/students', ({ request }) => {
    const params = new URL(request.url).searchParams;
    store.listQueries.push(params);
    const q = (params.get('search') ?? '').toLowerCase();
    const status = params.get('status');
    const page = Number(params.get('page') ?? 1);
    const limit = Number(params.get('limit') ?? 20);
    const matching = store.students.filter(
      (s) =>
        (!q || s.name.toLowerCase().includes(q) || s.email.includes(q)) && (!status || s.status === status),
    );
    return HttpResponse.json({
      students: matching.slice((page - 1) * limit, page * limit),
      pagination: {
        currentPage: page,
        totalPages: Math.max(1, Math.ceil(matching.length / limit)),
        totalResults: matching.length,
      },
    });
  }),
  http.post('*/api/admin/students/invite', async ({ request }) => {
    const body = (await request.json()) as {
      name: string;
      email: string;
      phoneNumber?: string;
      extraTimePercent?: number;
    };
    store.invites.push(body);
    const email = body.email.trim().toLowerCase();
    if (store.students.some((s) => s.email === email)) {
      return HttpResponse.json({ message: DUPLICATE_MESSAGE, code: 'already_invited' }, { status: 409 });
    }
    const created = student({
      _id: `st-${email}`,
      name: body.name,
      email,
      inviteToken: `tok-${email}`,
      extraTimePercent: body.extraTimePercent ?? 0,
    });
    store.students = [created, ...store.students];
    store.deliveries.push({ studentId: created._id, status: 'queued', reason: null, at: created.createdAt });
    return HttpResponse.json({ student: created }, { status: 201 });
  }),
  http.post('*/api/admin/students/:id/resend-assessment', ({ params }) => {
    store.resent.push(String(params.id));
    return HttpResponse.json({ message: 'Invitation resent' });
  }),
  http.patch('*/api/admin/students/:id', async ({ request, params }) => {
    const { extraTimePercent } = (await request.json()) as { extraTimePercent: number };
    store.students = store.students.map((s) => (s._id === params.id ? { ...s, extraTimePercent } : s));
    return HttpResponse.json({ student: store.students.find((s) => s._id === params.id) });
  }),
  http.delete('*/api/admin/students/:id', ({ params }) => {
    store.students = store.students.filter((s) => s._id !== params.id);
    return new HttpResponse(null, { status: 204 });
  }),
  http.post('*/api/admin/students/import', async ({ request }) => {
    const dryRun = new URL(request.url).searchParams.get('dryRun') === 'true';
    const file = (await request.formData()).get('file') as File;
    const text = await file.text();
    store.imports.push({ dryRun, text });
    const { problems, valid } = checkCsv(text);
    if (!dryRun) store.students = [...valid, ...store.students];
    return HttpResponse.json({ valid: valid.length, dryRun, imported: dryRun ? 0 : valid.length, problems });
  }),
];

/** Installs the stand-in for one test file, on top of the shared auth handlers. */
export function useStudentServer(): void {
  beforeEach(() => {
    seedStudents();
    server.use(...handlers);
  });
}
