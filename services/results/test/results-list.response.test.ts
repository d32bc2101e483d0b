import { randomUUID } from 'node:crypto';
import { eventually } from '@readiness/testing';
import { attemptSubmitted } from '@readiness/testing/fixtures';
import { startResults, versionEvent, type Harness } from './harness';

jest.setTimeout(120_000);

const COUNT = 240;
const NAMES = ['Hopper', 'Lovelace', 'Noether', 'Turing'];
const BASE = Date.parse('2026-03-01T09:00:00.000Z');

/** Student i of the seed: names and e-mails every collation sorts alike, a score from the harness version. */
const seed = (i: number) => ({
  name: `${NAMES[i % 4]} ${String(i).padStart(3, '0')}`,
  email: `s${i}@${i % 2 ? 'example.edu' : 'school.org'}`,
  // q1 (1 point) right for even i, q2 (2) for multiples of 3, q3 (3) for multiples of 4.
  score: (i % 2 === 0 ? 1 : 0) + (i % 3 === 0 ? 2 : 0) + (i % 4 === 0 ? 3 : 0),
});

interface Row {
  _id: string;
  student: { name: string; email: string };
  score: number;
  percentage: number;
  passed: boolean;
  assessmentCode: string;
  completedAt: string;
  performanceLevel: string;
}
interface ListJson {
  results: Row[];
  pagination: {
    currentPage: number;
    totalPages: number;
    totalResults: number;
    hasNext: boolean;
    hasPrev: boolean;
  };
  stats: {
    totalResults: number;
    passed: number;
    failed: number;
    averagePercentage: number;
    passRate: number;
  };
}

