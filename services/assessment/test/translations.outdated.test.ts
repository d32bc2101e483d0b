import { sql } from 'drizzle-orm';
import { SECTIONS } from '@readiness/testing/fixtures';
import { adminToken, sampleAssessment, startAssessment, type Harness } from './harness';

jest.setTimeout(60_000);

const token = adminToken();
let h: Harness;
beforeAll(async () => {
  h = await startAssessment('embedded');
});
afterAll(() => h?.close());

type Paths = Partial<Record<'es' | 'fr' | 'pt' | 'ar', string[][]>>;
interface Served {
  version: number;
  translations: Record<string, unknown>;
  outdatedTranslations: Paths;
}

/** The active version; undefined before the first save. */
const current = async () =>
  ((await (await h.call('GET', '/api/assessment', { token })).json()) as { assessment?: Served }).assessment;

const SPANISH = {
  title: 'Prueba de preparación',
  sections: { '1': { title: 'Tecnología' } },
  questions: {
    q1: { question: '¿Tiene una computadora?' },
    q2: { options: { a: 'Nunca' } },
  },
};
const ARABIC = { questions: { q1: { question: 'هل تملك حاسوبًا؟' } } };

/** Saves the sample with `overrides` over the version now active; the response. */
async function save(body: Record<string, unknown>) {
  const baseVersion = (await current())?.version;
  return h.call('PUT', '/api/assessment', {
    token,
    body: { ...sampleAssessment(), translations: { es: SPANISH, ar: ARABIC }, baseVersion, ...body },
  });
}

async function saved(body: Record<string, unknown>): Promise<Served> {
  const res = await save(body);
  expect(res.status).toBe(200);
  return ((await res.json()) as { assessment: Served }).assessment;
}

const withQuestion = (id: string, change: Record<string, unknown>) =>
  sampleAssessment().questions.map((q) => (q.id === id ? { ...q, ...change } : q));

describe('translations written against an English text that changed since', () => {
  test('when the English of translated texts changes, then those translations are outdated until re-saved or marked reviewed', async () => {
    expect((await saved({})).outdatedTranslations).toEqual({});

    // The English of q1 and of q2's option a change; their translations are left as they were.
    const changed = withQuestion('q1', { question: 'Do you own a laptop or a desktop computer?' }).map((q) =>
      q.id === 'q2'
        ? {
            ...q,
            options: [
              { id: 'a', text: 'Hardly ever' },
              { id: 'b', text: 'Every day' },
            ],
          }
        : q,
    );
    const after = await saved({ questions: changed });
    expect(after.outdatedTranslations).toEqual({
      es: [
        ['questions', 'q1', 'question'],
        ['questions', 'q2', 'options', 'a'],
      ],
      ar: [['questions', 'q1', 'question']],
    });
    // Served on every read, and a further save that touches neither keeps them outdated.
    expect((await current())!.outdatedTranslations).toEqual(after.outdatedTranslations);
    expect((await saved({ questions: changed, changeNotes: 'Typo' })).outdatedTranslations).toEqual(
      after.outdatedTranslations,
    );

    // Spanish q1 re-written and its option a confirmed as still right; Arabic left alone.
    const reviewed = await saved({
      questions: changed,
      translations: {
        es: { ...SPANISH, questions: { ...SPANISH.questions, q1: { question: '¿Tiene un ordenador?' } } },
        ar: ARABIC,
      },
      reviewedTranslations: { es: [['questions', 'q2', 'options', 'a']] },
    });
    expect(reviewed.outdatedTranslations).toEqual({ ar: [['questions', 'q1', 'question']] });

    // The English put back as it was: the Arabic text is current again, and the Spanish ones, written against
    // the newer English, are outdated.
    const back = await saved({
      translations: {
        es: { ...SPANISH, questions: { ...SPANISH.questions, q1: { question: '¿Tiene un ordenador?' } } },
        ar: ARABIC,
      },
    });
    expect(back.outdatedTranslations).toEqual({
      es: [
        ['questions', 'q1', 'question'],
        ['questions', 'q2', 'options', 'a'],
      ],
    });
  });

  test('when versions were saved before sources were kept, then their translations count as current, and an English change after makes them outdated', async () => {
    const first = await saved({});
    await h.database.execute(
      sql`UPDATE assessment_versions SET translation_sources = '{}' WHERE version = ${first.version}`,
    );
    expect((await current())!.outdatedTranslations).toEqual({});
    const after = await saved({
      sections: SECTIONS.map((section) =>
        section.id === 1 ? { ...section, title: 'Technology and equipment' } : section,
      ),
    });
    expect(after.outdatedTranslations).toEqual({ es: [['sections', '1', 'title']] });
  });

  test.each([
    [
      { es: [['questions', 'q3', 'question']] },
      /Spanish translation: questions\/q3\/question is not translated/,
    ],
    [{ fr: [['title']] }, /French translation: title is not translated/],
    [{ de: [['title']] }, /Unknown translation language: de/],
    [{ es: 'title' }, /paths/],
    [{ es: [[]] }, /.+/],
  ])(
    'when a save marks %j reviewed, then it is a 400 naming it and nothing is saved',
    async (reviewedTranslations, message) => {
      const before = (await current()) ?? (await saved({}));
      const res = await save({ reviewedTranslations });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(message);
      expect((await current())!.version).toBe(before.version);
    },
  );
});
