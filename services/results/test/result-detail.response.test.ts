import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { timelineFacts, type TimelineFact } from '@readiness/contracts';
import { eventually } from '@readiness/testing';
import { multipleChoiceQuestion } from '@readiness/testing/fixtures';
import {
  ALL_BUT_Q1,
  ALL_RIGHT,
  AT_THE_PASS_MARK,
  useResults,
  versionEvent,
  weightedVersion,
} from './harness';

jest.setTimeout(60_000);

describe('the result detail', () => {
  const version = versionEvent();
  const h = useResults('real', { versions: [version] });

  test('when a result is opened, then it shows the hand-computed figures, every answer, the file link and the version taken', async () => {
    const studentId = randomUUID();
    const attemptId = randomUUID();
    const recorded = await h.submit({
      attemptId,
      studentId,
      name: 'Grace Hopper',
      email: 'grace@example.edu',
      versionId: version.versionId,
      answers: ALL_RIGHT,
    });
    const res = await h.call('GET', `/api/admin/results/${recorded.resultId}`);
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as { result: Record<string, unknown> };
    expect(result).toMatchObject({
      _id: recorded.resultId,
      studentId,
      student: { name: 'Grace Hopper', email: 'grace@example.edu' },
      score: 6,
      totalPoints: 6,
      percentage: 100,
      passed: true,
      performanceLevel: 'Excellent',
      assessmentCode: recorded.assessmentCode,
      attemptNumber: 1,
      canRetake: false,
      version: 1,
      passingScore: 70,
      timeSpent: 12,
    });
    expect(result.sections).toEqual([
      {
        id: 1,
        title: 'Technology',
        description: 'Your equipment',
        score: 1,
        totalPoints: 1,
        correct: 1,
        questions: 1,
        percentage: 100,
        performanceLevel: 'Excellent',
      },
      {
        id: 2,
        title: 'Habits',
        description: 'Your study habits',
        score: 5,
        totalPoints: 5,
        correct: 2,
        questions: 2,
        percentage: 100,
        performanceLevel: 'Excellent',
      },
    ]);
    expect(result.answers).toEqual([
      {
        questionId: 'q1',
        number: 1,
        paperPosition: null,
        question: 'Do you own a computer?',
        type: 'yes_no',
        section: 1,
        answer: 'yes',
        answerText: 'Yes',
        isCorrect: true,
        skipped: false,
        points: 1,
        maxPoints: 1,
      },
      {
        questionId: 'q2',
        number: 2,
        paperPosition: null,
        question: 'How often do you study?',
        type: 'multiple_choice',
        section: 2,
        answer: 'b',
        answerText: 'Every day',
        isCorrect: true,
        skipped: false,
        points: 2,
        maxPoints: 2,
      },
      {
        questionId: 'q3',
        number: 3,
        paperPosition: null,
        question: 'Upload a photo of your study space',
        type: 'file_upload',
        section: 2,
        answer: 'file_uploaded',
        answerText: 'desk.jpg',
        isCorrect: true,
        skipped: false,
        points: 3,
        maxPoints: 3,
        file: {
          originalName: 'desk.jpg',
          size: 2048,
          mimetype: 'image/jpeg',
          url: `/api/admin/students/${studentId}/attempts/${attemptId}/files/q3`,
        },
      },
    ]);
    const taken = result.assessmentVersion as {
      versionId: string;
      sections: Array<{ questions: unknown[] }>;
    };
    expect(taken).toMatchObject({
      versionId: version.versionId,
      version: 1,
      title: 'Readiness check',
      passingScore: 70,
    });
    expect(taken.sections.map((s) => s.questions.length)).toEqual([1, 2]);
    expect(taken.sections[1]!.questions[0]).toEqual({
      id: 'q2',
      number: 2,
      type: 'multiple_choice',
      question: 'How often do you study?',
      points: 2,
      required: true,
      correctAnswer: 'b',
      options: multipleChoiceQuestion().options,
    });
  });

  test("when the attempt was given some of the version's questions in its own order, then each answer carries the version's number and its place on the paper", async () => {
    // A paper of q3 then q2 (a draw of section 2's order, section 1 left out): the version numbers them 3 and 2.
    const recorded = await h.submit({
      versionId: version.versionId,
      questionIds: ['q3', 'q2'],
      answers: [{ questionId: 'q2', answer: 'b' }],
    });
    expect(recorded.answers.map((a) => [a.questionId, a.paperPosition])).toEqual([
      ['q2', 2],
      ['q3', 1],
    ]);
    const res = await h.call('GET', `/api/admin/results/${recorded.resultId}`);
    const { result } = (await res.json()) as {
      result: {
        answers: Array<{ questionId: string; number: number; paperPosition: number | null }>;
        assessmentVersion: { sections: Array<{ questions: Array<{ id: string; number: number }> }> };
      };
    };
    expect(result.answers.map((a) => [a.questionId, a.number, a.paperPosition])).toEqual([
      ['q2', 2, 2],
      ['q3', 3, 1],
    ]);
    // The version taken numbers every question the same way, those the paper left out included.
    expect(
      result.assessmentVersion.sections.flatMap((s) => s.questions.map((q) => [q.id, q.number])),
    ).toEqual([
      ['q1', 1],
      ['q2', 2],
      ['q3', 3],
    ]);
    // An id on the paper that the version does not have takes no place on it.
    const odd = await h.submit({
      versionId: version.versionId,
      questionIds: ['qX', 'q3', 'q1'],
      answers: [],
    });
    expect(odd.answers.map((a) => [a.questionId, a.paperPosition])).toEqual([
      ['q1', 2],
      ['q3', 1],
    ]);
  });

  test("when a result is opened, then it shows the attempt's timeline as the student service sent it, and passes it on", async () => {
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 29, 10, minute)).toISOString();
    const actorId = randomUUID();
    const timeline: TimelineFact[] = [
      { at: at(0), kind: 'started' },
      { at: at(1), kind: 'section_reached', sectionId: 2 },
      { at: at(2), kind: 'saved', count: 4, until: at(5) },
      { at: at(6), kind: 'page_hidden', seconds: 45 },
      // Under half a second, rounded: a length of 0 travels as none in proto3 and is kept all the same.
      { at: at(6), kind: 'offline', seconds: 0 },
      { at: at(7), kind: 'pasted', questionId: 'q2', count: 120 },
      { at: at(8), kind: 'extended', minutes: 15, actorId },
      { at: at(9), kind: 'ended', actorId },
    ];
    const recorded = await h.submit({ versionId: version.versionId, answers: ALL_RIGHT, timeline });
    expect(timelineFacts(recorded.timeline)).toEqual(timeline);
    const res = await h.call('GET', `/api/admin/results/${recorded.resultId}`);
    expect(((await res.json()) as { result: { timeline: unknown } }).result.timeline).toEqual(timeline);

    // A submission from a service without timelines records an empty one.
    const older = await h.submit({ versionId: version.versionId, answers: ALL_RIGHT });
    const plain = await h.call('GET', `/api/admin/results/${older.resultId}`);
    expect(((await plain.json()) as { result: { timeline: unknown } }).result.timeline).toEqual([]);
  });

  test('when an attempt was taken in a language, then its result keeps it and passes it on for the certificate', async () => {
    const arabic = await h.submit({ versionId: version.versionId, answers: ALL_RIGHT, language: 'ar' });
    expect(arabic.language).toBe('ar');
    // An older publisher sends none, and a language the product does not know is English: the mail is never lost.
    for (const language of [undefined, 'de']) {
      const plain = await h.submit({ versionId: version.versionId, answers: ALL_RIGHT, language });
      expect(plain.language).toBe('en');
    }
    const [row] = await h.database.execute<{ language: string }>(
      sql`SELECT language FROM results WHERE id = ${arabic.resultId}::uuid`,
    );
    expect(row!.language).toBe('ar');
  });

  test('when the version translates its title, then a result names the assessment in its language for the certificate, and in English for the admin', async () => {
    const translated = versionEvent({
      title: 'Study readiness',
      translations: [
        { language: 'ar', title: 'الاستعداد للدراسة', description: 'هل أنت مستعد؟' },
        // A translation without its title (proto3 sends it empty): the title stays English.
        { language: 'es', title: '', description: '¿Está listo?' },
      ],
    });
    await h.publish('assessment.version.published.v1', translated);
    const arabic = await h.submit({ versionId: translated.versionId, answers: ALL_RIGHT, language: 'ar' });
    expect(arabic).toMatchObject({
      language: 'ar',
      assessmentTitle: 'Study readiness',
      localizedTitle: 'الاستعداد للدراسة',
    });
    for (const language of ['es', 'fr', 'en', undefined]) {
      const english = await h.submit({ versionId: translated.versionId, answers: ALL_RIGHT, language });
      expect([english.assessmentTitle, english.localizedTitle]).toEqual([
        'Study readiness',
        'Study readiness',
      ]);
    }
    const [row] = await h.database.execute<{ assessment_title: string; localized_title: string }>(
      sql`SELECT assessment_title, localized_title FROM results WHERE id = ${arabic.resultId}::uuid`,
    );
    expect(row).toEqual({ assessment_title: 'Study readiness', localized_title: 'الاستعداد للدراسة' });
    // The admin reads the result in English.
    const { result } = (await (await h.call('GET', `/api/admin/results/${arabic.resultId}`)).json()) as {
      result: Record<string, unknown> & { assessmentVersion: { title: string } };
    };
    expect(result.assessmentVersion.title).toBe('Study readiness');
    expect(JSON.stringify(result)).not.toContain('الاستعداد');
  });

  test('when a version was kept before its titles were, then its results are titled in English until its next delivery adds them', async () => {
    const translated = versionEvent({
      title: 'Study readiness',
      translations: [{ language: 'fr', title: 'Préparation aux études' }],
    });
    const first = await h.publish('assessment.version.published.v1', translated);
    const before = await h.submit({ versionId: translated.versionId, answers: ALL_RIGHT, language: 'fr' });
    expect(before.localizedTitle).toBe('Préparation aux études');
    // As a copy kept before the column: no titles.
    await h.database.execute(
      sql`UPDATE versions SET titles = '{}'::jsonb WHERE version_id = ${translated.versionId}`,
    );
    const older = await h.submit({ versionId: translated.versionId, answers: ALL_RIGHT, language: 'fr' });
    expect(older.localizedTitle).toBe('Study readiness');

    await h.republish(first);
    await eventually(async () => {
      const [v] = await h.database.execute<{ titles: Record<string, string> }>(
        sql`SELECT titles FROM versions WHERE version_id = ${translated.versionId}`,
      );
      return v?.titles.fr === 'Préparation aux études';
    }, 'the titles from the redelivery');
    const after = await h.submit({ versionId: translated.versionId, answers: ALL_RIGHT, language: 'fr' });
    expect(after.localizedTitle).toBe('Préparation aux études');
  });

  test('when a failed result is opened, then its bands follow the shown percentages (2 of 6: 33.3 %)', async () => {
    const recorded = await h.submit({
      versionId: version.versionId,
      answers: [{ questionId: 'q2', answer: 'b' }],
    });
    const { result } = (await (await h.call('GET', `/api/admin/results/${recorded.resultId}`)).json()) as {
      result: {
        percentage: number;
        performanceLevel: string;
        passed: boolean;
        canRetake: boolean;
        sections: unknown[];
      };
    };
    expect(result).toMatchObject({
      percentage: 33.3,
      performanceLevel: 'Needs Improvement',
      passed: false,
      canRetake: true,
    });
  });

  test.each(AT_THE_PASS_MARK)(
    'when $score of $total points are opened against a passing score of 70, then the detail and the list read $shown % and $level',
    async ({ points, shown, passed, level }) => {
      const weighted = weightedVersion(points);
      await h.publish('assessment.version.published.v1', weighted);
      const email = `${randomUUID()}@example.edu`;
      const recorded = await h.submit({ versionId: weighted.versionId, email, answers: ALL_BUT_Q1 });
      const { result } = (await (await h.call('GET', `/api/admin/results/${recorded.resultId}`)).json()) as {
        result: Record<string, unknown>;
      };
      expect(result).toMatchObject({ percentage: shown, performanceLevel: level, passed, passingScore: 70 });
      const list = (await (await h.call('GET', `/api/admin/results?search=${email}`)).json()) as {
        results: Array<Record<string, unknown>>;
      };
      expect(list.results).toEqual([
        expect.objectContaining({ percentage: shown, performanceLevel: level, passed }),
      ]);
    },
  );

  test.each([randomUUID(), 'not-an-id'])(
    'when result %s does not exist, then 404 Result not found',
    async (id) => {
      const res = await h.call('GET', `/api/admin/results/${id}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: 'Result not found', code: 'result_not_found' });
    },
  );
});
