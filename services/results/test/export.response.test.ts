import { randomUUID } from 'node:crypto';
import { eventually } from '@readiness/testing';
import {
  ALL_BUT_Q1,
  ALL_RIGHT,
  AT_THE_PASS_MARK,
  useResults,
  versionEvent,
  weightedVersion,
} from './harness';

jest.setTimeout(60_000);

describe('the CSV export', () => {
  const version = versionEvent();
  const h = useResults('real', { versions: [version] });

  test('when results are exported, then the file is a CSV attachment whose formula-like cells are escaped', async () => {
    const names = [
      '=HYPERLINK("http://x.test","click")',
      '+1 Plus',
      '-2 Minus',
      '@SUM(A1)',
      '\tTabbed',
      'Plain, Comma',
      // Where `;` separates cells, unquoted this is three cells, the middle one a formula.
      'Eve;=1+1;x',
      '  =SUM(A1)',
    ];
    for (const [i, name] of names.entries()) {
      await h.submit({
        name,
        email: `p${i}@example.edu`,
        versionId: version.versionId,
        submittedAt: new Date(Date.UTC(2026, 0, 1, i)),
        answers: i % 2 ? [] : ALL_RIGHT,
      });
    }
    const res = await h.call('GET', '/api/admin/results/export.csv?sortBy=completedAt&sortOrder=asc');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="results-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const text = await res.text();
    const lines = text.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe(
      'Student Name,Email,Score,Total Points,Percentage,Status,Performance Level,Assessment Code,Attempt,Version,Completed At',
    );
    const names0 = lines.slice(1, 9).map((l) => l.slice(0, l.indexOf(',p')));
    expect(names0).toEqual([
      `"'=HYPERLINK(""http://x.test"",""click"")"`,
      "'+1 Plus",
      "'-2 Minus",
      "'@SUM(A1)",
      `"'\tTabbed"`,
      '"Plain, Comma"',
      '"Eve;=1+1;x"',
      "'  =SUM(A1)",
    ]);
    expect(lines[1]).toMatch(
      /,p0@example\.edu,6,6,100,Passed,Excellent,RDY-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4},1,1,2026-01-01T00:00:00\.000Z$/,
    );
    expect(lines[2]).toMatch(/,p1@example\.edu,0,6,0,Failed,Needs Improvement,/);
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(10);
  });

  test('when the export carries the list filter, then only the matching results are in it', async () => {
    const passed = await (await h.call('GET', '/api/admin/results/export.csv?status=passed')).text();
    expect(passed.split('\r\n').filter((l) => l.includes('@example.edu'))).toHaveLength(4);
    expect(passed).not.toContain('Failed');
    const searched = await (await h.call('GET', '/api/admin/results/export.csv?search=P3%40')).text();
    expect(searched.split('\r\n').filter((l) => l.includes('@example.edu'))).toEqual([
      expect.stringContaining('p3@example.edu'),
    ]);
    // Each export is announced for the audit log, with who, its filters and its rows (issue 43, item 6).
    const exported = await eventually(() => {
      const found = h.eventsNamed('results.results.exported.v1').map((e) => e.payload);
      return found.some((e) => e.search === 'P3@') ? found : false;
    }, 'the export events');
    expect(exported).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ status: 'passed', search: '', rows: 4, actorId: expect.any(String) }),
        expect.objectContaining({ status: 'all', search: 'P3@', rows: 1 }),
      ]),
    );
  });

  test.each(AT_THE_PASS_MARK)(
    'when $score of $total points are exported against a passing score of 70, then the line reads $shown and $level',
    async ({ points, score, total, shown, passed, level }) => {
      const weighted = weightedVersion(points);
      await h.publish('assessment.version.published.v1', weighted);
      const email = `${randomUUID()}@example.edu`;
      await h.submit({ versionId: weighted.versionId, email, answers: ALL_BUT_Q1 });
      const text = await (await h.call('GET', `/api/admin/results/export.csv?search=${email}`)).text();
      expect(text.split('\r\n').filter((l) => l.includes(email))).toEqual([
        expect.stringContaining(
          `,${email},${score},${total},${shown},${passed ? 'Passed' : 'Failed'},${level},`,
        ),
      ]);
    },
  );

  test('when the export filter is not valid, then 400 with a message', async () => {
    const res = await h.call('GET', '/api/admin/results/export.csv?status=maybe');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: 'status must be all, passed or failed' });
  });
});
