import { publishedVersion } from '@readiness/contracts';
import {
  oneWrongAnswer,
  resultFailed,
  resultRecorded,
  rightAnswers,
  versionPublished,
  type AnswerInput,
} from '@readiness/testing/fixtures';
import type { AssessmentVersion, QuestionType, VersionQuestion } from './assessment';
import { percentOf, scoreSubmission, type SubmittedAnswer } from './scoring';

const question = (
  id: string,
  type: QuestionType,
  points: number,
  rest: { section?: number; required?: boolean; correctAnswer?: string } = {},
): VersionQuestion => ({
  id,
  type,
  question: id.toUpperCase(),
  section: rest.section ?? 1,
  points,
  required: rest.required ?? true,
  correctAnswer: rest.correctAnswer ?? '',
  options: [],
  fileInstructions: '',
});

const version = (
  passingScore: number,
  sections: string[],
  questions: VersionQuestion[],
): AssessmentVersion => ({
  versionId: 'v',
  version: 1,
  title: 'Readiness check',
  description: '',
  timeLimitMinutes: 30,
  passingScore,
  sections: sections.map((title, i) => ({ id: i + 1, title, description: '' })),
  questions,
  createdAt: null,
});

/** q1 yes/no (1 point), q2 multiple choice (2), q3 file upload (3), all required; passing 70. */
const STANDARD = version(
  70,
  ['Technology', 'Habits'],
  [
    question('q1', 'yes_no', 1, { correctAnswer: 'yes' }),
    question('q2', 'multiple_choice', 2, { section: 2, correctAnswer: 'b' }),
    question('q3', 'file_upload', 3, { section: 2 }),
  ],
);
/** 139 of 200 points is 69.5 %. */
const BOUNDARY = version(
  70,
  ['Only'],
  [
    question('big', 'yes_no', 139, { correctAnswer: 'yes' }),
    question('small', 'yes_no', 61, { correctAnswer: 'no' }),
  ],
);
/** 7 of 10 points is exactly 70 %. */
const EXACT = version(
  70,
  ['Only'],
  [
    question('seven', 'yes_no', 7, { correctAnswer: 'yes' }),
    question('three', 'yes_no', 3, { correctAnswer: 'no' }),
  ],
);
/** Two sections; an optional question in each (one a file upload), worth enough to sink a score if counted. */
const WITH_OPTIONAL = version(
  70,
  ['Core', 'Extras'],
  [
    question('r1', 'yes_no', 3, { correctAnswer: 'yes' }),
    question('r2', 'yes_no', 3, { correctAnswer: 'no' }),
    question('o1', 'yes_no', 2, { required: false, correctAnswer: 'yes' }),
    question('o2', 'file_upload', 4, { section: 2, required: false }),
  ],
);
const ONLY_OPTIONAL = version(
  0,
  ['Only'],
  [question('x', 'yes_no', 1, { required: false, correctAnswer: 'yes' })],
);

const FILE = { key: 'answers/s/desk.jpg', originalName: 'desk.jpg', size: 2048, mimetype: 'image/jpeg' };
const a = (questionId: string, answer: string, file?: typeof FILE): SubmittedAnswer =>
  file ? { questionId, answer, file } : { questionId, answer };

type Figures = { score: number; totalPoints: number; percentage: number; passed: boolean };
const figures = (score: number, totalPoints: number, percentage: number, passed: boolean): Figures => ({
  score,
  totalPoints,
  percentage,
  passed,
});

