import { QuestionType } from '@readiness/contracts';
import { eventually } from '@readiness/testing';
import { publishVersion, startAttempt, studentCall, useStudent, yesNoBank, type JsonBody } from './harness';

jest.setTimeout(60_000);

/** Section 1: eight yes/no questions, four drawn for each attempt; section 2: two multiple-choice questions. */
const BANK = yesNoBank(8);
const CHOICES = ['c1', 'c2'].map((id) => ({
  id,
  type: QuestionType.MULTIPLE_CHOICE,
  question: `Choice ${id}`,
  section: 2,
  points: 2,
  required: true,
  correctAnswer: `${id}-right`,
  options: ['a', 'b', 'c', 'd', 'e'].map((o) => ({ id: o === 'c' ? `${id}-right` : `${id}-${o}`, text: o })),
}));

const h = useStudent('embedded', { config: { SUBMIT_RESULT_WAIT_MS: 0 }, version: false });

const started = () => startAttempt(h, 'Paper');

describe('question banks and shuffling', () => {
  test('without a draw or shuffle an attempt has no paper: every question in the version order, as before', async () => {
    await publishVersion(h);
    const s = await started();
    expect(s.attempt.paper).toBeNull();
  });

  test('each attempt draws its own questions and order, kept across a reload, and only those are submitted', async () => {
    await publishVersion(h, {
      sections: [
        { id: 1, title: 'Bank', description: '', draw: 4 },
        { id: 2, title: 'Choices', description: '' },
      ],
      questions: [...BANK, ...CHOICES],
      shuffleQuestions: true,
      shuffleOptions: true,
    } as never);
    const students = await Promise.all(Array.from({ length: 5 }, () => started()));
    const papers = students.map(
      (s) => s.attempt.paper as { questionIds: string[]; options: Record<string, string[]> },
    );
    for (const p of papers) {
      // Four of the eight bank questions first (section 1), then both choices (section 2).
      expect(p.questionIds).toHaveLength(6);
      expect(new Set(p.questionIds).size).toBe(6);
      expect(p.questionIds.slice(0, 4).every((id) => id.startsWith('bank-'))).toBe(true);
      expect([...p.questionIds.slice(4)].sort()).toEqual(['c1', 'c2']);
      for (const c of CHOICES)
        expect([...p.options[c.id]!].sort()).toEqual(c.options.map((o) => o.id).sort());
    }
    // Five students drawing 4 of 8 in order (1,680 ways) and 5 options twice (120 ways each): not all alike.
    expect(new Set(papers.map((p) => JSON.stringify(p))).size).toBeGreaterThan(1);

    // A reload (and a second Start, as from another device) shows the same paper.
    const [first] = students;
    const reload = await studentCall(h, 'GET', `/api/student/${first!.token}/assessment`);
    expect(reload.json.attempt.paper).toEqual(papers[0]);
    const again = await studentCall(h, 'POST', `/api/student/${first!.token}/start`);
    expect(again.status).toBe(200);
    expect(again.json.attempt.paper).toEqual(papers[0]);

    // Answers to questions the attempt was not given are dropped; the event names the questions given.
    const notGiven = BANK.map((q) => q.id).find((id) => !papers[0]!.questionIds.includes(id))!;
    const given = papers[0]!.questionIds[0]!;
    const submit = await studentCall(h, 'POST', `/api/student/${first!.token}/submit`, {
      attemptId: first!.attempt.id,
      answers: [
        { questionId: given, answer: 'yes' },
        { questionId: notGiven, answer: 'yes' },
      ],
    });
    expect(submit.status).toBe(202);
    await eventually(
      () =>
        h.eventsNamed('student.attempt.submitted.v1').some((e) => e.payload.attemptId === first!.attempt.id),
      'the submitted event',
    );
    const event = h
      .eventsNamed('student.attempt.submitted.v1')
      .find((e) => e.payload.attemptId === first!.attempt.id)!;
    expect(event.payload.questionIds).toEqual(papers[0]!.questionIds);
    expect(event.payload.answers.map((a) => a.questionId)).toEqual([given]);
  });

  test('the Live screen counts the questions the attempt was given', async () => {
    await publishVersion(h, {
      sections: [{ id: 1, title: 'Bank', description: '', draw: 3 }],
      questions: BANK,
    } as never);
    const s = await started();
    expect((s.attempt.paper as { questionIds: string[] }).questionIds).toHaveLength(3);
    const res = await h.call('GET', `/api/admin/live?search=${encodeURIComponent(s.name)}`);
    const [row] = ((await res.json()) as JsonBody).attempts as JsonBody[];
    expect(row).toMatchObject({ attemptId: s.attempt.id, answered: 0, total: 3 });
  });
});
