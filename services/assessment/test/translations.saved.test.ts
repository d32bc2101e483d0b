import { contentTranslations, TRANSLATION_LANGUAGES, type ContentTranslations } from '@readiness/contracts';
import { eventually } from '@readiness/testing';
import {
  adminToken,
  sampleAssessment,
  samplePracticeQuestion,
  startAssessment,
  type Harness,
} from './harness';

jest.setTimeout(90_000);

let h: Harness;
const token = adminToken();

beforeAll(async () => {
  h = await startAssessment('embedded');
});
afterAll(() => h?.close());

interface Served {
  id: string;
  version: number;
  title: string;
  description: string;
  sections: Array<{ id: number; title: string; description: string }>;
  questions: Array<{
    id: string;
    type: string;
    question: string;
    options?: Array<{ id: string; text: string }>;
    fileInstructions?: string;
  }>;
  practiceQuestion: { question: string; options: Array<{ id: string; text: string }> } | null;
  translations: ContentTranslations;
}

const current = async () =>
  ((await (await h.call('GET', '/api/assessment', { token })).json()) as { assessment: Served }).assessment;

const save = async (translations: unknown, overrides: Record<string, unknown> = {}) => {
  const before = await h.call('GET', '/api/assessment', { token });
  const baseVersion =
    before.status === 200 ? ((await before.json()) as { assessment: Served }).assessment.version : undefined;
  return h.call('PUT', '/api/assessment', {
    token,
    body: {
      ...sampleAssessment({ practiceQuestion: samplePracticeQuestion, ...overrides }),
      translations,
      baseVersion,
    },
  });
};

test('when a version carries translations, then they are saved without their empty texts, served on every read and published whole', async () => {
  const res = await save({
    es: {
      title: '  Prueba de preparación ',
      description: '',
      sections: { '1': { title: 'Tecnología', description: '   ' }, '2': { title: '' } },
      questions: {
        q1: { question: '¿Tiene una computadora?' },
        q2: { question: '¿Con qué frecuencia estudia?', options: { a: 'Nunca', b: '' } },
        q3: { fileInstructions: 'Una foto o un PDF' },
      },
      practiceQuestion: { question: '¿Cuál de estos es un navegador web?', options: { p2: 'Una impresora' } },
    },
    ar: { title: 'اختبار الجاهزية', questions: { q1: { question: '' } } },
    // A language with nothing translated is no language.
    fr: { title: '', sections: {} },
  });
  expect(res.status).toBe(200);
  const expected = {
    es: {
      title: 'Prueba de preparación',
      sections: { '1': { title: 'Tecnología' } },
      questions: {
        q1: { question: '¿Tiene una computadora?' },
        q2: { question: '¿Con qué frecuencia estudia?', options: { a: 'Nunca' } },
        q3: { fileInstructions: 'Una foto o un PDF' },
      },
      practiceQuestion: { question: '¿Cuál de estos es un navegador web?', options: { p2: 'Una impresora' } },
    },
    ar: { title: 'اختبار الجاهزية' },
  };
  const saved = ((await res.json()) as { assessment: Served }).assessment;
  expect(saved.translations).toEqual(expected);
  // The English text stays the version's own.
  expect(saved.title).toBe('Readiness check');
  expect((await current()).translations).toEqual(expected);
  const byNumber = await h.call('GET', `/api/assessment/versions/${saved.version}`, { token });
  expect(((await byNumber.json()) as { assessment: Served }).assessment.translations).toEqual(expected);

  const event = await eventually(
    () => h.published.find((e) => e.versionId === saved.id) ?? false,
    'the published version',
  );
  expect(event.translations.map((t) => t.language)).toEqual(['es', 'ar']);
  expect(event.translations[0]).toMatchObject({
    language: 'es',
    title: 'Prueba de preparación',
    description: '',
    sections: [{ id: 1, title: 'Tecnología', description: '' }],
    questions: [
      { id: 'q1', question: '¿Tiene una computadora?', options: [], fileInstructions: '' },
      {
        id: 'q2',
        question: '¿Con qué frecuencia estudia?',
        options: [{ id: 'a', text: 'Nunca' }],
        fileInstructions: '',
      },
      { id: 'q3', question: '', options: [], fileInstructions: 'Una foto o un PDF' },
    ],
    practiceQuestion: {
      question: '¿Cuál de estos es un navegador web?',
      options: [{ id: 'p2', text: 'Una impresora' }],
    },
  });
  expect(event.translations[1]).toMatchObject({ language: 'ar', title: 'اختبار الجاهزية', questions: [] });
  // What consumers read back from the event (the student service keeps this) is what was saved.
  expect(contentTranslations(event.translations)).toEqual(expected);
  // The answer key is the English version's: option ids, whatever the language.
  expect(event.questions.find((q) => q.id === 'q2')!.correctAnswer).toBe('b');

  // A save without translations has none; making the translated version active again publishes them again.
  const plain = await save(undefined);
  expect(plain.status).toBe(200);
  expect((await current()).translations).toEqual({});
  const again = await h.call('POST', `/api/assessment/versions/${saved.version}/activate`, { token });
  expect(((await again.json()) as { assessment: Served }).assessment.translations).toEqual(expected);
  const republished = await eventually(
    () => h.published.filter((e) => e.versionId === saved.id)[1] ?? false,
    'the version published again',
  );
  expect(republished.translations.map((t) => t.language)).toEqual(['es', 'ar']);
});