describe('the scoring rules (docs/scoring.md)', () => {
  it.each<[string, AssessmentVersion, SubmittedAnswer[], string[], Figures]>([
    [
      'every answer is right, then it scores every point and passes',
      STANDARD,
      [a('q1', 'yes'), a('q2', 'b'), a('q3', 'file_uploaded', FILE)],
      [],
      figures(6, 6, 100, true),
    ],
    [
      'the yes/no answer is wrong, then it loses that question only',
      STANDARD,
      [a('q1', 'no'), a('q2', 'b'), a('q3', 'file_uploaded', FILE)],
      [],
      figures(5, 6, 83, true),
    ],
    [
      'the yes/no answer differs only in case, then it is wrong (an answer must equal the key)',
      STANDARD,
      [a('q1', 'Yes'), a('q2', 'b'), a('q3', 'file_uploaded', FILE)],
      [],
      figures(5, 6, 83, true),
    ],
    [
      'the multiple choice answer is another option, then it loses its points and fails',
      STANDARD,
      [a('q1', 'yes'), a('q2', 'a'), a('q3', 'file_uploaded', FILE)],
      [],
      figures(4, 6, 67, false),
    ],
    [
      'the required file question is left unanswered, then it earns 0 of its points',
      STANDARD,
      [a('q1', 'yes'), a('q2', 'b')],
      [],
      figures(3, 6, 50, false),
    ],
    [
      'the file answer is recorded without its file details, then it still counts as uploaded',
      STANDARD,
      [a('q1', 'yes'), a('q2', 'b'), a('q3', 'file_uploaded')],
      [],
      figures(6, 6, 100, true),
    ],
    [
      'a file is attached whatever the answer text, then it counts as uploaded',
      STANDARD,
      [a('q1', 'yes'), a('q2', 'b'), a('q3', '', FILE)],
      [],
      figures(6, 6, 100, true),
    ],
    ['nothing is answered, then it scores 0 and fails', STANDARD, [], [], figures(0, 6, 0, false)],
    [
      'an answer names a question the version does not have, then that answer is ignored',
      STANDARD,
      [a('q1', 'yes'), a('q9', 'yes')],
      [],
      figures(1, 6, 17, false),
    ],
    [
      'a question is answered twice, then the last answer counts',
      STANDARD,
      [a('q1', 'no'), a('q1', 'yes')],
      [],
      figures(1, 6, 17, false),
    ],
    [
      'the score is 69.5 % against a passing score of 70, then it fails although the shown percentage is 70',
      BOUNDARY,
      [a('big', 'yes'), a('small', 'yes')],
      [],
      figures(139, 200, 70, false),
    ],
    [
      'the score is exactly the passing score, then it passes',
      EXACT,
      [a('seven', 'yes'), a('three', 'yes')],
      [],
      figures(7, 10, 70, true),
    ],
    [
      'every required answer is right and the optional questions are skipped, then the skipped ones count in neither score nor total',
      WITH_OPTIONAL,
      [a('r1', 'yes'), a('r2', 'no')],
      [],
      figures(6, 6, 100, true),
    ],
    [
      'an optional question is answered wrong, then it counts like any other',
      WITH_OPTIONAL,
      [a('r1', 'yes'), a('r2', 'no'), a('o1', 'no')],
      [],
      figures(6, 8, 75, true),
    ],
    [
      'an optional question is answered with an empty answer, then it is skipped',
      WITH_OPTIONAL,
      [a('r1', 'yes'), a('r2', 'no'), a('o1', '')],
      [],
      figures(6, 6, 100, true),
    ],
    [
      'a required question is left unanswered, then it still earns 0 of its points',
      WITH_OPTIONAL,
      [a('r1', 'yes')],
      [],
      figures(3, 6, 50, false),
    ],
    [
      'the attempt was given some of the questions (a draw), then only those count: its own total, the others ignored',
      WITH_OPTIONAL,
      [a('r1', 'yes'), a('r2', 'yes'), a('o1', 'yes')],
      ['r1', 'o1'],
      figures(5, 5, 100, true),
    ],
    [
      'the list of questions given names none of the version, then it is no draw: the whole version counts',
      WITH_OPTIONAL,
      [a('r1', 'yes')],
      ['nope'],
      figures(3, 6, 50, false),
    ],
    [
      'every question is skipped, then there is nothing to pass on',
      ONLY_OPTIONAL,
      [],
      [],
      figures(0, 0, 0, false),
    ],
  ])('when %s', (_what, v, answers, given, expected) => {
    const scored = scoreSubmission(v, answers, given);
    expect({
      score: scored.score,
      totalPoints: scored.totalPoints,
      percentage: scored.percentage,
      passed: scored.passed,
    }).toEqual(expected);
  });

  it('when the optional questions are skipped, then the answers say so and a section of skipped ones only counts nothing', () => {
    const scored = scoreSubmission(WITH_OPTIONAL, [a('r1', 'yes'), a('r2', 'no')]);
    expect(scored.answers.map((x) => [x.questionId, x.isCorrect, x.skipped ?? false])).toEqual([
      ['r1', true, false],
      ['r2', true, false],
      ['o1', false, true],
      ['o2', false, true],
    ]);
    // A section of skipped questions only is listed with nothing counted, not as 0 % of its points.
    expect(scored.sections.map((s) => [s.title, s.score, s.totalPoints, s.questions, s.percentage])).toEqual([
      ['Core', 6, 6, 2, 100],
      ['Extras', 0, 0, 0, 0],
    ]);
  });

  it('when the attempt was given some of the questions, then the answers list those only and a section without any is left out', () => {
    const scored = scoreSubmission(WITH_OPTIONAL, [a('r1', 'yes'), a('o2', '', FILE)], ['r1', 'r2']);
    expect(scored.answers.map((x) => x.questionId)).toEqual(['r1', 'r2']);
    expect(scored.sections.map((s) => s.title)).toEqual(['Core']);
  });

  it('when a file is uploaded, then its answer keeps the file details', () => {
    const scored = scoreSubmission(STANDARD, [a('q3', 'file_uploaded', FILE)]);
    expect(scored.answers.find((x) => x.questionId === 'q3')).toMatchObject({
      answer: 'file_uploaded',
      isCorrect: true,
      points: 3,
      maxPoints: 3,
      file: FILE,
    });
  });

  it.each([
    [0, 0, 0],
    [1, 3, 33],
    [2, 3, 67],
    [139, 200, 70],
    [1, 200, 1],
    [6, 6, 100],
  ])('when %i of %i is shown as a percentage, then it reads %i', (part, whole, shown) => {
    expect(percentOf(part, whole)).toBe(shown);
  });
});

