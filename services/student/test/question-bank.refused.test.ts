import { QuestionType } from '@readiness/contracts';
import { inviteStudent, PRACTICE_QUESTION, studentCall, useStudent, type JsonBody } from './harness';

jest.setTimeout(60_000);

/*
 * Question banks are never handed out whole (issue 43 item 2): before Start a student's pages carry no scored
 * question at all (text, options, files, translations), after Start only the questions of their own paper, in
 * every language the version has. Every text of a question carries its own marker (`<Q03>`), so a leak of any
 * question shows in the raw answer, whatever field it hides in.
 */

const mark = (n: number) => `<Q${String(n).padStart(2, '0')}>`;
const id = (n: number) => `bank-${n}`;
const numberOf = (questionId: string) => Number(questionId.slice('bank-'.length));

/** Section 1: eight multiple-choice questions with a file, three drawn; section 2: two yes/no, one drawn. */
const QUESTIONS = Array.from({ length: 10 }, (_, i) => {
  const n = i + 1;
  const file = {
    filename: `file-${mark(n)}.pdf`,
    originalName: `Original ${mark(n)}.pdf`,
    size: 10n,
    mimetype: 'application/pdf',
  };
  return n <= 8
    ? {
        id: id(n),
        type: QuestionType.MULTIPLE_CHOICE,
        question: `Question ${mark(n)}`,
        section: 1,
        points: 1,
        required: true,
        correctAnswer: `${id(n)}-right`,
        options: [
          { id: `${id(n)}-right`, text: `Right ${mark(n)}` },
          { id: `${id(n)}-wrong`, text: `Wrong ${mark(n)}` },
        ],
        fileInstructions: `Instructions ${mark(n)}`,
        downloadableFile: file,
      }
    : {
        id: id(n),
        type: QuestionType.YES_NO,
        question: `Question ${mark(n)}`,
        section: 2,
        points: 1,
        required: true,
        correctAnswer: 'yes',
      };
});

const translation = (language: string) => ({
  language,
  title: `Title ${language}`,
  description: '',
  sections: [{ id: 1, title: `Section ${language}`, description: '' }],
  questions: QUESTIONS.map((q) => ({
    id: q.id,
    question: `${language} question ${mark(numberOf(q.id))}`,
    options: (q.options ?? []).map((o) => ({ id: o.id, text: `${language} ${o.text}` })),
    fileInstructions: `${language} instructions ${mark(numberOf(q.id))}`,
    ...(q.downloadableFile
      ? {
          downloadableFile: {
            ...q.downloadableFile,
            filename: `${language}-${q.downloadableFile.filename}`,
            originalName: `${language} ${q.downloadableFile.originalName}`,
          },
        }
      : {}),
  })),
  practiceQuestion: { id: 'practice', question: `${language} practice`, options: [], fileInstructions: '' },
});

const VERSION = {
  sections: [
    { id: 1, title: 'Bank', description: '', draw: 3 },
    { id: 2, title: 'Yes or no', description: '', draw: 1 },
  ],
  questions: QUESTIONS,
  shuffleQuestions: true,
  shuffleOptions: true,
  practiceQuestion: PRACTICE_QUESTION,
  translations: [translation('es'), translation('ar')],
};

/** The questions whose marker shows anywhere in an answer. */
const seen = (body: unknown) => {
  const text = JSON.stringify(body);
  return QUESTIONS.map((q) => q.id).filter((q) => text.includes(mark(numberOf(q))));
};

/** Every `correctAnswer` field outside the practice question. */
function answerKeys(body: unknown, path = ''): string[] {
  if (!body || typeof body !== 'object') return [];
  return Object.entries(body).flatMap(([key, value]) =>
    key === 'correctAnswer' && !path.endsWith('practiceQuestion')
      ? [`${path}.${key}`]
      : answerKeys(value, `${path}.${key}`),
  );
}

/** How an attacker may replay the page load: other languages asked for, query parameters added. */
const REPLAYS: Array<{ query: string; headers: Record<string, string> }> = [
  { query: '', headers: {} },
  { query: '', headers: { 'accept-language': 'ar' } },
  { query: '?language=es&lang=ar', headers: { 'accept-language': 'es, fr;q=0.5' } },
  { query: '?all=true&questions=all&full=1&paper=none&draw=0', headers: {} },
];

const h = useStudent('embedded', { config: { SUBMIT_RESULT_WAIT_MS: 0 }, version: VERSION as never });