const long = (n: number) => 'x'.repeat(n);

/** What is wrong, the translations, the message; the version's other fields when they matter. */
const refused: Array<[string, unknown, string, Record<string, unknown>]> = [
  [
    'a language is not one of es, fr, pt, ar',
    { de: { title: 'Bereitschaftstest' } },
    "Unknown translation language: de (translations are for es, fr, pt and ar; English is the version's own text)",
    {},
  ],
  [
    'English is given as a translation',
    { en: { title: 'Readiness' } },
    "Unknown translation language: en (translations are for es, fr, pt and ar; English is the version's own text)",
    {},
  ],
  [
    'a section is not the version’s',
    { es: { sections: { '9': { title: 'Otra' } } } },
    'Spanish translation: section 9 does not exist',
    {},
  ],
  [
    'a question is not the version’s',
    { fr: { questions: { q9: { question: 'Autre ?' } } } },
    'French translation: question q9 does not exist',
    {},
  ],
  [
    'an option is not the question’s',
    { pt: { questions: { q2: { options: { z: 'Às vezes' } } } } },
    'Portuguese translation: question q2 has no option z',
    {},
  ],
  [
    'a yes/no question is given options',
    { pt: { questions: { q1: { options: { yes: 'Sim' } } } } },
    'Portuguese translation: question q1 has no option yes',
    {},
  ],
  [
    'a question that takes no file is given file instructions',
    { es: { questions: { q1: { fileInstructions: 'Suba un PDF' } } } },
    'Spanish translation: question q1 is not a file upload question, so it has no file instructions',
    {},
  ],
  [
    'the practice question is translated where there is none',
    { ar: { practiceQuestion: { question: 'ما هو المتصفح؟' } } },
    'Arabic translation: the version has no practice question',
    { practiceQuestion: null },
  ],
  [
    'a practice option is not the practice question’s',
    { ar: { practiceQuestion: { options: { p9: 'طابعة' } } } },
    'Arabic translation: the practice question has no option p9',
    {},
  ],
  [
    'the title is longer than the English title may be',
    { es: { title: long(201) } },
    'Spanish translation: the title must be at most 200 characters',
    {},
  ],
  [
    'the description is longer than the English one may be',
    { fr: { description: long(5001) } },
    'French translation: the description must be at most 5000 characters',
    {},
  ],
  [
    'a section title is too long',
    { pt: { sections: { '2': { title: long(201) } } } },
    'Portuguese translation: the title of section 2 must be at most 200 characters',
    {},
  ],
  [
    'a section description is too long',
    { ar: { sections: { '1': { description: long(2001) } } } },
    'Arabic translation: the description of section 1 must be at most 2000 characters',
    {},
  ],
  [
    'a question text is too long',
    { es: { questions: { q1: { question: long(2001) } } } },
    'Spanish translation: the text of question q1 must be at most 2000 characters',
    {},
  ],
  [
    'an option text is too long',
    { fr: { questions: { q2: { options: { b: long(501) } } } } },
    'French translation: the text of option b of question q2 must be at most 500 characters',
    {},
  ],
  [
    'file instructions are too long',
    { pt: { questions: { q3: { fileInstructions: long(2001) } } } },
    'Portuguese translation: the file instructions of question q3 must be at most 2000 characters',
    {},
  ],
  [
    'the practice question text is too long',
    { ar: { practiceQuestion: { question: long(2001) } } },
    "Arabic translation: the practice question's text must be at most 2000 characters",
    {},
  ],
  [
    'a text holds a control character',
    { es: { title: 'Prueba\u0007' } },
    'Translated text must not contain control characters',
    {},
  ],
  ['a text is not a string', { es: { title: 7 } }, 'A translated text must be a string', {}],
];

