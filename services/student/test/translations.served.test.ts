import { QuestionType } from '@readiness/contracts';
import { eventually } from '@readiness/testing';
import { sql } from 'drizzle-orm';
import { inviteStudent, publishVersion, studentCall, useStudent } from './harness';

jest.setTimeout(60_000);

const h = useStudent('embedded', { config: { SUBMIT_RESULT_WAIT_MS: 0 }, version: false });

test('when a version carries translations, then the student page serves every language at once, answer key left out, in one statement', async () => {
  await publishVersion(h, {
    practiceQuestion: {
      id: 'practice',
      type: QuestionType.MULTIPLE_CHOICE,
      question: 'Which is a browser?',
      correctAnswer: 'p1',
      options: [
        { id: 'p1', text: 'Firefox' },
        { id: 'p2', text: 'A printer' },
      ],
    },
    translations: [
      {
        language: 'es',
        title: 'Prueba de preparación',
        description: '',
        sections: [{ id: 1, title: 'Informática', description: '' }],
        questions: [
          {
            id: 'q2',
            question: '¿Cuántas horas por semana puede estudiar?',
            options: [{ id: 'opt-secret-key', text: 'Más de 10' }],
            fileInstructions: '',
          },
          { id: 'q3', question: '', options: [], fileInstructions: 'Complete la plantilla y súbala' },
        ],
        practiceQuestion: {
          id: 'practice',
          question: '¿Cuál es un navegador?',
          options: [{ id: 'p2', text: 'Una impresora' }],
          fileInstructions: '',
        },
      },
      {
        language: 'ar',
        title: 'اختبار الجاهزية',
        description: 'هل أنت مستعد للتعليم عن بعد؟',
        sections: [],
        questions: [],
      },
    ],
  } as never);
  const s = await inviteStudent(h);
  // Before Start the titles and the practice question only: no question's texts (issue 43 item 2).
  const welcome = await studentCall(h, 'GET', `/api/student/${s.token}/assessment`);
  expect(welcome.status).toBe(200);
  expect(welcome.json.assessment.translations.es.questions).toBeUndefined();
  expect(welcome.json.assessment.translations.es.practiceQuestion.question).toBe('¿Cuál es un navegador?');
  await studentCall(h, 'POST', `/api/student/${s.token}/start`);
  const page = await studentCall(h, 'GET', `/api/student/${s.token}/assessment`);
  expect(page.status).toBe(200);
  // Texts left empty are missing (the page shows English); option ids stay the answers.
  expect(page.json.assessment.translations).toEqual({
    es: {
      title: 'Prueba de preparación',
      sections: { '1': { title: 'Informática' } },
      questions: {
        q2: {
          question: '¿Cuántas horas por semana puede estudiar?',
          options: { 'opt-secret-key': 'Más de 10' },
        },
        q3: { fileInstructions: 'Complete la plantilla y súbala' },
      },
      practiceQuestion: { question: '¿Cuál es un navegador?', options: { p2: 'Una impresora' } },
    },
    ar: { title: 'اختبار الجاهزية', description: 'هل أنت مستعد للتعليم عن بعد؟' },
  });
  expect(JSON.stringify(page.json.assessment.questions)).not.toContain('correctAnswer');
  expect(JSON.stringify(page.json.assessment.translations)).not.toContain('correctAnswer');

  // The page that loads a translated version still costs one statement (the relay's are not the page's).
  await eventually(
    async () => (await h.database.execute(sql`SELECT 1 FROM outbox WHERE sent_at IS NULL`)).length === 0,
    'the outbox relayed',
  );
  const { value, queries } = await h.countQueries(() =>
    studentCall(h, 'GET', `/api/student/${s.token}/assessment`),
  );
  expect(value.json.assessment.translations.es.title).toBe('Prueba de preparación');
  expect(queries).toBe(1);

  // A version without translations serves none.
  await publishVersion(h);
  const later = await inviteStudent(h);
  expect(
    (await studentCall(h, 'GET', `/api/student/${later.token}/assessment`)).json.assessment.translations,
  ).toEqual({});
});