async function everyLoad(token: string) {
  const loads: JsonBody[] = [];
  for (const { query, headers } of REPLAYS) {
    const page = await studentCall(h, 'GET', `/api/student/${token}/assessment${query}`, undefined, headers);
    expect(page.status).toBe(200);
    loads.push(page.json);
  }
  return loads;
}

test('before Start the pages carry the sections, counts, time limit, practice question and languages, and no scored question at all', async () => {
  const s = await inviteStudent(h);
  for (const page of await everyLoad(s.token)) {
    expect(seen(page)).toEqual([]);
    expect(answerKeys(page)).toEqual([]);
    const { assessment } = page;
    expect(assessment.questions).toEqual([]);
    expect(assessment.sections.map((x: JsonBody) => [x.id, x.title, x.draw, x.questionCount])).toEqual([
      [1, 'Bank', 3, 3],
      [2, 'Yes or no', 1, 1],
    ]);
    expect(assessment.timeLimit).toBe(30);
    expect(page.student.timeLimitSeconds).toBe(30 * 60);
    expect(assessment.practiceQuestion.question).toBe('Is this a practice question?');
    expect(assessment.translations).toEqual({
      es: {
        title: 'Title es',
        sections: { '1': { title: 'Section es' } },
        practiceQuestion: { question: 'es practice' },
      },
      ar: {
        title: 'Title ar',
        sections: { '1': { title: 'Section ar' } },
        practiceQuestion: { question: 'ar practice' },
      },
    });
    expect(page.attempt).toBeNull();
  }
  // The other student routes a page may call before Start hold none either.
  for (const route of ['', '/results']) {
    const other = await studentCall(h, 'GET', `/api/student/${s.token}${route}`);
    expect(other.status).toBe(200);
    expect(seen(other.json)).toEqual([]);
  }
});

test("after Start exactly the paper's questions are served, in every language, by Start and every reload, and no other student's", async () => {
  // Students start until two of them drew different questions (3 of 8 and 1 of 2: nearly always the second).
  const papers: Array<{ token: string; start: JsonBody; given: string[] }> = [];
  while (papers.length < 2 || new Set(papers.map((p) => p.given.join())).size < 2) {
    if (papers.length === 8) throw new Error('eight students drew the same questions');
    const s = await inviteStudent(h);
    const start = await studentCall(h, 'POST', `/api/student/${s.token}/start`);
    expect(start.status).toBe(201);
    const given = [...(start.json.attempt.paper.questionIds as string[])].sort();
    expect(given).toHaveLength(4);
    papers.push({ token: s.token, start: start.json, given });
  }
  const first = papers[0]!;
  const other = papers.find((p) => p.given.join() !== first.given.join())!;
  expect(other.given.filter((q) => !first.given.includes(q)).length).toBeGreaterThan(0);

  for (const p of [first, other]) {
    const again = await studentCall(h, 'POST', `/api/student/${p.token}/start`, undefined, {
      'accept-language': 'es',
    });
    expect(again.status).toBe(200);
    for (const body of [p.start, again.json, ...(await everyLoad(p.token))]) {
      // The paper's questions, their texts, options and files in English, Spanish and Arabic: those and no other.
      expect(seen(body)).toEqual([...p.given].sort((a, b) => numberOf(a) - numberOf(b)));
      expect(answerKeys(body)).toEqual([]);
      const { assessment } = body;
      expect(assessment.questions.map((q: JsonBody) => q.id).sort()).toEqual(p.given);
      for (const language of ['es', 'ar']) {
        expect(Object.keys(assessment.translations[language].questions).sort()).toEqual(p.given);
      }
      const filed = assessment.questions.filter((q: JsonBody) => q.downloadableFile);
      expect(filed.length).toBe(3);
      expect(assessment.translations.es.questions[filed[0].id].downloadableFile.url).toContain('es-file-');
      expect(assessment.sections.map((x: JsonBody) => x.questionCount)).toEqual([3, 1]);
    }
  }
});

test('once the attempt is submitted the page carries no question again', async () => {
  const s = await inviteStudent(h);
  const start = await studentCall(h, 'POST', `/api/student/${s.token}/start`);
  const submit = await studentCall(h, 'POST', `/api/student/${s.token}/submit`, {
    attemptId: start.json.attempt.id,
    answers: [],
  });
  expect(submit.status).toBe(202);
  for (const page of await everyLoad(s.token)) {
    expect(page.awaitingResult).toBe(true);
    expect(seen(page)).toEqual([]);
    expect(page.assessment.questions).toEqual([]);
  }
});
