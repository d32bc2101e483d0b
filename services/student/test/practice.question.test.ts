import { inviteStudent, PRACTICE_QUESTION, publishVersion, studentCall, useStudent } from './harness';

jest.setTimeout(60_000);

const h = useStudent('embedded', { config: { SUBMIT_RESULT_WAIT_MS: 0 }, version: false });

test('a practice question is offered before Start with its answer, and is never among the questions of the attempt', async () => {
  await publishVersion(h, {
    practiceQuestion: PRACTICE_QUESTION,
  } as never);
  const s = await inviteStudent(h);
  const page = await studentCall(h, 'GET', `/api/student/${s.token}/assessment`);
  expect(page.json.assessment.practiceQuestion).toEqual({
    type: 'yes_no',
    question: 'Is this a practice question?',
    options: [],
    correctAnswer: 'yes',
  });
  // The scored questions keep their answer key to themselves, and answering the practice one is refused.
  expect(page.json.assessment.questions.every((q: Record<string, unknown>) => !('correctAnswer' in q))).toBe(
    true,
  );
  const started = await studentCall(h, 'POST', `/api/student/${s.token}/start`);
  const save = await studentCall(h, 'PUT', `/api/student/${s.token}/answers`, {
    attemptId: started.json.attempt.id,
    seq: 1,
    answers: [{ questionId: 'practice', answer: 'yes' }],
  });
  expect(save.status).toBe(400);

  // A version without one offers none.
  await publishVersion(h);
  const later = await inviteStudent(h);
  expect(
    (await studentCall(h, 'GET', `/api/student/${later.token}/assessment`)).json.assessment.practiceQuestion,
  ).toBeNull();
});
