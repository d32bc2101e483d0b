import { screen, waitFor } from '@testing-library/react';
import { outage } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { renderStudentApp, where } from '../../../testing/render-student';
import { server } from '../../../testing/server';
import {
  db,
  makeFailedResult,
  makeResult,
  seededFailedResult,
  seededResult,
  TOKEN,
  useStudentServer,
} from './student-server';

useStudentServer();

const completePath = `/assessment/${TOKEN}/complete`;

function mockReducedMotion(reduce: boolean) {
  window.matchMedia = ((query: string) => ({
    matches: reduce && query.includes('reduce'),
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  })) as unknown as typeof window.matchMedia;
}

afterEach(() => {
  delete (window as { matchMedia?: unknown }).matchMedia;
});

describe('Completion page', () => {
  it('when the result passed arrives through navigation, then it shows the pass with trophy and confetti without asking the server', async () => {
    mockReducedMotion(false);
    renderStudentApp(completePath, {
      state: {
        result: makeResult({
          attemptNumber: 1,
          certificateUrl: 'https://readiness.example/api/certificates/KXT-4QP-9MW/pdf?expires=1&signature=s',
        }),
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Congratulations!' })).toBeInTheDocument();
    expect(
      screen.getByText('You have successfully passed the Distance Education Readiness Assessment'),
    ).toBeInTheDocument();
    expect(screen.getByText(/ready to begin your distance education journey/)).toBeInTheDocument();
    const { percentage, score, totalPoints, assessmentCode } = seededResult();
    expect(screen.getByText(`${percentage}%`)).toBeInTheDocument();
    expect(screen.getByText(`${score} / ${totalPoints} points`)).toBeInTheDocument();
    // 'Attempt #1' said once: the value, its label for screen readers only.
    expect(screen.getByText('Attempt #1', { selector: 'dd' })).toBeInTheDocument();
    expect(screen.getByText('Attempt', { selector: 'dt' })).toHaveClass('visually-hidden');
    expect(screen.getByText(assessmentCode)).toBeInTheDocument();
    expect(screen.getByText('Status')).toBeInTheDocument();
    expect(screen.getByText('PASSED')).toBeInTheDocument();
    expect(screen.getByText('Required: 70% to pass')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: "What's Next?" })).toBeInTheDocument();
    expect(screen.getByText(/confirmation e-mail with your results/)).toBeInTheDocument();
    expect(screen.getByText(/admissions team will contact you/)).toBeInTheDocument();
    expect(screen.getByText(/Prepare for your distance education journey/)).toBeInTheDocument();
    expect(screen.getByTestId('confetti')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Retake Assessment' })).not.toBeInTheDocument();
    expect(db.resultRequests).toBe(0);
  });

  it.each([
    { score: 139, totalPoints: 200, percentage: 69.5, passed: false, status: 'FAILED', needed: '140 of 200' },
    {
      score: 1399,
      totalPoints: 2000,
      percentage: 69.9,
      passed: false,
      status: 'FAILED',
      needed: '1,400 of 2,000',
    },
    { score: 7, totalPoints: 10, percentage: 70, passed: true, status: 'PASSED', needed: '7 of 10' },
  ])(
    'when $score of $totalPoints points arrive against a passing score of 70, then the page reads $percentage %, $status and the points needed',
    async ({ score, totalPoints, percentage, passed, status, needed }) => {
      mockReducedMotion(true);
      renderStudentApp(completePath, {
        state: { result: makeResult({ score, totalPoints, percentage, passed, canRetake: !passed }) },
      });
      await screen.findByText(status);
      expect(screen.getByText(`${percentage}%`)).toBeInTheDocument();
      expect(screen.getByText('Required: 70% to pass')).toBeInTheDocument();
      expect(screen.getByText(`Points needed to pass: ${needed}`)).toBeInTheDocument();
    },
  );

  it('when a pass is opened again, then its confetti does not fall again; another attempt’s pass has its own', async () => {
    mockReducedMotion(false);
    const first = renderStudentApp(completePath, { state: { result: makeResult({ attemptId: 'att-1' }) } });
    await screen.findByRole('heading', { name: 'Congratulations!' });
    expect(screen.getByTestId('confetti')).toBeInTheDocument();
    first.unmount();

    const again = renderStudentApp(completePath, { state: { result: makeResult({ attemptId: 'att-1' }) } });
    await screen.findByRole('heading', { name: 'Congratulations!' });
    expect(screen.queryByTestId('confetti')).not.toBeInTheDocument();
    again.unmount();

    renderStudentApp(completePath, { state: { result: makeResult({ _id: 'r-2', attemptId: 'att-2' }) } });
    await screen.findByRole('heading', { name: 'Congratulations!' });
    expect(screen.getByTestId('confetti')).toBeInTheDocument();
  });

  it('when this browser keeps nothing (private browsing), then each visit to a pass has its confetti', async () => {
    mockReducedMotion(false);
    const refuse = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    const setItem = jest.spyOn(Storage.prototype, 'setItem').mockImplementation(refuse);
    const getItem = jest.spyOn(Storage.prototype, 'getItem').mockImplementation(refuse);
    try {
      const first = renderStudentApp(completePath, { state: { result: makeResult() } });
      await screen.findByRole('heading', { name: 'Congratulations!' });
      expect(screen.getByTestId('confetti')).toBeInTheDocument();
      first.unmount();
      renderStudentApp(completePath, { state: { result: makeResult() } });
      await screen.findByRole('heading', { name: 'Congratulations!' });
      expect(screen.getByTestId('confetti')).toBeInTheDocument();
    } finally {
      setItem.mockRestore();
      getItem.mockRestore();
    }
  });

  it('when the page opens, then it is at its top with the result’s heading focused, so a screen reader starts there', async () => {
    const scrollTo = jest.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    try {
      renderStudentApp(completePath, { state: { result: makeResult() } });
      const heading = await screen.findByRole('heading', { level: 1, name: 'Congratulations!' });
      await waitFor(() => expect(heading).toHaveFocus());
      expect(scrollTo).toHaveBeenCalledWith(0, 0);
    } finally {
      scrollTo.mockRestore();
    }
  });

  it('when the visitor asks for less motion, then the pass shows no confetti', async () => {
    mockReducedMotion(true);
    renderStudentApp(completePath, { state: { result: makeResult() } });
    await screen.findByRole('heading', { name: 'Congratulations!' });
    expect(screen.queryByTestId('confetti')).not.toBeInTheDocument();
  });

  it('when the page opens on its own, then it shows the newest result; a failed one offers the retake', async () => {
    db.results = [
      makeFailedResult({ _id: 'r-2', attemptId: 'att-2', attemptNumber: 2 }),
      makeFailedResult({ _id: 'r-1', attemptId: 'att-1' }),
    ];
    const { user } = renderStudentApp(completePath);
    expect(await screen.findByRole('heading', { level: 1, name: 'Assessment Complete' })).toBeInTheDocument();
    expect(screen.getByText('You did not meet the passing requirements this time')).toBeInTheDocument();
    expect(
      screen.getByText("Don't worry! You can retake the assessment immediately to improve your score."),
    ).toBeInTheDocument();
    expect(screen.getByText(`${seededFailedResult().percentage}%`)).toBeInTheDocument();
    // 'Attempt #2' said once: the value, its label for screen readers only.
    expect(screen.getByText('Attempt #2', { selector: 'dd' })).toBeInTheDocument();
    expect(screen.getByText('Attempt', { selector: 'dt' })).toHaveClass('visually-hidden');
    expect(screen.getByText('FAILED')).toBeInTheDocument();
    expect(screen.getByText(/Review the areas/)).toBeInTheDocument();
    expect(screen.getByText(/computer skills and technical knowledge/)).toBeInTheDocument();
    expect(screen.getByText(/Retake the assessment when you are ready/)).toBeInTheDocument();
    expect(screen.queryByTestId('confetti')).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Retake Assessment' }));
    expect(await screen.findByRole('button', { name: 'Start Assessment' })).toBeInTheDocument();
    expect(where.location?.pathname).toBe(`/assessment/${TOKEN}`);
  });

  it('when a failed result cannot be retaken, then no retake link shows', async () => {
    db.results = [makeFailedResult({ canRetake: false })];
    renderStudentApp(completePath);
    await screen.findByRole('heading', { name: 'Assessment Complete' });
    expect(screen.queryByRole('link', { name: 'Retake Assessment' })).not.toBeInTheDocument();
  });

  it('when the results cannot be fetched, then the failure is only logged and the page keeps waiting', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(
      http.get('/api/student/{token}/results', ({ response }) =>
        response.untyped(outage(503, { message: 'down' })),
      ),
    );
    renderStudentApp(completePath);
    await waitFor(() => expect(log).toHaveBeenCalledWith('Failed to load results:', expect.anything()));
    expect(screen.getByRole('heading', { name: 'Calculating your result…' })).toBeInTheDocument();
    expect(document.querySelector('.Toastify__toast')).toBeNull();
    log.mockRestore();
  });
});
