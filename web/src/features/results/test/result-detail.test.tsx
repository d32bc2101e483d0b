import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { assessmentInput, SECTIONS } from '@readiness/testing/fixtures';
import { http } from '../../../testing/openapi-http';
import type { PerformanceLevel } from '../../../lib/bands';
import { superAdmin } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render';
import { openSession, server } from '../../../testing/server';
import {
  ada,
  detailOf,
  failedResult,
  failing,
  grace,
  localTime,
  passedAttempt,
  passedResult,
  passedTimeline,
  saved,
  store,
  useResultsServer,
} from './results-server';

useResultsServer();

const passedId = passedResult.resultId;
const failedId = failedResult.resultId;
/** The details as the service gives them for the seeded passed and failed results. */
const passed = () => detailOf(passedResult);
const failed = () => detailOf(failedResult);
/** The fixtures' questions, in the version's order. */
const [yesNo, multipleChoice, fileUpload] = assessmentInput().questions as [
  ReturnType<typeof assessmentInput>['questions'][number],
  ReturnType<typeof assessmentInput>['questions'][number],
  ReturnType<typeof assessmentInput>['questions'][number],
];
const [technology, habits] = SECTIONS as [(typeof SECTIONS)[number], (typeof SECTIONS)[number]];

async function openDetail(id = passedId) {
  const app = renderApp(`/admin/results/${id}`, { token: openSession(superAdmin._id) });
  await screen.findByRole('region', { name: 'Student Information' });
  return app;
}

const card = (name: string) => screen.getByRole('region', { name });
/** The questions the detail lists, and the number each is shown with. */
const questionItems = () => within(card('Question-by-Question Results')).getAllByRole('listitem');
const numbersShown = (items: HTMLElement[]) =>
  items.map((i) => i.querySelector('.question-results__number')?.textContent);
const fact = (region: HTMLElement, term: string) =>
  within(region).getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;

