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

  it.each<[number, boolean, string]>([
    [100, true, 'Passed,Excellent'],
    [90, true, 'Passed,Excellent'],
    [89, true, 'Passed,Good'],
    [80, true, 'Passed,Good'],
    [79, true, 'Passed,Satisfactory'],
    [70, true, 'Passed,Satisfactory'],
    // 69.5 % is shown as 70 and is still a fail: the status is the result's, the level the shown percentage's.
    [70, false, 'Failed,Satisfactory'],
    [69, false, 'Failed,Needs Improvement'],
    [0, false, 'Failed,Needs Improvement'],
  ])(
    'when the percentage is %i and passed is %s, then the status and level read %s',
    (percentage, passed, words) => {
      expect(csvResultLine(result({ percentage, passed }))).toContain(`,${percentage},${words},`);
    },
  );
});
