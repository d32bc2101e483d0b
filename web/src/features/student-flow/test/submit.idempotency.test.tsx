import { act, screen, waitFor, within } from '@testing-library/react';
import { outage } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { renderStudentApp, where } from '../../../testing/render-student';
import { server } from '../../../testing/server';
import { keptAnswersKey } from '../autosave';
import {
  attemptAnswered,
  attemptInProgress,
  db,
  makeFailedResult,
  makeResult,
  seededFailedResult,
  seededResult,
  TOKEN,
  useStudentServer,
} from './student-server';

useStudentServer();

const toast = (text: string) => screen.findByText(text, { selector: '.Toastify *' }, { timeout: 4000 });

/** Resumes an attempt whose every required answer is saved, on its last section. */
async function readyToSubmit(minutesLeft = 20) {
  db.attempt = attemptAnswered(minutesLeft);
  const app = renderStudentApp(`/assessment/${TOKEN}`);
  await screen.findByRole('heading', { level: 2, name: 'Motivation' });
  return app;
}

/** The first submit meets a failing server; later ones reach the stand-in. */
function refuseFirstSubmit() {
  let refuse = true;
  server.use(
    http.post('/api/student/{token}/submit', ({ request, response }) => {
      if (!refuse) return undefined;
      refuse = false;
      db.submits.push({ idempotencyKey: request.headers.get('idempotency-key'), body: {} });
      return response.untyped(outage(503, { message: 'down', code: 'unavailable' }));
    }),
  );
}

const READY = 'https://readiness.example/api/certificates/KXT-4QP-9MW/pdf?expires=1&signature=s';

