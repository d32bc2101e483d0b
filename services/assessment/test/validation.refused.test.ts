import { adminToken, sampleAssessment, startAssessment, type Harness } from './harness';

jest.setTimeout(60_000);

let h: Harness;
const token = adminToken();

beforeAll(async () => {
  h = await startAssessment('real');
});
afterAll(() => h?.close());

const base = sampleAssessment();
const questions = base.questions as Array<Record<string, unknown>>;
const withQuestion = (index: number, patch: Record<string, unknown>) =>
  sampleAssessment({ questions: questions.map((q, i) => (i === index ? { ...q, ...patch } : q)) });

const cases: Array<[string, Record<string, unknown>, RegExp]> = [
  ['the title is missing', sampleAssessment({ title: '' }), /^Title is required$/],
  ['the title holds a control character', sampleAssessment({ title: 'Ready\u0007' }), /control characters/],
  ['the time limit is 0', sampleAssessment({ timeLimit: 0 }), /^Time limit must be at least 1 minute$/],
  [
    'the passing score is above 100',
    sampleAssessment({ passingScore: 101 }),
    /^Passing score must be between 0 and 100$/,
  ],
  [
    'the passing score is negative',
    sampleAssessment({ passingScore: -1 }),
    /^Passing score must be between 0 and 100$/,
  ],
  ['a question is worth 0 points', withQuestion(0, { points: 0 }), /^Points must be at least 1$/],
  [
    'there is no question',
    sampleAssessment({ questions: [] }),
    /^An assessment needs at least one question$/,
  ],
  [
    'two sections share an id',
    sampleAssessment({ sections: [...base.sections, { id: 2, title: 'Again', description: '' }] }),
    /^Section ids must be unique: section 2 appears twice$/,
  ],
  [
    'a question names a missing section',
    withQuestion(0, { section: 7 }),
    /^Question q1 is in section 7, which does not exist$/,
  ],
  [
    'two questions share an id',
    withQuestion(1, { id: 'q1' }),
    /^Question ids must be unique: q1 appears twice$/,
  ],
  [
    'a multiple choice question has one option',
    withQuestion(1, { options: [{ id: 'a', text: 'Daily' }] }),
    /^Question q2: a multiple choice question needs at least 2 options$/,
  ],
  [
    'two options share an id',
    withQuestion(1, {
      options: [
        { id: 'a', text: 'Daily' },
        { id: 'a', text: 'Never' },
      ],
    }),
    /^Question q2: option ids must be unique/,
  ],
  [
    'the correct answer is not an option',
    withQuestion(1, { correctAnswer: 'z' }),
    /^Question q2: the correct answer must be one of its options$/,
  ],
  [
    'a yes/no answer is maybe',
    withQuestion(0, { correctAnswer: 'maybe' }),
    /^Question q1: the correct answer must be yes or no$/,
  ],
  [
    'a downloadable file was never uploaded',
    withQuestion(2, {
      hasDownloadableFile: true,
      downloadableFile: {
        originalName: 'plan.pdf',
        filename: '7d3f2c1a-0b5e-4f7a-9c2d-1e6b8a4f0c3d.pdf',
        size: 10,
      },
    }),
    /^Question q3: the downloadable file must be a file uploaded first$/,
  ],
  [
    'the question type is unknown',
    withQuestion(0, { type: 'essay' }),
    /^Question type must be yes_no, multiple_choice or file_upload$/,
  ],
];

test.each(cases)(
  'when %s, then the save answers 400 with the rule and creates no version',
  async (_what, body, message) => {
    const res = await h.call('PUT', '/api/assessment', { token, body });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(message);
    const { versions } = (await (await h.call('GET', '/api/assessment/versions', { token })).json()) as {
      versions: unknown[];
    };
    expect(versions).toEqual([]);
    expect(h.published).toEqual([]);
  },
);

test('when a file upload question has no answer, then the save is accepted', async () => {
  const res = await h.call('PUT', '/api/assessment', { token, body: base });
  expect(res.status).toBe(200);
  const { assessment } = (await res.json()) as { assessment: { questions: Array<Record<string, unknown>> } };
  expect(assessment.questions[2]).not.toHaveProperty('correctAnswer');
});
