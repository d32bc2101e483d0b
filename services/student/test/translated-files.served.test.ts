import { eventually } from '@readiness/testing';
import { sql } from 'drizzle-orm';
import { inviteStudent, publishVersion, studentCall, useStudent } from './harness';

jest.setTimeout(60_000);

/*
 * A question's downloadable file per language (issue 27 item 4): the student service keeps each language's file
 * with its copy of the version and serves it with the page load, with the url the English file has.
 */

const h = useStudent('embedded', { config: { SUBMIT_RESULT_WAIT_MS: 0 }, version: false });

const SPANISH_FILE = {
  filename: '0b6f7c1e-3d6a-4a52-9d0e-6f1f2a3b4c5d.pdf',
  originalName: 'Plantilla de escritura.pdf',
  size: 2048n,
  mimetype: 'application/pdf',
};

test('when a version offers a question file in Spanish, then the page load serves it per language with its url, and the other languages keep the English file', async () => {
  await publishVersion(h, {
    translations: [
      {
        language: 'es',
        title: 'Prueba',
        description: '',
        sections: [],
        questions: [
          {
            id: 'q3',
            question: '',
            options: [],
            fileInstructions: 'Complete la plantilla',
            downloadableFile: SPANISH_FILE,
          },
        ],
      },
      { language: 'fr', title: 'Test', description: '', sections: [], questions: [] },
    ],
  } as never);
  const s = await inviteStudent(h);
  // Served with the questions, which come with Start (issue 43 item 2).
  const started = await studentCall(h, 'POST', `/api/student/${s.token}/start`);
  expect(started.status).toBe(201);
  const page = await studentCall(h, 'GET', `/api/student/${s.token}/assessment`);
  expect(page.status).toBe(200);
  const { assessment } = page.json;
  expect(assessment.translations.es.questions.q3).toEqual({
    fileInstructions: 'Complete la plantilla',
    downloadableFile: {
      filename: SPANISH_FILE.filename,
      originalName: 'Plantilla de escritura.pdf',
      size: 2048,
      mimetype: 'application/pdf',
      // Served where the English file is: the assessment service serves every file a version refers to.
      url: `/api/assessment/files/${SPANISH_FILE.filename}`,
    },
  });
  // French has no file of its own: the page offers the English one, which is the question's.
  expect(assessment.translations.fr).toEqual({ title: 'Test' });
  expect(assessment.questions.find((q: { id: string }) => q.id === 'q3').downloadableFile).toEqual({
    filename: 'seed-template.docx',
    originalName: 'Template.docx',
    size: 1234,
    mimetype: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    url: '/api/assessment/files/seed-template.docx',
  });

  // Still one statement for the page, and the answers (option ids, a file answer) are scored as before.
  await eventually(
    async () => (await h.database.execute(sql`SELECT 1 FROM outbox WHERE sent_at IS NULL`)).length === 0,
    'the outbox relayed',
  );
  const { value, queries } = await h.countQueries(() =>
    studentCall(h, 'GET', `/api/student/${s.token}/assessment`),
  );
  expect(value.json.assessment.translations.es.questions.q3.downloadableFile.url).toBe(
    `/api/assessment/files/${SPANISH_FILE.filename}`,
  );
  expect(queries).toBe(1);
});

test('when a version comes from a publisher without translated files, then every language offers the English file', async () => {
  await publishVersion(h, {
    translations: [
      {
        language: 'ar',
        title: 'اختبار',
        description: '',
        sections: [],
        questions: [{ id: 'q3', question: '', options: [], fileInstructions: 'املأ القالب' }],
      },
    ],
  } as never);
  const s = await inviteStudent(h);
  const { assessment } = (await studentCall(h, 'POST', `/api/student/${s.token}/start`)).json;
  expect(assessment.translations.ar.questions.q3).toEqual({ fileInstructions: 'املأ القالب' });
  expect(assessment.questions.find((q: { id: string }) => q.id === 'q3').downloadableFile.url).toBe(
    '/api/assessment/files/seed-template.docx',
  );
});
