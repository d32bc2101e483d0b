import { unzipSync } from 'fflate';
import { api, SEED as OWNER, sharedOrOwnProduct, type RunningProduct } from './launcher';

jest.setTimeout(180_000);

interface Student {
  _id: string;
  name: string;
  email: string;
  inviteToken: string;
}

interface Question {
  id: string;
  type: 'multiple_choice' | 'yes_no' | 'file_upload';
  options?: Array<{ id: string }>;
  correctAnswer?: string;
}

interface ExportStatus {
  export: { id: string; ready: boolean; received: string[]; waitingFor: string[] };
}

const SERVICES = ['auth', 'integrations', 'notification', 'report', 'results'];

async function eventually<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * One attempt through the student API: every question answered wrong (a fail) or right with the file uploaded (a
 * pass); the result is waited for.
 */
async function takeAttempt(base: string, student: Student, questions: Question[], pass: boolean) {
  const link = `/api/student/${student.inviteToken}`;
  const started = await api<{ attempt: { id: string } }>(base, 'POST', `${link}/start`);
  expect(started.status).toBe(201);
  const attemptId = started.body.attempt.id;
  // The paper of this attempt (the shared product's active version may have been changed by earlier files).
  const page = await api<{ assessment: { questions: Array<{ id: string; type: string }> } }>(
    base,
    'GET',
    `${link}/assessment`,
  );
  const onPaper = new Set(page.body.assessment.questions.map((q) => q.id));
  const uploads = page.body.assessment.questions.filter((q) => q.type === 'file_upload').map((q) => q.id);
  if (pass) {
    expect(uploads.length).toBeGreaterThan(0);
    for (const questionId of uploads) {
      const form = new FormData();
      form.set('attemptId', attemptId);
      form.set('questionId', questionId);
      form.set(
        'file',
        new Blob(['I want to study online because it fits my work.\n'], { type: 'text/plain' }),
        'why online.txt',
      );
      const uploaded = await fetch(`${base}${link}/files`, { method: 'POST', body: form });
      expect({ status: uploaded.status, body: await uploaded.text() }).toMatchObject({ status: 201 });
    }
  }
  const answers = questions
    .filter((q) => q.type !== 'file_upload' && onPaper.has(q.id))
    .map((q) => {
      if (pass) return { questionId: q.id, answer: q.correctAnswer! };
      const wrong = q.type === 'yes_no' ? (q.correctAnswer === 'yes' ? 'no' : 'yes') : undefined;
      return { questionId: q.id, answer: wrong ?? q.options!.find((o) => o.id !== q.correctAnswer)!.id };
    });
  const submitted = await api(base, 'POST', `${link}/submit`, {
    body: { attemptId, answers, timeSpent: 2, startedAt: new Date().toISOString() },
  });
  expect([200, 202]).toContain(submitted.status);
  const result = await eventually('the result', async () => {
    const found = await api<{ results: Array<{ attemptId: string; passed: boolean }> }>(
      base,
      'GET',
      `${link}/results`,
    );
    return found.body.results?.find((r) => r.attemptId === attemptId);
  });
  return { ...result, uploads };
}