test.each(refused)(
  'when %s, then the save answers 400 with its message and creates no version',
  async (_what, translations, message, overrides) => {
    const versions = async () =>
      ((await (await h.call('GET', '/api/assessment/versions', { token })).json()) as { versions: unknown[] })
        .versions.length;
    const before = await versions();
    const res = await save(translations, overrides);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(message);
    expect(await versions()).toBe(before);
  },
);

test('when some texts are not translated, then the save is allowed and keeps those it has', async () => {
  const res = await save({ pt: { title: 'Teste de prontidão' } });
  expect(res.status).toBe(200);
  expect((await current()).translations).toEqual({ pt: { title: 'Teste de prontidão' } });
});

type Texts = ContentTranslations['es'];

/** Every text a student reads in a version: where it is, its English, and its text in a translation. */
function texts(v: Served): Array<{ where: string; english: string; in: (t: Texts) => string | undefined }> {
  return [
    { where: 'title', english: v.title, in: (t: Texts) => t?.title },
    { where: 'description', english: v.description, in: (t: Texts) => t?.description },
    ...v.sections.flatMap((s) => [
      { where: `section ${s.id} title`, english: s.title, in: (t: Texts) => t?.sections?.[s.id]?.title },
      {
        where: `section ${s.id} description`,
        english: s.description,
        in: (t: Texts) => t?.sections?.[s.id]?.description,
      },
    ]),
    ...v.questions.flatMap((q) => [
      { where: `${q.id} text`, english: q.question, in: (t: Texts) => t?.questions?.[q.id]?.question },
      ...(q.options ?? []).map((o) => ({
        where: `${q.id} option ${o.id}`,
        english: o.text,
        in: (t: Texts) => t?.questions?.[q.id]?.options?.[o.id],
      })),
      ...(q.type === 'file_upload'
        ? [
            {
              where: `${q.id} file instructions`,
              english: q.fileInstructions ?? '',
              in: (t: Texts) => t?.questions?.[q.id]?.fileInstructions,
            },
          ]
        : []),
    ]),
  ];
}

test('when the service seeds the sample assessment, then every text of it is translated into Spanish, French, Portuguese and Arabic', async () => {
  const seeded = await startAssessment('embedded', { config: { ASSESSMENT_SEED: 'true' } });
  try {
    const { assessment } = (await (await seeded.call('GET', '/api/assessment', { token })).json()) as {
      assessment: Served;
    };
    const all = texts(assessment);
    // 1 title, 1 description, 4 sections of 2 texts, 16 questions, 18 options, 2 file instructions.
    expect(all).toHaveLength(46);
    for (const language of TRANSLATION_LANGUAGES) {
      const t = assessment.translations[language];
      const missing = all.filter((x) => !x.in(t)?.trim()).map((x) => x.where);
      expect({ language, missing }).toEqual({ language, missing: [] });
      // A translation, not the English text again.
      const same = all.filter((x) => x.in(t) === x.english).map((x) => x.where);
      expect({ language, same }).toEqual({ language, same: [] });
    }
    const [event] = await eventually(
      () => (seeded.published.length ? seeded.published : false),
      'the seed event',
    );
    expect(event!.translations.map((t) => t.language)).toEqual(['es', 'fr', 'pt', 'ar']);
  } finally {
    await seeded.close();
  }
});
