import { CSV_HEADER, csvResultLine } from './csv';
import type { ResultRecord } from './result';

const result = (rest: Partial<ResultRecord> & { name?: string; email?: string } = {}): ResultRecord => ({
  id: 'r',
  attemptId: 'a',
  studentId: 's',
  student: { name: rest.name ?? 'Ada Lovelace', email: rest.email ?? 'ada@example.edu' },
  versionId: 'v',
  version: 3,
  assessmentTitle: 'Readiness check',
  localizedTitle: 'Readiness check',
  passingScore: 70,
  score: 6,
  totalPoints: 6,
  percentage: 100,
  passed: true,
  canRetake: false,
  attemptNumber: 2,
  assessmentCode: 'RDY-ABCD-EFGH',
  startedAt: null,
  completedAt: new Date('2026-01-01T09:30:00.000Z'),
  timeSpentMinutes: 12,
  timeline: [],
  language: 'en',
  sections: [],
  answers: [],
  ...rest,
});

describe('the rules of the results CSV', () => {
  it('when the file starts, then its header names every column, with a CRLF line end', () => {
    expect(CSV_HEADER).toBe(
      'Student Name,Email,Score,Total Points,Percentage,Status,Performance Level,Assessment Code,Attempt,Version,Completed At\r\n',
    );
  });

  it('when a result is written, then its line holds every figure in the header order', () => {
    expect(csvResultLine(result())).toBe(
      'Ada Lovelace,ada@example.edu,6,6,100,Passed,Excellent,RDY-ABCD-EFGH,2,3,2026-01-01T09:30:00.000Z\r\n',
    );
  });

  it.each([
    ['=HYPERLINK("http://x.test","click")', `"'=HYPERLINK(""http://x.test"",""click"")"`],
    ['+1 Plus', "'+1 Plus"],
    ['-2 Minus', "'-2 Minus"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tTabbed', `"'\tTabbed"`],
    ['\rReturned', `"'\rReturned"`],
    ['  =SUM(A1)', "'  =SUM(A1)"],
    ['Plain, Comma', '"Plain, Comma"'],
    // Where `;` separates cells, unquoted this is three cells, the middle one a formula.
    ['Eve;=1+1;x', '"Eve;=1+1;x"'],
    ['Line\nbreak', '"Line\nbreak"'],
    ['Say "hi"', '"Say ""hi"""'],
    ["O'Brien-Smith", "O'Brien-Smith"],
    ['Zoë 1+1=2', 'Zoë 1+1=2'],
  ])('when a name is %j, then its cell is %j', (name, cell) => {
    expect(csvResultLine(result({ name }))).toBe(
      `${cell},ada@example.edu,6,6,100,Passed,Excellent,RDY-ABCD-EFGH,2,3,2026-01-01T09:30:00.000Z\r\n`,
    );
  });

  it.each<[number, number, boolean, string]>([
    [6, 6, true, '100,Passed,Excellent'],
    [9, 10, true, '90,Passed,Excellent'],
    [89, 100, true, '89,Passed,Good'],
    [8, 10, true, '80,Passed,Good'],
    [79, 100, true, '79,Passed,Satisfactory'],
    [7, 10, true, '70,Passed,Satisfactory'],
    // Just under the pass mark: never shown as 70, nor banded as if it were.
    [139, 200, false, '69.5,Failed,Needs Improvement'],
    [1399, 2000, false, '69.9,Failed,Needs Improvement'],
    [16, 23, false, '69.6,Failed,Needs Improvement'],
    [0, 6, false, '0,Failed,Needs Improvement'],
  ])(
    'when %i of %i points are written and passed is %s, then the percentage, status and level read %s',
    (score, totalPoints, passed, words) => {
      // The stored whole percent, rounded, is what the line must not show.
      const percentage = Math.round((score * 100) / totalPoints);
      expect(csvResultLine(result({ score, totalPoints, percentage, passed }))).toContain(
        `,${score},${totalPoints},${words},`,
      );
    },
  );
});