describe('Result detail', () => {
  it('when a passed result loads, then the student card, overview and buttons show as the SPEC lists them', async () => {
    await openDetail();
    expect(screen.getByRole('link', { name: 'Back to Results' })).toHaveAttribute('href', '/admin/results');
    expect(screen.getByRole('button', { name: 'Download PDF Report' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download Certificate' })).toBeInTheDocument();
    const student = card('Student Information');
    expect(fact(student, 'Name')).toBe(ada.name);
    expect(fact(student, 'Email')).toBe(ada.email);
    expect(fact(student, 'Completed')).toMatch(/Mar 1, 2025/);
    expect(fact(student, 'Assessment Code')).toBe(passedResult.assessmentCode);
    // Every answer right: 100%, the top band.
    const overview = card('Assessment Overview');
    expect(within(overview).getByText(`${passedResult.percentage}%`).parentElement).toHaveClass(
      'score--excellent',
    );
    expect(within(overview).getByText('PASSED')).toBeInTheDocument();
    expect(fact(overview, 'Performance Level')).toBe('Excellent');
    expect(fact(overview, 'Score')).toBe(`${passedResult.score} / ${passedResult.totalPoints} points`);
    expect(fact(overview, 'Passing Score')).toBe(`${passedResult.passingScore}%`);
  });

  it.each([
    {
      score: 139,
      totalPoints: 200,
      percentage: 69.5,
      passed: false,
      shown: '69.5%',
      band: 'low',
      needed: '140 / 200 points',
    },
    {
      score: 1399,
      totalPoints: 2000,
      percentage: 69.9,
      passed: false,
      shown: '69.9%',
      band: 'low',
      needed: '1400 / 2,000 points',
    },
    {
      score: 7,
      totalPoints: 10,
      percentage: 70,
      passed: true,
      shown: '70%',
      band: 'satisfactory',
      needed: '7 / 10 points',
    },
  ] as const)(
    'when $score of $totalPoints points are opened against a passing score of 70, then the overview reads $shown and the points needed',
    async ({ score, totalPoints, percentage, passed, shown, band, needed }) => {
      store.details.set(failedId, {
        ...failed(),
        score,
        totalPoints,
        percentage,
        passed,
        performanceLevel: passed ? 'Satisfactory' : 'Needs Improvement',
        passingScore: 70,
        sections: [{ ...failed().sections[0]!, score, totalPoints, percentage }],
      });
      await openDetail(failedId);
      const overview = card('Assessment Overview');
      expect(within(overview).getByText(shown, { selector: '.overview__percent' }).parentElement).toHaveClass(
        `score--${band}`,
      );
      expect(within(overview).getByText(passed ? 'PASSED' : 'FAILED')).toBeInTheDocument();
      expect(fact(overview, 'Passing Score')).toBe('70%');
      expect(fact(overview, 'Points Needed to Pass')).toBe(needed);
      expect(within(card('Section Performance')).getByText(shown)).toBeInTheDocument();
    },
  );

  it('when the result has no code and failed, then "N/A", FAILED, the low band colour and no certificate button show', async () => {
    // The failed result's code is empty; its version is one the service has no copy of.
    store.details.set(failedId, { ...failed(), assessmentVersion: null });
    await openDetail(failedId);
    expect(fact(card('Student Information'), 'Name')).toBe(grace.name);
    expect(fact(card('Student Information'), 'Assessment Code')).toBe('N/A');
    // 4 of 6 points: 66.7%, below the 70 to pass.
    const overview = card('Assessment Overview');
    expect(within(overview).getByText('FAILED')).toBeInTheDocument();
    expect(within(overview).getByText(`${failed().percentage}%`).parentElement).toHaveClass('score--low');
    expect(fact(overview, 'Performance Level')).toBe('Needs Improvement');
    expect(fact(overview, 'Passing Score')).toBe(`${failedResult.passingScore}%`);
    expect(screen.queryByRole('button', { name: 'Download Certificate' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resend Certificate' })).not.toBeInTheDocument();
  });

  it.each<[number, string, PerformanceLevel]>([
    [95, 'score--excellent', 'Excellent'],
    [90, 'score--excellent', 'Excellent'],
    [89, 'score--good', 'Good'],
    [80, 'score--good', 'Good'],
    [79, 'score--satisfactory', 'Satisfactory'],
    [70, 'score--satisfactory', 'Satisfactory'],
    [69, 'score--low', 'Needs Improvement'],
  ])('when the score is %i%%, then its colour is %s and its level %s', async (percentage, colour, level) => {
    store.details.set(passedId, { ...passed(), percentage, performanceLevel: level });
    await openDetail();
    const overview = card('Assessment Overview');
    expect(
      within(overview).getByText(`${percentage}%`, { selector: '.overview__percent' }).parentElement,
    ).toHaveClass(colour);
    expect(fact(overview, 'Performance Level')).toBe(level);
  });

  it('when sections are shown, then each has title, description, percentage, level, its points and "x / y correct", each named', async () => {
    // The failed result: Technology full marks; Habits 3 of 5 points, one of its two questions right.
    await openDetail(failedId);
    const items = within(card('Section Performance')).getAllByRole('listitem');
    expect(items).toHaveLength(SECTIONS.length);
    const [first, second] = items as [HTMLElement, HTMLElement];
    const [firstFigures, secondFigures] = failedResult.sections as [
      (typeof failedResult.sections)[number],
      (typeof failedResult.sections)[number],
    ];
    expect(within(first).getByRole('heading', { name: technology.title })).toBeInTheDocument();
    expect(within(first).getByText(technology.description)).toBeInTheDocument();
    expect(within(first).getByText(`${firstFigures.percentage}%`)).toBeInTheDocument();
    expect(within(first).getByText('Excellent')).toBeInTheDocument();
    // Out of a single point, 'point' is singular.
    expect(fact(first, 'Score')).toBe(`${firstFigures.score} / ${firstFigures.totalPoints} point`);
    expect(fact(first, 'Questions')).toBe(`${firstFigures.correct} / ${firstFigures.questions} correct`);
    expect(within(second).getByRole('heading', { name: habits.title })).toBeInTheDocument();
    expect(within(second).getByText(`${secondFigures.percentage}%`)).toHaveClass('badge--danger');
    expect(within(second).getByText('Needs Improvement')).toBeInTheDocument();
    // The percentage is of points, so the points it comes from stand beside the count of questions, apart from it.
    expect(fact(second, 'Score')).toBe(`${secondFigures.score} / ${secondFigures.totalPoints} points`);
    expect(fact(second, 'Questions')).toBe(`${secondFigures.correct} / ${secondFigures.questions} correct`);
  });

  it("when questions are listed, then they come in the version's order with the version's numbers (Q1, Q2…)", async () => {
    // The failed result, its answers in another order than the version's: the multiple choice wrong.
    store.details.set(failedId, { ...failed(), answers: [...failed().answers].reverse() });
    await openDetail(failedId);
    const items = questionItems();
    expect(numbersShown(items)).toEqual(['Q1', 'Q2', 'Q3']);
    expect(items.map((i) => i.querySelector('.question-results__text')?.textContent)).toEqual([
      yesNo.question,
      multipleChoice.question,
      fileUpload.question,
    ]);
    const [first, second, third] = items as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(first).getByText('Correct')).toBeInTheDocument();
    // 'point' is singular for exactly 1, plural for 0 and 3.
    expect(within(first).getByText(/^1 point$/)).toBeInTheDocument();
    expect(within(second).getByText('Incorrect')).toBeInTheDocument();
    expect(within(second).getByText(/^0 points/)).toBeInTheDocument();
    const rightOption = multipleChoice.options!.find((o) => o.id === multipleChoice.correctAnswer)!;
    expect(within(second).getByText(rightOption.text, { exact: true })).toBeInTheDocument();
    expect(within(third).getByText('Correct')).toBeInTheDocument();
    expect(within(third).getByText(/^3 points/)).toBeInTheDocument();
  });

  it("when the attempt was given some of the version's questions, then each shows the version's number and, where it differs, its place on the paper", async () => {
    // The paper drew Q2 and Q3 of the version and showed Q3 first; Q2 stood second on it, as in the version.
    const onPaper: Record<string, number> = { [multipleChoice.id]: 2, [fileUpload.id]: 1 };
    store.details.set(passedId, {
      ...passed(),
      answers: passed()
        .answers.filter((a) => a.questionId in onPaper)
        .map((a) => ({ ...a, paperPosition: onPaper[a.questionId]! })),
    });
    await openDetail();
    expect(numbersShown(questionItems())).toEqual(['Q2', 'Q3 — 1st on this paper']);
  });

  it('when an optional question was skipped, then it reads Skipped, not Incorrect, and shows no points against the student', async () => {
    // The file upload is the optional question; left unanswered, it has no file either.
    expect(fileUpload.required).toBe(false);
    store.details.set(passedId, {
      ...passed(),
      answers: passed().answers.map(({ file, ...a }) =>
        a.questionId === fileUpload.id
          ? { ...a, answer: '', answerText: '', isCorrect: false, skipped: true, points: 0 }
          : { ...a, ...(file ? { file } : {}) },
      ),
    });
    await openDetail();
    const skipped = questionItems()[2]!;
    expect(within(skipped).getByText('Skipped')).toBeInTheDocument();
    expect(within(skipped).queryByText('Incorrect')).not.toBeInTheDocument();
    expect(within(skipped).getByText('Optional, not counted')).toBeInTheDocument();
    expect(within(skipped).queryByText(/Correct answer/)).not.toBeInTheDocument();
    expect(skipped).toHaveClass('question-results__item--skipped');
  });

  it('when an uploaded answer is opened, then it is fetched with the admin token and saved under its name', async () => {
    // The file handed in with the attempt, under the student's and the attempt's ids.
    const { originalName } = passedAttempt.answers.find((a) => a.questionId === fileUpload.id)!.file!;
    const { user } = await openDetail();
    await user.click(screen.getByRole('button', { name: `Download ${originalName}` }));
    await waitFor(() => expect(saved).toEqual([originalName]));
    const asked = store.fileRequests.at(-1)!;
    expect(asked.path).toBe(
      `/api/admin/students/${ada.studentId}/attempts/${passedAttempt.attemptId}/files/${fileUpload.id}`,
    );
    expect(asked.authorization).toMatch(/^Bearer /);
  });

  it('when the PDF report and the certificate are downloaded, then each is saved under the SPEC file name', async () => {
    const { user } = await openDetail();
    await user.click(screen.getByRole('button', { name: 'Download PDF Report' }));
    expect(await screen.findByText('PDF report downloaded successfully')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Download Certificate' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(saved).toEqual(['assessment-report-Ada-Lovelace.pdf', `certificate-${ada.name}-${ada.email}.pdf`]);
    expect(store.fileRequests.map((r) => r.path)).toEqual([
      `/api/admin/results/${passedId}/pdf`,
      `/api/admin/results/${passedId}/certificate`,
    ]);
  });

  it('when the PDF report is being prepared, then the button shows its progress', async () => {
    let release!: () => void;
    server.use(
      http.get('/api/admin/results/{id}/pdf', async ({ response }) => {
        await new Promise<void>((resolve) => (release = resolve));
        // A PDF, which the declared types do not describe as JSON.
        return response.untyped(
          new HttpResponse(new Blob(['%PDF']), { headers: { 'Content-Type': 'application/pdf' } }),
        );
      }),
    );
    const { user } = await openDetail();
    await user.click(screen.getByRole('button', { name: 'Download PDF Report' }));
    const busy = await screen.findByRole('button', { name: 'Preparing PDF…' });
    expect(busy).toHaveAttribute('aria-busy', 'true');
    release();
    expect(await screen.findByRole('button', { name: 'Download PDF Report' })).toBeEnabled();
  });

  it('when a download fails, then "Failed to download PDF report" or "Failed to download certificate" shows', async () => {
    server.use(
      failing('get', '/api/admin/results/{id}/pdf', 503, 'No browser'),
      failing('get', '/api/admin/results/{id}/certificate', 404, 'No certificate'),
    );
    const { user } = await openDetail();
    await user.click(screen.getByRole('button', { name: 'Download PDF Report' }));
    expect(await screen.findByText('Failed to download PDF report')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Download Certificate' }));
    expect(await screen.findByText('Failed to download certificate')).toBeInTheDocument();
    expect(saved).toEqual([]);
  });

  it('when the certificate is resent from the detail, then it asks first and confirms', async () => {
    const { user } = await openDetail();
    await user.click(screen.getByRole('button', { name: 'Resend Certificate' }));
    const dialog = screen.getByRole('dialog', { name: 'Resend Certificate' });
    await user.click(within(dialog).getByRole('button', { name: 'Resend Certificate' }));
    expect(await screen.findByText('Certificate resent successfully')).toBeInTheDocument();
    expect(store.resent).toEqual([passedId]);
  });

  describe('Timeline', () => {
    const rows = () =>
      within(card('Timeline'))
        .getAllByRole('listitem')
        .map((item) => ({
          time: item.querySelector('time')?.textContent,
          text: item.querySelector('.timeline__text')?.textContent,
          notable: item.classList.contains('timeline__item--notable'),
        }));

    it("when the attempt has a timeline, then each fact reads as a plain sentence at its time (the portal's 12-hour clock, with seconds), oldest first", async () => {
      await openDetail();
      const timeline = card('Timeline');
      expect(
        within(timeline).getByText(
          'What happened during this attempt. These are facts, not part of the score.',
        ),
      ).toBeInTheDocument();
      expect(within(timeline).getByRole('list').tagName).toBe('OL');
      expect(rows()).toEqual([
        { time: '10:00:00 AM', text: 'Started', notable: false },
        { time: '10:00:01 AM', text: `Reached section 1: ${technology.title}`, notable: false },
        { time: '10:00:40 AM', text: 'Answers saved', notable: false },
        { time: '10:01:10 AM', text: 'Left the page for 45 s', notable: true },
        { time: '10:02:15 AM', text: `Reached section 2: ${habits.title}`, notable: false },
        { time: '10:02:30 AM', text: 'Answers saved 12 times, until 10:20:03 AM', notable: false },
        { time: '10:05:00 AM', text: 'Offline for 2 min 5 s', notable: true },
        { time: '10:06:00 AM', text: 'Pasted 120 characters into question 2', notable: true },
        { time: '10:07:00 AM', text: 'Opened on a second device or browser', notable: true },
        { time: '10:08:00 AM', text: '15 minutes added by you', notable: true },
        { time: '10:09:00 AM', text: '1 minute added by an administrator', notable: true },
        { time: '10:10:00 AM', text: 'Left the page for 1 h 3 min', notable: true },
        { time: '10:11:00 AM', text: 'Reached a section', notable: false },
        { time: '10:12:00 AM', text: 'Pasted 1 character into an answer', notable: true },
        { time: '10:21:00 AM', text: 'Submitted', notable: false },
      ]);
      // Each time is machine-readable, and nothing in the card wears an error colour.
      const times = within(timeline)
        .getAllByRole('listitem')
        .map((i) => i.querySelector('time'));
      expect(times.map((t) => t?.getAttribute('dateTime'))).toEqual(passedTimeline.map((e) => e.at));
      expect(timeline.querySelector('.badge--danger, .badge--warning')).toBeNull();
      expect(timeline.querySelectorAll('.timeline__item--notable .badge--neutral')).toHaveLength(8);
    });

    it('when an administrator ended the attempt, then it says so, "by you" for the signed-in one', async () => {
      store.details.set(passedId, {
        ...passed(),
        timeline: [
          { kind: 'started', at: localTime(10, 0, 0) },
          { kind: 'ended', at: localTime(10, 30, 0), actorId: 'a-super' },
        ],
      });
      await openDetail();
      expect(rows().map((r) => r.text)).toEqual(['Started', 'Ended by you']);
    });

    it('when the attempt was ended by another administrator or by the clock, then those read as such', async () => {
      store.details.set(passedId, {
        ...passed(),
        timeline: [
          { kind: 'started', at: localTime(23, 50, 0) },
          { kind: 'ended', at: localTime(23, 55, 0), actorId: 'a-regular' },
          { kind: 'timed_out', at: localTime(0, 0, 5, 2) },
        ],
      });
      await openDetail();
      // A time on another day than the start shows its date.
      expect(rows()).toEqual([
        { time: '11:50:00 PM', text: 'Started', notable: false },
        { time: '11:55:00 PM', text: 'Ended by an administrator', notable: false },
        { time: 'Mar 2, 2025 12:00:05 AM', text: 'Ended when the time ran out', notable: false },
      ]);
    });

    it('when the result was recorded before timelines, then the card says none was recorded', async () => {
      store.details.set(passedId, { ...passed(), timeline: [] });
      await openDetail();
      const timeline = card('Timeline');
      expect(within(timeline).getByText('No timeline was recorded for this attempt.')).toBeInTheDocument();
      expect(within(timeline).queryByRole('list')).not.toBeInTheDocument();
    });
  });

  it('when the result cannot be loaded, then "Failed to load assessment result" shows and the list opens', async () => {
    const { router } = renderApp('/admin/results/r-gone', { token: openSession(superAdmin._id) });
    expect(await screen.findByText('Failed to load assessment result')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/results'));
  });

  it('when the answer holds no result, then "Result Not Found" shows', async () => {
    server.use(
      http.get('/api/admin/results/{id}', ({ response }) =>
        // Deliberately malformed: a 200 without the declared `result`.
        response.untyped(HttpResponse.json({})),
      ),
    );
    renderApp('/admin/results/r-empty', { token: openSession(superAdmin._id) });
    expect(await screen.findByText('Result Not Found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Results' })).toBeInTheDocument();
  });

  describe('the LMS gradebook', () => {
    it('when the student did not come from an LMS, then no gradebook card shows', async () => {
      await openDetail();
      expect(screen.queryByRole('region', { name: 'LMS gradebook' })).not.toBeInTheDocument();
    });

    it('when the LMS refused the score, then the card says so with its answer, and "Send again" queues it', async () => {
      store.lmsGrades.set(passedId, {
        resultId: passedId,
        state: 'failed',
        scoreGiven: 86.9,
        tries: 1,
        lastStatus: 400,
        lastAnswer: '{"error":"unknown line item"}',
        nextTryAt: '2025-03-01T10:00:00.000Z',
        sentAt: null,
        updatedAt: '2025-03-01T10:00:00.000Z',
        platformName: 'Moodle',
      });
      await openDetail();
      const gradebook = await screen.findByRole('region', { name: 'LMS gradebook' });
      expect(within(gradebook).getByText('Not sent')).toBeInTheDocument();
      expect(gradebook).toHaveTextContent('86.9 / 100 could not be sent to Moodle.');
      expect(gradebook).toHaveTextContent('400 {"error":"unknown line item"}');
      within(gradebook).getByRole('button', { name: 'Send again' }).click();
      expect(await screen.findByText('The score is being sent to the LMS again')).toBeInTheDocument();
      expect(store.gradesSentAgain).toEqual([passedId]);
      await waitFor(() => expect(within(gradebook).getByText('Sending')).toBeInTheDocument());
      expect(within(gradebook).queryByRole('button', { name: 'Send again' })).not.toBeInTheDocument();
    });
  });
});
