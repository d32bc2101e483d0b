import { ALL_RIGHT, startResults, versionEvent, type Harness } from './harness';

jest.setTimeout(60_000);

interface AnalysisJson {
  version: number | null;
  versions: number[];
  attempts: number;
  questions: Array<{
    id: string;
    number: number;
    attempts: number;
    correct: number;
    facility: number;
    section: number;
    type: string;
  }>;
  sections: Array<{ id: number; title: string; meanPercentage: number }>;
  distribution: Array<{ from: number; to: number; count: number }>;
}

describe('item analysis', () => {
  let h: Harness;
  const first = versionEvent({ version: 1, active: false });
  const second = versionEvent({ version: 2, active: true });
  beforeAll(async () => {
    h = await startResults('embedded');
  });
  afterAll(() => h?.close());

  const analysis = async (query = '') => {
    const res = await h.call('GET', `/api/admin/results/analysis${query}`);
    expect(res.status).toBe(200);
    return (await res.json()) as AnalysisJson;
  };

  test('when no version is known yet, then the analysis is empty with ten empty buckets', async () => {
    const json = await analysis();
    expect(json).toMatchObject({ version: null, versions: [], attempts: 0, questions: [], sections: [] });
    expect(json.distribution).toHaveLength(10);
    expect(json.distribution[9]).toEqual({ from: 90, to: 100, count: 0 });
  });

  test('when results exist, then the active version shows facility per question, section means and the distribution', async () => {
    await h.publish('assessment.version.published.v1', first);
    await h.publish('assessment.version.published.v1', second);
    // Percentages 100, 50, 17 and 0 on version 2; one result on version 1.
    await h.submit({
      versionId: second.versionId,
      answers: ALL_RIGHT,
    });
    await h.submit({
      versionId: second.versionId,
      answers: [
        { questionId: 'q1', answer: 'yes' },
        { questionId: 'q2', answer: 'b' },
      ],
    });
    await h.submit({ versionId: second.versionId, answers: [{ questionId: 'q1', answer: 'yes' }] });
    await h.submit({ versionId: second.versionId, answers: [] });
    await h.submit({ versionId: first.versionId, answers: [] });

    const json = await analysis();
    expect(json.version).toBe(2);
    expect(json.versions).toEqual([1, 2]);
    expect(json.attempts).toBe(4);
    expect(json.questions.map((q) => [q.id, q.number, q.attempts, q.correct, q.facility])).toEqual([
      ['q1', 1, 4, 3, 0.75],
      ['q2', 2, 4, 2, 0.5],
      ['q3', 3, 4, 1, 0.25],
    ]);
    // Section 1 (q1): 100, 100, 100, 0 → 75. Section 2 (q2, q3; 5 points): 100, 40, 0, 0 → 35.
    expect(json.sections).toEqual([
      { id: 1, title: 'Technology', meanPercentage: 75 },
      { id: 2, title: 'Habits', meanPercentage: 35 },
    ]);
    expect(json.distribution.map((b) => b.count)).toEqual([1, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect(json.distribution[0]).toEqual({ from: 0, to: 9, count: 1 });

    const older = await analysis('?version=1');
    expect(older).toMatchObject({ version: 1, attempts: 1 });
    expect(older.questions.map((q) => q.facility)).toEqual([0, 0, 0]);
  });

  test.each([
    ['?version=9', 404, 'Assessment version not found'],
    ['?version=0', 400, 'version must be a whole number of at least 1'],
    ['?version=two', 400, 'version must be a whole number of at least 1'],
  ])('when the analysis is asked for %s, then %i', async (query, status, message) => {
    const res = await h.call('GET', `/api/admin/results/analysis${query}`);
    expect(res.status).toBe(status);
    expect(((await res.json()) as { message: string }).message).toBe(message);
  });
});
