import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { ReportDocument } from '@readiness/contracts';
import { eventually } from '@readiness/testing';
import { pdfText, resultFacts, startReport, type Harness } from './harness';

jest.setTimeout(120_000);

describe('PDF downloads', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startReport('real');
    await h.publishVersion();
  });

  afterAll(async () => {
    await h?.close();
  });

  /** A failed result mails nothing: its copy is what the report needs. */
  const waitForCopy = (resultId: string) =>
    eventually(
      async () =>
        (await h.database.execute(sql`SELECT 1 FROM results WHERE result_id = ${resultId}`)).length > 0,
      'the copy of the result',
    );

  it.each(['pdf', 'certificate'])(
    'when the result id of a %s download holds a NUL byte or is no id at all, then 400 or 404 with a message, never a 500',
    async (kind) => {
      for (const [id, status] of [
        ['%00', 400],
        ['abc%00def', 400],
        ['not-a-uuid', 404],
        ['0', 404],
      ] as const) {
        const res = await h.get(`/api/admin/results/${id}/${kind}`);
        expect([id, res.status]).toEqual([id, status]);
        expect(((await res.json()) as { message: string }).message).toMatch(/NUL|Result not found/);
      }
    },
  );

  it('when an admin downloads the report of a result, then it is a PDF named after the student with every section', async () => {
    const facts = resultFacts({ name: 'Émile  Zola', email: 'emile@example.edu', percentage: 85 });
    await h.publishResult(facts);
    await h.mail.waitFor((m) => m.to.includes('emile@example.edu'), 30_000);

    const res = await h.get(`/api/admin/results/${facts.resultId}/pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="assessment-report-_mile-Zola.pdf"; filename*=UTF-8''assessment-report-%C3%89mile-Zola.pdf`,
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // Headings are printed in capitals.
    const text = pdfText(Buffer.from(await res.arrayBuffer())).toLowerCase();
    for (const expected of [
      'Assessment Report',
      'Student Information',
      'emile@example.edu',
      'Overview',
      '85%',
      'Passed',
      'Good',
      'Section Performance',
      'Technology',
      'Question-by-Question Results',
      'Do you have a reliable internet connection at home?',
      'More than 5',
      facts.assessmentCode,
    ]) {
      expect(text).toContain(expected.toLowerCase());
    }
  });

  it("when an admin downloads the report, then it lists the attempt's timeline as facts, in UTC", async () => {
    const at = (minute: number, second = 0) =>
      new Date(Date.UTC(2026, 10, 20, 10, minute, second)).toISOString();
    const facts = resultFacts({
      name: 'Tim Line',
      email: 'timeline@example.edu',
      percentage: 40,
      passed: false,
      timeline: [
        { at: at(0), kind: 'started' },
        { at: at(1), kind: 'section_reached', sectionId: 2 },
        { at: at(2), kind: 'saved', count: 4, until: at(5, 30) },
        { at: at(6), kind: 'page_hidden', seconds: 45 },
        { at: at(7), kind: 'offline', seconds: 125 },
        { at: at(8), kind: 'pasted', questionId: 'q2', count: 120 },
        { at: at(9), kind: 'second_device' },
        { at: at(10), kind: 'extended', minutes: 15, actorId: 'a1' },
        { at: at(29), kind: 'timed_out' },
      ],
    });
    await h.publishResult(facts);
    await waitForCopy(facts.resultId);
    const res = await h.get(`/api/admin/results/${facts.resultId}/pdf`);
    expect(res.status).toBe(200);
    const text = pdfText(Buffer.from(await res.arrayBuffer())).replace(/[ \t]+/g, ' ');
    for (const line of [
      'What happened during this attempt. These are facts, not part of the score.',
      '10:00:00 UTC Started',
      '10:01:00 UTC Reached section 2: Study habits',
      '10:02:00 UTC Answers saved 4 times, until 10:05:30',
      '10:06:00 UTC Left the page for 45 s',
      '10:07:00 UTC Offline for 2 min 5 s',
      '10:08:00 UTC Pasted 120 characters into question 2',
      '10:09:00 UTC Opened on a second device or browser',
      '10:10:00 UTC 15 minutes added by an administrator',
      '10:29:00 UTC Ended when the time ran out',
    ]) {
      expect(text).toContain(line);
    }

    // A result recorded before timelines says so.
    const older = resultFacts({ email: 'older@example.edu', passed: false, percentage: 10 });
    await h.publishResult(older);
    await waitForCopy(older.resultId);
    const plain = pdfText(
      Buffer.from(await (await h.get(`/api/admin/results/${older.resultId}/pdf`)).arrayBuffer()),
    );
    expect(plain.replace(/\s+/g, ' ')).toContain('No timeline was recorded for this attempt.');
  });

  it('when an optional question was skipped, then the report says Skipped and counts it for nothing', async () => {
    const facts = resultFacts({
      name: 'Skip Per',
      email: 'skip@example.edu',
      percentage: 100,
      secondSkipped: true,
    });
    await h.publishResult(facts);
    await h.mail.waitFor((m) => m.to.includes('skip@example.edu'), 30_000);
    const res = await h.get(`/api/admin/results/${facts.resultId}/pdf`);
    expect(res.status).toBe(200);
    const text = pdfText(Buffer.from(await res.arrayBuffer())).toLowerCase();
    expect(text).toContain('skipped');
    expect(text).toContain('not counted');
    expect(text).not.toContain('incorrect');
  });

  it("when the attempt was given some of the version's questions, then each question shows its number in the version and, where it differs, its place on the paper", async () => {
    const drawn = resultFacts({ name: 'Drawn Paper', email: 'drawn@example.edu', drawnSecondOnly: true });
    const whole = resultFacts({ name: 'Whole Paper', email: 'whole@example.edu' });
    await h.publishResult(drawn);
    await h.publishResult(whole);
    await h.mail.waitFor((m) => m.to.includes('drawn@example.edu'), 30_000);
    await h.mail.waitFor((m) => m.to.includes('whole@example.edu'), 30_000);
    const textOf = async (resultId: string) =>
      pdfText(Buffer.from(await (await h.get(`/api/admin/results/${resultId}/pdf`)).arrayBuffer())).replace(
        /\s+/g,
        ' ',
      );

    // The paper's only question is the version's second: Q2, and the 1st on this paper (not numbered 1).
    const text = await textOf(drawn.resultId);
    expect(text).toMatch(/Q2 How many hours a week can you set aside for study\? .*1st on this paper/);
    expect(text).not.toMatch(/\bQ1\b/);
    // A paper with every question in the version's order: the numbers alone.
    const plain = await textOf(whole.resultId);
    expect(plain).toContain('Q1 Do you have a reliable internet connection at home?');
    expect(plain).toContain('Q2 How many hours a week');
    expect(plain).not.toContain('on this paper');
  });

  it('when an admin downloads the certificate of a passed result, then it is the stored PDF named after name and e-mail', async () => {
    const facts = resultFacts({ name: 'Ada Lovelace', email: 'ada.cert@example.edu', percentage: 97 });
    await h.publishResult(facts);
    await h.mail.waitFor((m) => m.to.includes('ada.cert@example.edu'), 30_000);

    const res = await h.get(`/api/admin/results/${facts.resultId}/certificate`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(
      'filename="certificate-Ada-Lovelace-ada.cert@example.edu.pdf"',
    );
    const text = pdfText(Buffer.from(await res.arrayBuffer()));
    expect(text).toContain('Certificate of Achievement');
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain('97%');
    expect(text).toContain(facts.assessmentCode);
    // Both downloads of the result are announced for the audit log, naming the admin (issue 43, item 6).
    expect((await h.get(`/api/admin/results/${facts.resultId}/pdf`)).status).toBe(200);
    const downloads = await eventually(() => {
      const found = h.downloaded.filter((d) => d.resultId === facts.resultId);
      return found.length >= 2 ? found : false;
    }, 'the download events');
    expect(downloads).toEqual([
      expect.objectContaining({
        document: ReportDocument.CERTIFICATE,
        fileName: 'certificate-Ada-Lovelace-ada.cert@example.edu.pdf',
        actorId: expect.any(String),
      }),
      expect.objectContaining({ document: ReportDocument.REPORT }),
    ]);
  });

  it.each([
    {
      score: 139,
      totalPoints: 200,
      passed: false,
      shown: '69.5%',
      level: 'Needs Improvement',
      pass: '140 of 200',
    },
    {
      score: 1399,
      totalPoints: 2000,
      passed: false,
      shown: '69.9%',
      level: 'Needs Improvement',
      pass: '1400 of 2000',
    },
    { score: 7, totalPoints: 10, passed: true, shown: '70%', level: 'Satisfactory', pass: '7 of 10' },
  ])(
    'when the report of $score of $totalPoints points against a passing score of 70 is downloaded, then it reads $shown, $level and the points that pass',
    async ({ score, totalPoints, passed, shown, level, pass }) => {
      const facts = resultFacts({
        email: `${score}.of.${totalPoints}@example.edu`,
        passed,
        score,
        totalPoints,
      });
      await h.publishResult(facts);
      await waitForCopy(facts.resultId);
      const res = await h.get(`/api/admin/results/${facts.resultId}/pdf`);
      const text = pdfText(Buffer.from(await res.arrayBuffer())).replace(/\s+/g, ' ');
      expect(text).toContain(`70% (${pass} points)`);
      // The overview's cards: score, percentage, status and level.
      expect(text).toContain(`${score} / ${totalPoints} ${shown} ${passed ? 'Passed' : 'Failed'} ${level}`);
    },
  );

  it('when a passed result scored 1799 of 2000 points (89.95 %), then its certificate and its verification read 89.9%, not 90%', async () => {
    const facts = resultFacts({ email: 'just.good@example.edu', score: 1799, totalPoints: 2000 });
    await h.publishResult(facts);
    await eventually(() => h.issued.some((e) => e.resultId === facts.resultId), 'the certificate', 30_000);
    const issued = h.issued.find((e) => e.resultId === facts.resultId)!;
    expect([issued.score, issued.totalPoints]).toEqual([1799, 2000]);
    const res = await h.get(`/api/admin/results/${facts.resultId}/certificate`);
    const text = pdfText(Buffer.from(await res.arrayBuffer()));
    expect(text).toContain('89.9%');
    expect(text).not.toContain('90%');
    const verified = await h.get(`/api/certificates/${facts.assessmentCode}`, { token: null });
    expect(await verified.json()).toMatchObject({ valid: true, percentage: 89.9 });
  });

  it('when the result is unknown, then both downloads answer 404 Result not found', async () => {
    for (const kind of ['pdf', 'certificate']) {
      const res = await h.get(`/api/admin/results/no-such-result/${kind}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ code: 'not_found', message: 'Result not found' });
    }
  });

  it('when no admin token is sent, then both downloads answer 401', async () => {
    const facts = resultFacts();
    for (const kind of ['pdf', 'certificate']) {
      const res = await h.get(`/api/admin/results/${facts.resultId}/${kind}`, { token: null });
      expect(res.status).toBe(401);
    }
  });

  it('when a student of a result in Arabic has an Arabic name, then the report stays English and writes the name in Arabic letters', async () => {
    const facts = resultFacts({ name: 'ليلى حسن', passed: false, percentage: 40, language: 'ar' });
    await h.publishResult(facts);
    await waitForCopy(facts.resultId);
    const pdf = Buffer.from(await (await h.get(`/api/admin/results/${facts.resultId}/pdf`)).arrayBuffer());
    const text = pdfText(pdf);
    expect(text).toContain('ليلى حسن');
    expect(text.toLowerCase()).toContain('student information');
    const dir = mkdtempSync(path.join(tmpdir(), 'report-fonts-'));
    try {
      writeFileSync(path.join(dir, 'report.pdf'), pdf);
      expect(execFileSync('pdffonts', [path.join(dir, 'report.pdf')], { encoding: 'utf8' })).toMatch(/Amiri/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when a name carries HTML, then the PDF shows it as text and loads nothing', async () => {
    const before = h.report.exports.renderer.blockedRequests();
    const name = '<img src="http://169.254.169.254/latest/meta-data/"><script>document.title="x"</script>Eve';
    const facts = resultFacts({ name, email: 'eve@example.edu' });
    await h.publishResult(facts);
    await h.mail.waitFor((m) => m.to.includes('eve@example.edu'), 30_000);
    const res = await h.get(`/api/admin/results/${facts.resultId}/pdf`);
    const text = pdfText(Buffer.from(await res.arrayBuffer())).replace(/\s+/g, ' ');
    expect(text).toContain('<img src="http://169.254.169.254/latest/meta-data/">');
    expect(text).toContain('<script>document.title="x"</script>Eve');
    expect(h.report.exports.renderer.blockedRequests()).toBe(before);
  });
});
