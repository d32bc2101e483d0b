import { randomUUID } from 'node:crypto';
import { QuestionType } from '@readiness/contracts';
import { eventually } from '@readiness/testing';
import { startResults, submittedEvent, versionEvent, type Harness, type SubmissionInput } from './harness';

jest.setTimeout(60_000);

type Answers = SubmissionInput['answers'];

/** The harness version: q1 yes_no (1 point), q2 multiple choice (2), q3 file upload (3), all required; passing 70. */
const cases: Array<
  [string, Answers, { score: number; totalPoints: number; percentage: number; passed: boolean }]
> = [
  [
    'every answer is right',
    [
      { questionId: 'q1', answer: 'yes' },
      { questionId: 'q2', answer: 'b' },
      { questionId: 'q3', answer: 'file_uploaded', file: true },
    ],
    { score: 6, totalPoints: 6, percentage: 100, passed: true },
  ],
  [
    'the yes/no answer is wrong',
    [
      { questionId: 'q1', answer: 'no' },
      { questionId: 'q2', answer: 'b' },
      { questionId: 'q3', answer: 'file_uploaded', file: true },
    ],
    { score: 5, totalPoints: 6, percentage: 83, passed: true },
  ],
  [
    'the yes/no answer differs only in case (answers must equal the key)',
    [
      { questionId: 'q1', answer: 'Yes' },
      { questionId: 'q2', answer: 'b' },
      { questionId: 'q3', answer: 'file_uploaded', file: true },
    ],
    { score: 5, totalPoints: 6, percentage: 83, passed: true },
  ],
  [
    'the multiple choice answer is another option',
    [
      { questionId: 'q1', answer: 'yes' },
      { questionId: 'q2', answer: 'a' },
      { questionId: 'q3', answer: 'file_uploaded', file: true },
    ],
    { score: 4, totalPoints: 6, percentage: 67, passed: false },
  ],
  [
    'the required file question is left unanswered',
    [
      { questionId: 'q1', answer: 'yes' },
      { questionId: 'q2', answer: 'b' },
    ],
    { score: 3, totalPoints: 6, percentage: 50, passed: false },
  ],
  [
    'the file answer is recorded without its file details',
    [
      { questionId: 'q1', answer: 'yes' },
      { questionId: 'q2', answer: 'b' },
      { questionId: 'q3', answer: 'file_uploaded' },
    ],
    { score: 6, totalPoints: 6, percentage: 100, passed: true },
  ],
  ['nothing is answered', [], { score: 0, totalPoints: 6, percentage: 0, passed: false }],
  [
    'an answer names a question the version does not have',
    [
      { questionId: 'q1', answer: 'yes' },
      { questionId: 'q9', answer: 'yes' },
    ],
    { score: 1, totalPoints: 6, percentage: 17, passed: false },
  ],
];

/** 139 of 200 points is 69.5 %: shown rounded as 70, and still a fail against a passing score of 70. */
const boundary = versionEvent({
  passingScore: 70,
  sections: [{ id: 1, title: 'Only', description: '' }],
  questions: [
    {
      id: 'big',
      type: QuestionType.YES_NO,
      question: 'Big',
      section: 1,
      points: 139,
      required: true,
      correctAnswer: 'yes',
    },
    {
      id: 'small',
      type: QuestionType.YES_NO,
      question: 'Small',
      section: 1,
      points: 61,
      required: true,
      correctAnswer: 'no',
    },
  ],
});

/** 7 of 10 points is exactly 70 %: a pass. */
const exact = versionEvent({
  passingScore: 70,
  sections: [{ id: 1, title: 'Only', description: '' }],
  questions: [
    {
      id: 'seven',
      type: QuestionType.YES_NO,
      question: 'Seven',
      section: 1,
      points: 7,
      required: true,
      correctAnswer: 'yes',
    },
    {
      id: 'three',
      type: QuestionType.YES_NO,
      question: 'Three',
      section: 1,
      points: 3,
      required: true,
      correctAnswer: 'no',
    },
  ],
});

/** Two sections; an optional question in each (one a file upload), worth enough to sink a score if counted. */
const withOptional = versionEvent({
  passingScore: 70,
  sections: [
    { id: 1, title: 'Core', description: '' },
    { id: 2, title: 'Extras', description: '' },
  ],
  questions: [
    {
      id: 'r1',
      type: QuestionType.YES_NO,
      question: 'R1',
      section: 1,
      points: 3,
      required: true,
      correctAnswer: 'yes',
    },
    {
      id: 'r2',
      type: QuestionType.YES_NO,
      question: 'R2',
      section: 1,
      points: 3,
      required: true,
      correctAnswer: 'no',
    },
    {
      id: 'o1',
      type: QuestionType.YES_NO,
      question: 'O1',
      section: 1,
      points: 2,
      required: false,
      correctAnswer: 'yes',
    },
    {
      id: 'o2',
      type: QuestionType.FILE_UPLOAD,
      question: 'O2',
      section: 2,
      points: 4,
      required: false,
      correctAnswer: '',
    },
  ],
});

