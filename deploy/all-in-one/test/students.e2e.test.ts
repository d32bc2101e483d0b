import { api, SEED as OWNER, sharedOrOwnProduct, type RunningProduct } from './launcher';

jest.setTimeout(120_000);

interface Mail {
  to: string[];
  subject: string;
  text: string;
}

interface Student {
  _id: string;
  status: string;
  inviteToken: string;
  inviteUrl: string;
}

describe('students end to end through the gateway of `make start`', () => {
  let product: RunningProduct;

  beforeAll(async () => {
    product = await sharedOrOwnProduct();
  });
  afterAll(async () => {
    await product?.stop();
  });

  test('when an admin invites a student, then the mail with the link arrives, the link opens the student, and the delivery reads sent', async () => {
    const base = product.url;
    const login = await api<{ token: string }>(base, 'POST', '/api/auth/login', { body: OWNER });
    const token = login.body.token;

    expect((await api(base, 'GET', '/api/admin/students')).status).toBe(401);
    const invited = await api<{ student: Student }>(base, 'POST', '/api/admin/students/invite', {
      token,
      body: { name: 'Ada Lovelace', email: 'ada.student@example.edu' },
    });
    expect(invited.status).toBe(201);
    const student = invited.body.student;
    expect(student.inviteUrl).toMatch(new RegExp(`/assessment/${student.inviteToken}$`));

    let mail: Mail | undefined;
    for (let i = 0; i < 100 && !mail; i++) {
      const inbox = await api<Mail[] | { mails: Mail[] }>(base, 'GET', '/dev/mail');
      const list = Array.isArray(inbox.body) ? inbox.body : inbox.body.mails;
      mail = list.find((m) => m.to.some((to) => to.includes('ada.student@example.edu')));
      if (!mail) await new Promise((r) => setTimeout(r, 100));
    }
    expect(mail).toBeDefined();
    // The sample assessment's title and time limit reach the mail through assessment's event.
    expect(mail!.text).toContain(student.inviteUrl);
    expect(mail!.text).toContain('It takes at most 30 minutes');

    const opened = await api<{ student: { name: string } }>(
      base,
      'GET',
      `/api/student/${student.inviteToken}`,
    );
    expect(opened.status).toBe(200);
    expect(opened.body.student.name).toBe('Ada Lovelace');

    const deliveries = await api<{ deliveries: Array<{ status: string }> }>(
      base,
      'GET',
      `/api/admin/notifications/deliveries?studentIds=${student._id}`,
      { token },
    );
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.deliveries[0]?.status).toBe('sent');
  });

  test('when an admin sends a reminder now, then the mail in the student’s language carries the same link, and a second one today is refused', async () => {
    const base = product.url;
    const token = (await api<{ token: string }>(base, 'POST', '/api/auth/login', { body: OWNER })).body.token;
    const email = 'rita.reminded@example.edu';
    const invited = await api<{ student: Student }>(base, 'POST', '/api/admin/students/invite', {
      token,
      body: { name: 'Rita Levi', email, language: 'es' },
    });
    const student = invited.body.student;
    const path = `/api/admin/students/${student._id}/remind`;
    expect((await api(base, 'POST', path, { token })).status).toBe(202);
    expect((await api<{ code: string }>(base, 'POST', path, { token })).body.code).toBe('reminded_today');

    let reminder: Mail | undefined;
    for (let i = 0; i < 100 && !reminder; i++) {
      const inbox = await api<Mail[] | { mails: Mail[] }>(base, 'GET', '/dev/mail');
      const list = Array.isArray(inbox.body) ? inbox.body : inbox.body.mails;
      reminder = list.find(
        (m) => m.to.some((to) => to.includes(email)) && m.subject.startsWith('Recordatorio'),
      );
      if (!reminder) await new Promise((r) => setTimeout(r, 100));
    }
    expect(reminder?.text).toContain(student.inviteUrl);
  });

  test('when an invited student takes the seeded assessment, then a reload resumes it and the submit is accepted', async () => {
    const base = product.url;
    const login = await api<{ token: string }>(base, 'POST', '/api/auth/login', { body: OWNER });
    const invited = await api<{ student: Student }>(base, 'POST', '/api/admin/students/invite', {
      token: login.body.token,
      body: { name: 'Grace Hopper', email: 'grace.student@example.edu' },
    });
    const link = `/api/student/${invited.body.student.inviteToken}`;
    interface Page {
      assessment: { questions: Array<{ id: string; type: string; options: Array<{ id: string }> }> };
      attempt: { id: string; deadlineAt: string; answers: unknown[] } | null;
    }
    const welcome = await api<Page>(base, 'GET', `${link}/assessment`);
    expect(welcome.status).toBe(200);
    expect(welcome.body.attempt).toBeNull();
    expect(JSON.stringify(welcome.body)).not.toContain('correctAnswer');

    const started = await api<{ attempt: { id: string; deadlineAt: string } }>(base, 'POST', `${link}/start`);
    expect(started.status).toBe(201);
    const answers = welcome.body.assessment.questions
      .filter((q) => q.type !== 'file_upload')
      .map((q) => ({ questionId: q.id, answer: q.type === 'yes_no' ? 'yes' : q.options[0]!.id }));
    const saved = await api<{ seq: number }>(base, 'PUT', `${link}/answers`, {
      body: { attemptId: started.body.attempt.id, seq: 1, answers },
    });
    expect(saved.body.seq).toBe(1);

    const resumed = await api<Page>(base, 'GET', `${link}/assessment`);
    expect(resumed.body.attempt).toMatchObject({
      id: started.body.attempt.id,
      deadlineAt: started.body.attempt.deadlineAt,
      answers,
    });

    const submitted = await api<{ message: string }>(base, 'POST', `${link}/submit`, {
      body: {
        attemptId: started.body.attempt.id,
        answers,
        timeSpent: 1,
        startedAt: new Date().toISOString(),
      },
    });
    expect([200, 202]).toContain(submitted.status);
    expect(submitted.body.message).toBe('Assessment submitted successfully!');
  });
});
