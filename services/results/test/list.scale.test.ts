import { sql } from 'drizzle-orm';
import { secondCall, writeTimesSection, type MeasuredCall } from '@readiness/testing';
import { startResults, versionEvent, type Harness } from './harness';

// `make bench` (the jest project `scale`, not `make test`): the results service at 100,000 results, each admin page's
// time written to docs/benchmarks.md ("Results at scale"). results-list.response and export.response test the same
// pages' answers at a small size in `make test`.

jest.setTimeout(300_000);

const COUNT = 100_000;
const version = versionEvent();

let h: Harness;
beforeAll(async () => {
  h = await startResults('embedded', { versions: [version] });
  // 100,000 results of one version, as several enrolment peaks would leave: ten answers and two sections each.
  const answers = JSON.stringify(
    Array.from({ length: 10 }, (_, q) => ({
      questionId: `q${q + 1}`,
      answer: 'yes',
      isCorrect: q % 3 !== 0,
      points: q % 3 !== 0 ? 1 : 0,
      maxPoints: 1,
      section: 1 + (q % 2),
    })),
  );
  await h.database.execute(
    sql`INSERT INTO results (attempt_id, student_id, student_name, student_email, version_id, version,
          assessment_title, passing_score, score, total_points, percentage, passed, attempt_number, assessment_code,
          started_at, completed_at, time_spent_minutes, sections, answers)
        SELECT 'attempt-' || i, 'student-' || i, 'Student ' || i, 'student' || i || '@example.edu',
               ${version.versionId}, 1, 'Readiness check', 70, (i * 37) % 101, 100, (i * 37) % 101,
               (i * 37) % 101 >= 70, 1, 'RDY-' || upper(substr(md5(i::text), 1, 4)) || '-' || lpad(i::text, 6, '0'),
               now() - i * interval '1 minute' - interval '20 minutes', now() - i * interval '1 minute', 20,
               '[{"id":1,"title":"Technology","description":"","score":3,"totalPoints":5,"correct":3,"questions":5,"percentage":60},{"id":2,"title":"Habits","description":"","score":4,"totalPoints":5,"correct":4,"questions":5,"percentage":80}]'::jsonb,
               ${answers}::jsonb
        FROM generate_series(1, ${COUNT}) AS i`,
  );
  // What autovacuum does after a load: statistics, and the visibility map index-only scans rely on.
  await h.database.execute(sql`VACUUM ANALYZE results`);
});
const measured: MeasuredCall[] = [];
afterAll(async () => {
  await h?.close();
  writeTimesSection(
    'results-scale',
    {
      heading: 'Results at scale: 100,000 results',
      file: 'services/results/test/list.scale.test.ts',
      about:
        'The results service in-process over HTTP, the local PostgreSQL, 100,000 results of one version (ten answers, two sections each) after `VACUUM ANALYZE` (what autovacuum leaves after a load), the second call of each query. The goal is under 50 ms for every list page.',
      column: 'Call (100,000 results)',
    },
    measured,
  );
});

const timed = (path: string) => secondCall(() => h.call('GET', path));

const total = (body: string) =>
  (JSON.parse(body) as { pagination: { totalResults: number } }).pagination.totalResults;

test('when 100,000 results are listed, searched, filtered and sorted, then each page answers its totals, and its time is written', async () => {
  const passed = Array.from({ length: COUNT }, (_, k) => ((k + 1) * 37) % 101 >= 70).filter(Boolean).length;
  const cases = [
    ['/api/admin/results', COUNT],
    ['/api/admin/results?sortBy=studentName&sortOrder=asc', COUNT],
    ['/api/admin/results?sortBy=score&sortOrder=desc&status=passed', passed],
    ['/api/admin/results?sortBy=assessmentCode&sortOrder=asc&status=failed&limit=100', COUNT - passed],
    ['/api/admin/results?page=2500&limit=20', COUNT],
    ['/api/admin/results?page=5000&limit=20', COUNT],
    ['/api/admin/results?page=1000&limit=100&sortBy=studentName&sortOrder=asc', COUNT],
    ['/api/admin/results?search=student99999%40', 1],
    ['/api/admin/results?search=Student%2012&limit=50', 1111],
    ['/api/admin/results?search=nobody-matches&status=passed', 0],
  ] as const;
  for (const [path, expected] of cases) {
    const { status, ms, body } = await timed(path);
    expect([path, status, total(body)]).toEqual([path, 200, expected]);
    measured.push([`\`${decodeURIComponent(path)}\``, ms, `${expected.toLocaleString('en')} in all`]);
  }
});

test('when the dashboard, a detail, the item analysis and the whole export are asked for at 100,000 results, then each answers, and its time is written', async () => {
  const [first] = await h.database.execute<{ id: string }>(sql`SELECT id FROM results LIMIT 1`);
  for (const path of [
    '/api/admin/dashboard',
    `/api/admin/results/${first!.id}`,
    '/api/admin/results/analysis',
  ]) {
    const { status, ms } = await timed(path);
    expect([path, status]).toEqual([path, 200]);
    measured.push([`\`${path.replace(first!.id, '{id}')}\``, ms, '200']);
  }
  const started = performance.now();
  const res = await h.call('GET', '/api/admin/results/export.csv');
  const body = await res.text();
  const ms = performance.now() - started;
  expect(res.status).toBe(200);
  expect(body.split('\r\n')).toHaveLength(COUNT + 2);
  measured.push([
    '`/api/admin/results/export.csv` (every row, streamed in keyset batches; first call)',
    ms,
    `${COUNT.toLocaleString('en')} rows, ${(body.length / 1e6).toFixed(1)} MB`,
  ]);
});
