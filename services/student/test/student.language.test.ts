import { sql } from 'drizzle-orm';
import { eventually } from '@readiness/testing';
import { inviteStudent, publishVersion, studentCall, useStudent } from './harness';

jest.setTimeout(60_000);

/*
 * Every student in their own language (issue 27): chosen by an administrator at invitation (form or CSV), else the
 * browser's Accept-Language, switched by the student and kept with the attempt, carried to the mails' and the
 * result's events.
 */
const h = useStudent('embedded', { config: { SUBMIT_RESULT_WAIT_MS: 0 } });

const page = (token: string, acceptLanguage?: string) =>
  studentCall(
    h,
    'GET',
    `/api/student/${token}/assessment`,
    undefined,
    acceptLanguage ? { 'accept-language': acceptLanguage } : {},
  );

const invitedEvent = (studentId: string) =>
  eventually(
    () => h.eventsNamed('student.student.invited.v1').find((e) => e.payload.studentId === studentId) ?? false,
    'the invitation event',
  );

test("the administrator's choice wins over the browser's; without one the browser's best match, else English", async () => {
  const arabic = await inviteStudent(h, { language: 'ar' });
  expect((await page(arabic.token, 'fr-FR,fr;q=0.9,en;q=0.5')).json.language).toBe('ar');
  expect((await invitedEvent(arabic.id)).payload.language).toBe('ar');

  const open = await inviteStudent(h);
  expect((await invitedEvent(open.id)).payload.language).toBe('');
  expect((await page(open.token, 'pt-BR,pt;q=0.9')).json.language).toBe('pt');
  expect((await page(open.token, 'de-DE, es;q=0.4')).json.language).toBe('es');
  expect((await page(open.token, 'de-DE,ja')).json.language).toBe('en');
  expect((await page(open.token)).json.language).toBe('en');
  // Nothing the browser asks is kept: only a choice is.
  const [row] = await h.database.execute<{ language: string | null }>(
    sql`SELECT language FROM students WHERE id = ${open.id}::uuid`,
  );
  expect(row!.language).toBeNull();
});