describe('Submitting the assessment', () => {
  it('when Submit is pressed, then the answers go once with the attempt id as Idempotency-Key and the result page follows', async () => {
    // Its certificate is ready already, so the completion page has nothing to ask the server for.
    db.nextResult = makeResult({ certificateUrl: READY });
    const { user } = await readyToSubmit();
    await user.click(screen.getByRole('button', { name: 'Submit Assessment' }));
    // One optional question is left: a summary asks first, and nothing is sent until it is confirmed.
    const summary = await screen.findByRole('dialog', { name: 'Submit your assessment?' });
    expect(summary).toHaveTextContent('4 of 5 answered; 1 optional question skipped.');
    // It names the question left unanswered, by section and number as its card shows them.
    const skipped = within(summary).getByRole('list', { name: 'Not answered — choose one to go to it:' });
    expect(
      within(skipped)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Section 1, question 2']);
    expect(db.submits).toHaveLength(0);
    await user.click(within(summary).getByRole('button', { name: 'Submit now' }));
    expect(await toast('Assessment submitted successfully!')).toBeInTheDocument();
    // The focus is not left on the page's body: the result's heading has it, and a screen reader says it.
    const heading = await screen.findByRole('heading', { name: 'Congratulations!' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(where.location?.pathname).toBe(`/assessment/${TOKEN}/complete`);
    expect(db.submits).toHaveLength(1);
    const [submit] = db.submits;
    expect(submit!.idempotencyKey).toBe('att-1');
    expect(submit!.body).toMatchObject({
      attemptId: 'att-1',
      timeSpent: 10,
      startedAt: db.submits[0]!.body.startedAt,
    });
    expect(submit!.body.answers).toEqual([
      { questionId: 'q1', answer: 'yes' },
      { questionId: 'q3', answer: 'o4' },
      { questionId: 'q5', answer: 'no' },
      { questionId: 'q4', answer: 'file_uploaded' },
    ]);
    // The result came with the answer: the completion page did not have to ask for it.
    expect(db.resultRequests).toBe(0);
    expect(window.localStorage.getItem(keptAnswersKey(TOKEN, 'att-1'))).toBeNull();
  });

  it('when the summary names a skipped question and the student picks it, then its section opens with the question focused, and once answered Submit asks nothing', async () => {
    const { user } = await readyToSubmit();
    await user.click(screen.getByRole('button', { name: 'Submit Assessment' }));
    const summary = await screen.findByRole('dialog', { name: 'Submit your assessment?' });
    await user.click(within(summary).getByRole('button', { name: 'Section 1, question 2' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Technology' })).toBeInTheDocument();
    const question = screen.getByRole('group', { name: /How fast is your internet connection/ });
    await waitFor(() => expect(within(question).getByRole('radio', { name: 'Slow' })).toHaveFocus());
    expect(db.submits).toHaveLength(0);

    await user.click(within(question).getByRole('radio', { name: 'Fast' }));
    await user.click(screen.getByRole('button', { name: 'Next Section' }));
    await user.click(screen.getByRole('button', { name: 'Next Section' }));
    await user.click(screen.getByRole('button', { name: 'Submit Assessment' }));
    expect(await screen.findByRole('heading', { name: 'Congratulations!' })).toBeInTheDocument();
    expect(db.submits[0]!.body.answers).toContainEqual({ questionId: 'q2', answer: 'o2' });
  });

  it('when submitting fails, then "Failed to submit assessment" shows and a retry sends the same key', async () => {
    refuseFirstSubmit();
    const { user } = await readyToSubmit();
    const submit = screen.getByRole('button', { name: 'Submit Assessment' });
    await user.click(submit);
    await user.click(await screen.findByRole('button', { name: 'Submit now' }));
    expect(await toast('Failed to submit assessment')).toBeInTheDocument();
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    await user.click(await screen.findByRole('button', { name: 'Submit now' }));
    expect(await screen.findByRole('heading', { name: 'Congratulations!' })).toBeInTheDocument();
    expect(db.submits.map((s) => s.idempotencyKey)).toEqual(['att-1', 'att-1']);
  });

  it('when the time runs out, then the toast says so and the assessment is submitted by itself', async () => {
    db.attempt = attemptInProgress({ seq: 1, answers: [{ questionId: 'q1', answer: 'no' }] }, 2 / 60);
    renderStudentApp(`/assessment/${TOKEN}`);
    await screen.findByRole('heading', { level: 2, name: 'Study Habits' });
    expect(await toast('Time is up! Submitting your assessment automatically.')).toBeInTheDocument();
    await waitFor(() => expect(db.submits).toHaveLength(1), { timeout: 5000 });
    expect(db.submits[0]!.body.answers).toEqual([{ questionId: 'q1', answer: 'no' }]);
    expect(await screen.findByRole('heading', { name: 'Congratulations!' })).toBeInTheDocument();
    // Read top to bottom, the toasts tell what happened in the order it happened.
    await toast('Assessment submitted successfully!');
    expect([...document.querySelectorAll('.Toastify__toast')].map((t) => t.textContent)).toEqual([
      'Time is up! Submitting your assessment automatically.',
      'Assessment submitted successfully!',
    ]);
  });

  it('when the server is still scoring, then the completion page waits calmly and shows the result once recorded', async () => {
    db.submitAnswers = 'scoring';
    db.results = [makeFailedResult({ _id: 'r-old', attemptId: 'att-0' })];
    const { user } = await readyToSubmit();
    await user.click(screen.getByRole('button', { name: 'Submit Assessment' }));
    await user.click(await screen.findByRole('button', { name: 'Submit now' }));
    const calculating = await screen.findByRole('heading', { name: 'Calculating your result…' });
    await waitFor(() => expect(calculating).toHaveFocus());
    // The earlier, failed result is not this submission's.
    await waitFor(() => expect(db.resultRequests).toBeGreaterThan(0));
    expect(screen.queryByText(`${seededFailedResult().percentage}%`)).not.toBeInTheDocument();
    await act(async () => {
      db.results = [
        makeResult({ _id: 'r-new', attemptId: 'att-1', attemptNumber: 2, certificateUrl: READY }),
        ...db.results,
      ];
    });
    const result = await screen.findByRole('heading', { name: 'Congratulations!' }, { timeout: 5000 });
    await waitFor(() => expect(result).toHaveFocus());
    expect(screen.getByText(`${seededResult().percentage}%`)).toBeInTheDocument();
    // 'Attempt #2' said once: the value, its label for screen readers only.
    expect(screen.getByText('Attempt #2', { selector: 'dd' })).toBeInTheDocument();
    expect(screen.getByText('Attempt', { selector: 'dt' })).toHaveClass('visually-hidden');
    const requests = db.resultRequests;
    await new Promise((r) => setTimeout(r, 2500));
    expect(db.resultRequests).toBe(requests);
  });

  it('when time is up and the submit fails, then the answers are locked and Submit is offered to retry', async () => {
    refuseFirstSubmit();
    db.attempt = attemptInProgress({ seq: 0 }, 1 / 60);
    const { user } = renderStudentApp(`/assessment/${TOKEN}`);
    expect(await toast('Failed to submit assessment')).toBeInTheDocument();
    const question = screen.getByRole('group', { name: /Do you have a computer/ });
    expect(within(question).getByRole('radio', { name: 'Yes' })).toBeDisabled();
    // On an incomplete first section, too: once time is up, Submit replaces Next.
    const submit = screen.getByRole('button', { name: 'Submit Assessment' });
    await waitFor(() => expect(submit).toBeEnabled());
    expect(screen.queryByRole('button', { name: 'Next Section' })).not.toBeInTheDocument();
    await user.click(submit);
    expect(await screen.findByRole('heading', { name: 'Congratulations!' })).toBeInTheDocument();
  });
});