describe('a student’s data export in `make start`', () => {
  let product: RunningProduct;

  beforeAll(async () => {
    product = await sharedOrOwnProduct();
  });
  afterAll(async () => {
    await product?.stop();
  });

  test('when an admin exports a student with two attempts, then the ZIP holds every service’s part, their files and certificate, nothing of another student, and the request is audited', async () => {
    const base = product.url;
    const token = (await api<{ token: string }>(base, 'POST', '/api/auth/login', { body: OWNER })).body.token;
    const questions = (
      await api<{ assessment: { questions: Question[] } }>(base, 'GET', '/api/assessment', { token })
    ).body.assessment.questions;
    const invite = async (name: string, email: string) =>
      (
        await api<{ student: Student }>(base, 'POST', '/api/admin/students/invite', {
          token,
          body: { name, email },
        })
      ).body.student;
    const run = Date.now().toString(36);
    const mary = await invite('Mary Exported', `mary.exported.${run}@example.edu`);
    const other = await invite(`Otto Other ${run}`, `otto.other.${run}@example.edu`);

    const failed = await takeAttempt(base, mary, questions, false);
    expect(failed.passed).toBe(false);
    const passed = await takeAttempt(base, mary, questions, true);
    expect(passed.passed).toBe(true);
    await takeAttempt(base, other, questions, true);
    // The certificate is issued (and mailed) before the export is asked for, so its PDF is in it.
    await eventually('the certificate mail', async () => {
      const inbox = await api<
        Array<{ to: string[]; subject: string }> | { mails: Array<{ to: string[]; subject: string }> }
      >(base, 'GET', '/dev/mail');
      const mails = Array.isArray(inbox.body) ? inbox.body : inbox.body.mails;
      return mails.find((m) => m.to.some((to) => to.includes(mary.email)) && /certificate/i.test(m.subject));
    });

    const path = `/api/admin/students/${mary._id}/export`;
    expect((await api(base, 'GET', path)).status).toBe(401);
    expect((await api<{ code: string }>(base, 'GET', `${path}/status`, { token })).body.code).toBe(
      'export_not_found',
    );
    expect(
      (await api(base, 'POST', '/api/admin/students/00000000-0000-4000-8000-000000000000/export', { token }))
        .status,
    ).toBe(404);
    expect((await api(base, 'GET', '/api/admin/students/not-a-student/export', { token })).status).toBe(404);

    const requested = await api<ExportStatus>(base, 'POST', path, { token });
    expect(requested.status).toBe(202);
    // Asked again while it gathers: the same export, not a second round of questions to every service.
    const again = await api<ExportStatus>(base, 'POST', path, { token });
    expect(again.body.export.id).toBe(requested.body.export.id);

    const ready = await eventually('the export', async () => {
      const status = await api<ExportStatus>(base, 'GET', `${path}/status`, { token });
      return status.body.export.ready ? status.body.export : undefined;
    });
    expect(ready.received.sort()).toEqual(SERVICES);
    expect(ready.waitingFor).toEqual([]);

    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="Mary-Exported-data-\d{4}-\d{2}-\d{2}\.zip"/,
    );
    const zip = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const text = (name: string) => {
      expect(Object.keys(zip)).toContain(name);
      return Buffer.from(zip[name]!).toString('utf8');
    };
    const json = <T>(name: string) => JSON.parse(text(name)) as T;

    const readme = text('README.txt');
    for (const folder of ['student', ...SERVICES]) expect(readme).toContain(`${folder}/`);
    expect(json<{ email: string }>('student/student.json').email).toBe(mary.email);
    expect(
      json<Array<{ attempt_number: number }>>('student/attempts.json').map((a) => a.attempt_number),
    ).toEqual([1, 2]);
    for (const questionId of passed.uploads) {
      expect(text(`student/files/attempt-2/${questionId}-why-online.txt`)).toContain('fits my work');
    }
    const results = json<Array<{ passed: boolean; assessment_code: string }>>('results/results.json');
    expect(results.map((r) => r.passed)).toEqual([false, true]);
    expect(json<unknown[]>('report/results.json')).toHaveLength(2);
    const certificates = json<Array<{ code: string }>>('report/certificates.json');
    expect(certificates).toHaveLength(1);
    const pdf = Buffer.from(zip[`report/certificates/${certificates[0]!.code}.pdf`]!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const [credential] = json<Array<{ credential: string }>>('report/open-badges.json');
    const checked = await api<{ status: string }>(base, 'POST', '/api/verify/credential', {
      body: { credential: credential!.credential },
    });
    expect(checked.body.status).toBe('genuine');
    const mails = json<Array<{ template: string; recipient: string }>>('notification/mails.json');
    expect(mails.map((m) => m.template)).toEqual(
      expect.arrayContaining(['student-invitation', 'certificate-issued']),
    );
    expect(mails.every((m) => m.recipient === mary.email)).toBe(true);
    expect(json<unknown[]>('integrations/lms-launches.json')).toEqual([]);
    const audit = json<Array<{ action: string }>>('auth/audit-log.json');
    expect(audit.map((a) => a.action)).toContain('student.invited');

    // Nothing of the other student, in any file.
    for (const [name, bytes] of Object.entries(zip)) {
      if (name.endsWith('.pdf')) continue;
      const content = Buffer.from(bytes).toString('utf8');
      for (const trace of [other._id, other.email, other.name])
        expect({ name, has: content.includes(trace) }).toEqual({ name, has: false });
    }

    const trail = await eventually('the audit entry', async () => {
      const log = await api<{ entries: Array<{ action: string; target?: { id?: string } | null }> }>(
        base,
        'GET',
        '/api/admin/audit-log?action=student.data-exported',
        { token },
      );
      return log.body.entries?.find(
        (e) => e.action === 'student.data-exported' && JSON.stringify(e).includes(mary.email),
      );
    });
    expect(trail).toBeDefined();

    // Erasing the student erases the export with them.
    expect((await api(base, 'DELETE', `/api/admin/students/${mary._id}`, { token })).status).toBe(200);
    expect((await api(base, 'GET', `${path}/status`, { token })).status).toBe(404);
  });
});