test('bad languages are refused with a clear message and change nothing', async () => {
  for (const language of ['de', 'EN-us', 'ar\u202e', 42]) {
    const res = await h.call('POST', '/api/admin/students/invite', {
      body: {
        name: 'Lang Tester',
        email: `lang-${String(language).length}-${Date.now()}@example.edu`,
        language,
      },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      'Language must be one of en, es, fr, pt, ar',
    );
  }
  const s = await inviteStudent(h, { language: 'FR' });
  expect((await page(s.token)).json.language).toBe('fr');
  for (const language of ['klingon', '', null, 'ar; DROP TABLE students']) {
    const res = await studentCall(h, 'PUT', `/api/student/${s.token}/language`, { language });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('Language must be one of en, es, fr, pt, ar');
  }
  expect((await page(s.token)).json.language).toBe('fr');
  const unknown = await studentCall(h, 'PUT', `/api/student/not-a-token/language`, { language: 'es' });
  expect(unknown.status).toBe(404);
});

test('the CSV names a language per student; an empty cell leaves it to the browser', async () => {
  const stamp = Date.now();
  const res = await h.importCsv(
    `name,email,language\nAna Souza,ana-${stamp}@example.edu,pt\nBo Li,bo-${stamp}@example.edu,\nCarl Z,carl-${stamp}@example.edu,de\n`,
  );
  const body = (await res.json()) as { imported: number; problems: { line: number; message: string }[] };
  // The bad row is named by its line and the rule; the good ones are invited.
  expect(body.problems).toEqual([
    expect.objectContaining({ line: 4, message: 'Language must be one of en, es, fr, pt, ar' }),
  ]);
  expect(body.imported).toBe(2);
  const rows = await h.database.execute<{ email: string; language: string | null }>(
    sql`SELECT email, language FROM students WHERE email LIKE ${`%-${stamp}@example.edu`} ORDER BY email`,
  );
  expect(rows.map((r) => r.language)).toEqual(['pt', null]);
});

test("a switch mid-attempt keeps every answer and goes with the attempt's result; Start takes the browser's language", async () => {
  const s = await inviteStudent(h);
  const started = await studentCall(h, 'POST', `/api/student/${s.token}/start`, undefined, {
    'accept-language': 'ar,en;q=0.5',
  });
  expect(started.status).toBe(201);
  const attemptId = started.json.attempt.id as string;
  // The attempt is taken in the browser's language, so a reload from another browser shows it too.
  expect((await page(s.token, 'en')).json.language).toBe('ar');

  const saved = await studentCall(h, 'PUT', `/api/student/${s.token}/answers`, {
    attemptId,
    seq: 1,
    answers: [{ questionId: 'q1', answer: 'yes' }],
  });
  expect(saved.status).toBe(200);
  const switched = await studentCall(h, 'PUT', `/api/student/${s.token}/language`, { language: 'fr' });
  expect(switched).toEqual({ status: 200, json: { language: 'fr' } });

  const after = (await page(s.token, 'ar')).json;
  expect(after.language).toBe('fr');
  expect(after.attempt.answers).toEqual([{ questionId: 'q1', answer: 'yes' }]);
  expect(after.attempt.id).toBe(attemptId);

  await studentCall(h, 'POST', `/api/student/${s.token}/submit`, {
    attemptId,
    answers: [{ questionId: 'q1', answer: 'yes' }],
  });
  const submitted = await eventually(
    () =>
      h.eventsNamed('student.attempt.submitted.v1').find((e) => e.payload.attemptId === attemptId) ?? false,
    'the submitted event',
  );
  expect(submitted.payload.language).toBe('fr');
  // The student keeps the choice: a resent invitation or a retake follows it.
  const resent = await h.call('POST', `/api/admin/students/${s.id}/resend-assessment`);
  expect(resent.status).toBe(200);
  const mail = await eventually(
    () => h.eventsNamed('student.invitation.resent.v1').find((e) => e.payload.studentId === s.id) ?? false,
    'the resent invitation',
  );
  expect(mail.payload.language).toBe('fr');
  const listed = await h.call(
    'GET',
    `/api/admin/students?search=${encodeURIComponent(submitted.payload.email)}`,
  );
  const students = ((await listed.json()) as { students: { _id: string; language: string | null }[] })
    .students;
  expect(students.find((x) => x._id === s.id)?.language).toBe('fr');
});

test('parallel switches leave one of the languages asked for on the student and the attempt alike', async () => {
  const s = await inviteStudent(h);
  const started = await studentCall(h, 'POST', `/api/student/${s.token}/start`);
  const languages = ['es', 'fr', 'pt', 'ar', 'en', 'es', 'fr', 'pt', 'ar', 'en'];
  const answers = await Promise.all(
    languages.map((language) => studentCall(h, 'PUT', `/api/student/${s.token}/language`, { language })),
  );
  expect(answers.every((a) => a.status === 200)).toBe(true);
  const [row] = await h.database.execute<{ student: string; attempt: string }>(
    sql`SELECT s.language AS student, a.language AS attempt FROM students s JOIN attempts a ON a.student_id = s.id
        WHERE a.id = ${started.json.attempt.id}::uuid`,
  );
  expect(row!.student).toBe(row!.attempt);
  expect(languages).toContain(row!.student);
});

describe("the invitation names the assessment in the student's language", () => {
  const ENGLISH = 'Readiness check';
  const SPANISH = 'Prueba de preparación';
  const ARABIC = 'اختبار الجاهزية';
  /** Titled in Spanish and Arabic; French only blank (missing); no Portuguese. */
  const translated = () =>
    publishVersion(h, {
      translations: [
        { language: 'es', title: SPANISH, description: '', sections: [], questions: [] },
        { language: 'ar', title: ARABIC, description: '', sections: [], questions: [] },
        { language: 'fr', title: '   ', description: 'Êtes-vous prêt ?', sections: [], questions: [] },
      ],
    } as never);

  const titlesOf = async (studentId: string) => {
    const { payload } = await invitedEvent(studentId);
    return { english: payload.assessmentTitle, localized: payload.localizedTitle };
  };

  test('when students are invited by the form, then each event carries the title in their language, else the English one', async () => {
    await translated();
    const arabic = await inviteStudent(h, { language: 'ar' });
    expect(await titlesOf(arabic.id)).toEqual({ english: ENGLISH, localized: ARABIC });
    // English chosen, none chosen, a blank translation (French) and none at all (Portuguese): the English title.
    for (const language of ['en', undefined, 'fr', 'pt']) {
      const s = await inviteStudent(h, language ? { language } : {});
      expect(await titlesOf(s.id)).toEqual({ english: ENGLISH, localized: ENGLISH });
    }
  });

  test('when a CSV is imported, then every row gets the title in its own language, in one transaction', async () => {
    await translated();
    const stamp = Date.now();
    const res = await h.importCsv(
      [
        'name,email,language',
        `Lucía Gómez,lucia-${stamp}@example.edu,es`,
        `Omar Haddad,omar-${stamp}@example.edu,ar`,
        `Pat Doe,pat-${stamp}@example.edu,`,
        `Eve Roe,eve-${stamp}@example.edu,en`,
        `João Lima,joao-${stamp}@example.edu,pt`,
      ].join('\n'),
    );
    expect(((await res.json()) as { imported: number }).imported).toBe(5);
    const rows = await h.database.execute<{ id: string; email: string }>(
      sql`SELECT id::text AS id, email FROM students WHERE email LIKE ${`%-${stamp}@example.edu`}`,
    );
    const byName = Object.fromEntries(rows.map((r) => [r.email.split('-')[0], r.id]));
    expect(await titlesOf(byName.lucia!)).toEqual({ english: ENGLISH, localized: SPANISH });
    expect(await titlesOf(byName.omar!)).toEqual({ english: ENGLISH, localized: ARABIC });
    for (const who of ['pat', 'eve', 'joao']) {
      expect(await titlesOf(byName[who]!)).toEqual({ english: ENGLISH, localized: ENGLISH });
    }
  });

  test('when the active version has no translations, then an Arabic student is invited with the English title', async () => {
    await publishVersion(h);
    const s = await inviteStudent(h, { language: 'ar' });
    expect(await titlesOf(s.id)).toEqual({ english: ENGLISH, localized: ENGLISH });
  });

  test('when a student switches language and is sent the invitation again, then the reminder names the assessment in the new language', async () => {
    await translated();
    const s = await inviteStudent(h, { language: 'es' });
    expect(await titlesOf(s.id)).toEqual({ english: ENGLISH, localized: SPANISH });
    const resent = async () => {
      const res = await h.call('POST', `/api/admin/students/${s.id}/resend-assessment`);
      expect(res.status).toBe(200);
      const before = h
        .eventsNamed('student.invitation.resent.v1')
        .filter((e) => e.payload.studentId === s.id);
      return eventually(() => {
        const all = h.eventsNamed('student.invitation.resent.v1').filter((e) => e.payload.studentId === s.id);
        return all.length > before.length ? all[all.length - 1]! : false;
      }, 'the resent invitation');
    };
    expect((await studentCall(h, 'PUT', `/api/student/${s.token}/language`, { language: 'ar' })).status).toBe(
      200,
    );
    const arabic = await resent();
    expect(arabic.payload).toMatchObject({
      language: 'ar',
      assessmentTitle: ENGLISH,
      localizedTitle: ARABIC,
    });
    await studentCall(h, 'PUT', `/api/student/${s.token}/language`, { language: 'en' });
    const english = await resent();
    expect(english.payload).toMatchObject({
      language: 'en',
      assessmentTitle: ENGLISH,
      localizedTitle: ENGLISH,
    });
  });
});
