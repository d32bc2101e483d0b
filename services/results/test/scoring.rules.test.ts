import { randomUUID } from 'node:crypto';
import { eventually } from '@readiness/testing';
import { attemptSubmitted, fileUploadQuestion, yesNoQuestion } from '@readiness/testing/fixtures';
import { useResults, versionEvent } from './harness';

jest.setTimeout(60_000);

/**
 * The scoring rules themselves (right and wrong answers, files, optional questions, draws, the pass boundary) are
 * the table of src/domain/scoring.test.ts; this proves a submission reaches them and their figures reach the
 * recorded result: the draw the event names, an optional question skipped and a pass (a fail is
 * score-attempt.messaging.test.ts's).
 */
const withOptional = versionEvent({
  sections: [
    { id: 1, title: 'Core', description: '' },
    { id: 2, title: 'Extras', description: '' },
  ],
  questions: [
    yesNoQuestion({ id: 'r1', question: 'R1', points: 3 }),
    yesNoQuestion({ id: 'r2', question: 'R2', points: 3, correctAnswer: 'no' }),
    yesNoQuestion({ id: 'o1', question: 'O1', points: 2, required: false }),
    fileUploadQuestion({ id: 'o2', question: 'O2', section: 2, points: 4 }),
  ],
});

describe('scoring rules', () => {
  const h = useResults('embedded', { versions: [withOptional] });

  test('when a submission of a drawn paper arrives, then its result counts only the questions given, skips the optional one left blank, and passes', async () => {
    const attemptId = randomUUID();
    await h.publish(
      'student.attempt.submitted.v1',
      attemptSubmitted({
        attemptId,
        versionId: withOptional.versionId,
        answers: [
          { questionId: 'r1', answer: 'yes' },
          { questionId: 'r2', answer: 'no' },
          { questionId: 'o1', answer: 'yes' },
        ],
        questionIds: ['r1', 'r2', 'o2'],
      }),
    );
    const { payload: result } = await eventually(
      () => h.recorded().find((e) => e.payload.attemptId === attemptId) ?? false,
      'the recorded event',
    );
    // o1 was not given: its answer is ignored.
    expect(result).toMatchObject({
      score: 6,
      totalPoints: 6,
      percentage: 100,
      passed: true,
      canRetake: false,
    });
    expect(result.answers.map((a) => [a.questionId, a.isCorrect, a.skipped])).toEqual([
      ['r1', true, false],
      ['r2', true, false],
      ['o2', false, true],
    ]);
    expect(result.sections.map((x) => [x.title, x.score, x.totalPoints, x.questions])).toEqual([
      ['Core', 6, 6, 2],
      ['Extras', 0, 0, 0],
    ]);
  });
});