describe.each(['real', 'embedded'] as const)('scoring rules on %s adapters', (kind) => {
  let h: Harness;
  const version = versionEvent();
  beforeAll(async () => {
    h = await startResults(kind);
    for (const v of [version, boundary, exact, withOptional])
      await h.publish('assessment.version.published.v1', v);
  });
  afterAll(() => h?.close());

  const score = async (versionId: string, answers: Answers, questionIds?: string[]) => {
    const attemptId = randomUUID();
    await h.publish(
      'student.attempt.submitted.v1',
      submittedEvent({ attemptId, versionId, answers, questionIds }),
    );
    const event = await eventually(
      () => h.recorded().find((e) => e.payload.attemptId === attemptId) ?? false,
      'the recorded event',
    );
    return event.payload;
  };

  test.each(cases)('when %s, then the score follows the rules', async (_what, answers, expected) => {
    const result = await score(version.versionId, answers);
    expect({
      score: result.score,
      totalPoints: result.totalPoints,
      percentage: result.percentage,
      passed: result.passed,
    }).toEqual(expected);
    expect(result.canRetake).toBe(!expected.passed);
  });

  test('when the score is 69.5 % against a passing score of 70, then it fails although the shown percentage is 70', async () => {
    const result = await score(boundary.versionId, [
      { questionId: 'big', answer: 'yes' },
      { questionId: 'small', answer: 'yes' },
    ]);
    expect(result).toMatchObject({
      score: 139,
      totalPoints: 200,
      percentage: 70,
      passed: false,
      canRetake: true,
    });
  });

  test('when the score is exactly the passing score, then it passes', async () => {
    const result = await score(exact.versionId, [
      { questionId: 'seven', answer: 'yes' },
      { questionId: 'three', answer: 'yes' },
    ]);
    expect(result).toMatchObject({
      score: 7,
      totalPoints: 10,
      percentage: 70,
      passed: true,
      canRetake: false,
    });
  });

  test('when every required answer is right and the optional questions are skipped, then the skipped ones count in neither score nor total', async () => {
    const result = await score(withOptional.versionId, [
      { questionId: 'r1', answer: 'yes' },
      { questionId: 'r2', answer: 'no' },
    ]);
    expect(result).toMatchObject({ score: 6, totalPoints: 6, percentage: 100, passed: true });
    expect(result.answers.map((a) => [a.questionId, a.isCorrect, a.skipped])).toEqual([
      ['r1', true, false],
      ['r2', true, false],
      ['o1', false, true],
      ['o2', false, true],
    ]);
    // A section of skipped questions only is listed with nothing counted, not as 0 % of its points.
    expect(result.sections.map((x) => [x.title, x.score, x.totalPoints, x.questions])).toEqual([
      ['Core', 6, 6, 2],
      ['Extras', 0, 0, 0],
    ]);
  });

  test('when an optional question is answered wrong, then it counts like any other', async () => {
    const result = await score(withOptional.versionId, [
      { questionId: 'r1', answer: 'yes' },
      { questionId: 'r2', answer: 'no' },
      { questionId: 'o1', answer: 'no' },
    ]);
    expect(result).toMatchObject({ score: 6, totalPoints: 8, percentage: 75, passed: true });
    expect(result.answers.find((a) => a.questionId === 'o1')).toMatchObject({
      isCorrect: false,
      skipped: false,
    });
  });

  test('when a required question is left unanswered, then it still earns 0 of its points', async () => {
    const result = await score(withOptional.versionId, [{ questionId: 'r1', answer: 'yes' }]);
    expect(result).toMatchObject({ score: 3, totalPoints: 6, percentage: 50, passed: false });
  });

  test('when the attempt was given some of the questions (a draw), then only those count: its own total, the others ignored', async () => {
    const result = await score(
      withOptional.versionId,
      [
        { questionId: 'r1', answer: 'yes' },
        { questionId: 'r2', answer: 'yes' },
        { questionId: 'o1', answer: 'yes' },
      ],
      ['r1', 'o1'],
    );
    expect(result.answers.map((a) => a.questionId)).toEqual(['r1', 'o1']);
    expect(result).toMatchObject({ score: 5, totalPoints: 5, percentage: 100, passed: true });
    // A list that names none of the version's questions is no draw: the whole version counts.
    const bogus = await score(withOptional.versionId, [{ questionId: 'r1', answer: 'yes' }], ['nope']);
    expect(bogus).toMatchObject({ score: 3, totalPoints: 6, passed: false });
  });

  test('when every question is skipped, then there is nothing to pass on', async () => {
    const onlyOptional = versionEvent({
      passingScore: 0,
      sections: [{ id: 1, title: 'Only', description: '' }],
      questions: [
        {
          id: 'x',
          type: QuestionType.YES_NO,
          question: 'X',
          section: 1,
          points: 1,
          required: false,
          correctAnswer: 'yes',
        },
      ],
    });
    await h.publish('assessment.version.published.v1', onlyOptional);
    const result = await score(onlyOptional.versionId, []);
    expect(result).toMatchObject({ score: 0, totalPoints: 0, percentage: 0, passed: false });
  });
});