describe('the shared test fixtures', () => {
  it('record the figures this scoring makes of their submissions, so the fakes built on them answer as the service would', () => {
    const fixture = publishedVersion(versionPublished());
    const submitted = (answers: AnswerInput[]): SubmittedAnswer[] =>
      answers.map((a) => ({
        questionId: a.questionId,
        answer: a.answer,
        ...(a.file
          ? { file: { key: 'k', originalName: 'desk.jpg', size: 2048, mimetype: 'image/jpeg' } }
          : {}),
      }));
    for (const [answers, recorded] of [
      [rightAnswers(), resultRecorded()],
      [oneWrongAnswer(), resultFailed()],
    ] as const) {
      const scored = scoreSubmission(fixture, submitted(answers));
      expect(scored).toMatchObject({
        score: recorded.score,
        totalPoints: recorded.totalPoints,
        percentage: recorded.percentage,
        passed: recorded.passed,
      });
      expect(
        scored.sections.map((s) => [
          s.id,
          s.title,
          s.score,
          s.totalPoints,
          s.correct,
          s.questions,
          s.percentage,
        ]),
      ).toEqual(
        recorded.sections.map((s) => [
          s.sectionId,
          s.title,
          s.score,
          s.totalPoints,
          s.correct,
          s.questions,
          s.percentage,
        ]),
      );
      expect(scored.answers.map((a) => [a.questionId, a.answer, a.isCorrect, a.points, a.maxPoints])).toEqual(
        recorded.answers.map((a) => [a.questionId, a.answer, a.isCorrect, a.points, a.maxPoints]),
      );
    }
  });
});