// On the memory bus only: the bus is not the subject here; both buses pass one contract suite (kit/src/bus/test).
describe('the results list', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startResults('embedded');
    const version = versionEvent();
    await h.publish('assessment.version.published.v1', version);
    for (let i = 0; i < COUNT; i++) {
      const s = seed(i);
      await h.publish(
        'student.attempt.submitted.v1',
        attemptSubmitted({
          attemptId: randomUUID(),
          name: s.name,
          email: s.email,
          versionId: version.versionId,
          submittedAt: new Date(BASE + i * 60_000),
          answers: [
            { questionId: 'q1', answer: i % 2 === 0 ? 'yes' : 'no' },
            { questionId: 'q2', answer: i % 3 === 0 ? 'b' : 'a' },
            ...(i % 4 === 0 ? [{ questionId: 'q3', answer: 'file_uploaded', file: true }] : []),
          ],
        }),
      );
    }
    await eventually(() => h.recorded().length === COUNT, 'every result', 60_000);
  });
  afterAll(() => h?.close());

  const list = async (query: string) => {
    const res = await h.call('GET', `/api/admin/results${query}`);
    expect(res.status).toBe(200);
    return (await res.json()) as ListJson;
  };

  const all = Array.from({ length: COUNT }, (_, i) => seed(i));
  const percentages = all.map((s) => Math.round((s.score * 100) / 6));
  const passedCount = all.filter((s) => s.score >= 5).length;

  test('when the list is opened without parameters, then the 20 newest come first with the pagination and the stats over all results', async () => {
    const json = await list('');
    expect(json.results).toHaveLength(20);
    expect(json.results[0]!.student.name).toBe(seed(COUNT - 1).name);
    expect(json.pagination).toEqual({
      currentPage: 1,
      totalPages: 12,
      totalResults: COUNT,
      hasNext: true,
      hasPrev: false,
    });
    expect(json.stats).toEqual({
      totalResults: COUNT,
      passed: passedCount,
      failed: COUNT - passedCount,
      averagePercentage: Math.round(percentages.reduce((a, b) => a + b, 0) / COUNT),
      passRate: Math.round((passedCount * 100) / COUNT),
    });
  });

  test('when every page of 50 is read, then each result appears exactly once and the last page has no next', async () => {
    const ids: string[] = [];
    for (let page = 1; page <= 5; page++) {
      const json = await list(`?limit=50&page=${page}`);
      ids.push(...json.results.map((r) => r._id));
      expect(json.pagination.hasPrev).toBe(page > 1);
      expect(json.pagination.hasNext).toBe(page < 5);
    }
    expect(new Set(ids).size).toBe(COUNT);
    const beyond = await list('?limit=50&page=6');
    expect(beyond.results).toEqual([]);
    expect(beyond.pagination).toMatchObject({ currentPage: 6, totalPages: 5, hasNext: false, hasPrev: true });
  });

  test('when a search is given, then it matches a case-insensitive substring of the name or the e-mail, and the stats stay over all results', async () => {
    const byName = await list('?search=tURING&limit=100');
    expect(byName.pagination.totalResults).toBe(60);
    expect(byName.results.every((r) => r.student.name.startsWith('Turing'))).toBe(true);
    expect(byName.stats.totalResults).toBe(COUNT);

    const byEmail = await list('?search=SCHOOL.ORG&limit=10');
    expect(byEmail.pagination).toMatchObject({ totalResults: 120, totalPages: 12 });

    const middle = await list('?search=ace%2012');
    expect(middle.results.map((r) => r.student.name)).toEqual([
      'Lovelace 129',
      'Lovelace 125',
      'Lovelace 121',
    ]);

    const literal = await list(`?search=${encodeURIComponent('%')}`);
    expect(literal.pagination.totalResults).toBe(0);
  });

  test('when a status is chosen, then only those results are counted and listed', async () => {
    const passed = await list('?status=passed&limit=100');
    expect(passed.pagination.totalResults).toBe(passedCount);
    expect(passed.results.every((r) => r.passed)).toBe(true);
    const failed = await list('?status=failed&search=hopper&limit=100');
    const expected = all.filter((s) => s.name.startsWith('Hopper') && s.score < 5).length;
    expect(failed.pagination.totalResults).toBe(expected);
    expect(failed.results.every((r) => !r.passed && r.student.name.startsWith('Hopper'))).toBe(true);
  });

  const ascending = (values: Array<string | number>) =>
    values.every((v, i) => i === 0 || values[i - 1]! <= v);

  test.each([
    ['completedAt', (r: Row): string | number => r.completedAt],
    ['studentName', (r: Row): string | number => r.student.name],
    ['score', (r: Row): string | number => r.percentage],
    ['assessmentCode', (r: Row): string | number => r.assessmentCode],
  ])('when sorted by %s, then both orders hold across pages', async (sortBy, key) => {
    for (const order of ['asc', 'desc'] as const) {
      const first = await list(`?sortBy=${sortBy}&sortOrder=${order}&limit=100`);
      const second = await list(`?sortBy=${sortBy}&sortOrder=${order}&limit=100&page=2`);
      const rows = [...first.results, ...second.results];
      const values = rows.map(key);
      expect(ascending(order === 'asc' ? values : values.reverse())).toBe(true);
      expect(new Set(rows.map((r) => r._id)).size).toBe(200);
    }
  });

  test.each([
    ['page=0', /^page must be a whole number of at least 1$/],
    ['page=abc', /^page must be a whole number of at least 1$/],
    ['page=1.5', /^page must be a whole number of at least 1$/],
    ['page=1&page=2', /^page must be a whole number of at least 1$/],
    ['limit=15', /^limit must be 10, 20, 50 or 100$/],
    ['limit=1000', /^limit must be 10, 20, 50 or 100$/],
    ['status=archived', /^status must be all, passed or failed$/],
    ['sortBy=email', /^sortBy must be one of completedAt, studentName, score, assessmentCode$/],
    ['sortOrder=up', /^sortOrder must be asc or desc$/],
    ['search=a%07b', /control characters/],
    ['search=a&search=b', /^Search must be one text$/],
    [`search=${'x'.repeat(201)}`, /^Search must be at most 200 characters$/],
  ])('when the query is %s, then 400 with a message', async (query, message) => {
    const res = await h.call('GET', `/api/admin/results?${query}`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string; code: string };
    expect(body.message).toMatch(message);
    expect(body.code).toBeTruthy();
  });
});
