import { sql } from 'drizzle-orm';
import { createSecretBox, generateEventSecretsKey } from '@readiness/kit/outbox';
import { secondCall, writeTimesSection, type MeasuredCall } from '@readiness/testing';
import { startStudent, type Harness } from './harness';

// `make bench` (the jest project `scale`, not `make test`): the student service at 50,000 students, each admin page's
// time written to docs/benchmarks.md ("Students at scale"). invitations.managed tests the list's answers at a small
// size in `make test`; import.bulk the 10,000-row import.

jest.setTimeout(120_000);

let h: Harness;
beforeAll(async () => {
  const key = generateEventSecretsKey();
  h = await startStudent('embedded', { config: { EVENT_SECRETS_KEY: key } });
  const sealed = createSecretBox(key).seal('a-token');
  // 50,000 students, as a large intake would have.
  await h.database.execute(
    sql`INSERT INTO students (name, email, token_hash, sealed_token, expires_at, status, created_at)
        SELECT 'Student ' || i, 'student' || i || '@example.edu', sha256(i::text::bytea), ${sealed}, now() + interval '60 days',
               (ARRAY['invited', 'started', 'completed'])[1 + i % 3], now() - i * interval '1 second'
        FROM generate_series(1, 50000) AS i`,
  );
  await h.database.execute(sql`ANALYZE students`);
});
const measured: MeasuredCall[] = [];
afterAll(async () => {
  await h?.close();
  writeTimesSection(
    'students-scale',
    {
      heading: 'Students at scale: 50,000 students',
      file: 'services/student/test/list.scale.test.ts',
      about:
        'The student service in-process over HTTP, the local PostgreSQL, 50,000 students after `ANALYZE`, the second call of each query (trigram indexes on name and e-mail).',
      column: 'Call (50,000 students)',
    },
    measured,
  );
});

const timed = async (path: string) => {
  const { status, ms, body } = await secondCall(() => h.call('GET', path));
  return {
    status,
    ms,
    total: (JSON.parse(body) as { pagination?: { totalResults: number } }).pagination?.totalResults,
  };
};

test('when 50,000 students are listed, searched and filtered, then each page answers its totals, and its time is written', async () => {
  const cases = [
    ['/api/admin/students?search=student4999%40&limit=20', 1],
    ['/api/admin/students?search=nobody-matches&status=invited', 0],
    ['/api/admin/students?status=completed&page=500&limit=20', 16_667],
    ['/api/admin/students?search=Student%2012&limit=50', 1111],
  ] as const;
  for (const [path, total] of cases) {
    const { status, ms, total: found } = await timed(path);
    expect([path, status, found]).toEqual([path, 200, total]);
    measured.push([`\`${decodeURIComponent(path)}\``, ms, `${total.toLocaleString('en')} in all`]);
  }
});
