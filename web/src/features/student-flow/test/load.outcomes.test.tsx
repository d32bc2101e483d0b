import { screen, waitFor, within } from '@testing-library/react';
import { outage, refusal } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { documentNavigation } from '../../../lib/document-navigation';
import { handOverInvalidLink } from '../../../lib/handed-over-toast';
import { renderApp } from '../../../testing/render';
import { renderStudentApp, where } from '../../../testing/render-student';
import { server } from '../../../testing/server';
import { attemptInProgress, db, makeResult, seededResult, TOKEN, useStudentServer } from './student-server';

useStudentServer();

const toast = (text: string) => screen.findByText(text, { selector: '.Toastify *' });

describe('Student welcome page', () => {
  it('when a valid link opens, then the welcome page shows the student, the assessment and its sections', async () => {
    renderStudentApp(`/assessment/${TOKEN}`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Distance Education Readiness Assessment' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByText('ada@example.edu')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Online Learning Readiness' })).toBeInTheDocument();
    expect(screen.getByText('How ready are you to study at a distance?')).toBeInTheDocument();
    expect(screen.getByText('30 minutes')).toBeInTheDocument();
    expect(screen.getByText('5 questions across 3 sections')).toBeInTheDocument();
    expect(screen.getByText('70%')).toBeInTheDocument();
    const sections = within(screen.getByRole('region', { name: 'Online Learning Readiness' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(sections).toEqual([
      'Section 1: Technology2 questions',
      'Section 2: Study Habits2 questions',
      'Section 3: Motivation1 question',
    ]);
    expect(screen.getByRole('button', { name: 'Start Assessment' })).toBeEnabled();
    expect(screen.queryByText('Previous Attempt')).not.toBeInTheDocument();
  });

  it('when the student has extra time, then the welcome page shows their own time limit and that it includes it', async () => {
    db.student = { ...db.student, extraTimePercent: 25, timeLimitSeconds: 2250 };
    renderStudentApp(`/assessment/${TOKEN}`);
    const limit = (await screen.findByText('Time Limit')).nextElementSibling!;
    expect(limit).toHaveTextContent(
      '37 minutes 30 seconds including your 25% extra time (30 minutes for everyone)',
    );
  });

  it('when the last attempt failed, then the Previous Attempt box shows it and offers the retake', async () => {
    db.previousAttempt = { percentage: 55, passed: false, completedAt: '2026-03-01T09:00:00.000Z' };
    renderStudentApp(`/assessment/${TOKEN}`);
    const box = await screen.findByRole('region', { name: 'Previous Attempt' });
    expect(within(box).getByText('55%')).toBeInTheDocument();
    expect(within(box).getByText('Failed')).toBeInTheDocument();
    expect(within(box).getByText('Completed Mar 1, 2026')).toBeInTheDocument();
    expect(
      within(box).getByText('You can retake this assessment to improve your score.'),
    ).toBeInTheDocument();
  });

  it('when the link is unknown or expired, then its own page says so at the link, and nothing is handed to /', async () => {
    const replace = jest.spyOn(documentNavigation, 'replace').mockImplementation(() => undefined);
    renderStudentApp('/assessment/tok-nobody');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Invalid or expired invitation link' }),
    ).toBeInTheDocument();
    expect(where.location?.pathname).toBe('/assessment/tok-nobody');
    expect(replace).not.toHaveBeenCalled();
    expect(window.sessionStorage.getItem('readiness.handed-over-toast')).toBeNull();
    replace.mockRestore();
  });

  it('when the visitor arrives at / with a handed-over message, then the admin entry shows it as a toast', async () => {
    window.sessionStorage.setItem('readiness.handed-over-toast', 'Invalid or expired invitation link');
    const { router } = renderApp('/');
    expect(await toast('Invalid or expired invitation link')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    expect(window.sessionStorage.getItem('readiness.handed-over-toast')).toBeNull();
  });

  it('when a student lands on the sign-in page from a dead link (a page loaded before issue 43 item 17), then a note above the form tells them why and whom to ask', async () => {
    handOverInvalidLink();
    const { router } = renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    const note = await screen.findByRole('note', { name: 'Looking for your assessment?' });
    expect(note).toHaveTextContent(
      'The invitation link you opened is invalid or has expired. This sign-in is for administrators: ask whoever sent you the invitation for a new link.',
    );
    expect(note.compareDocumentPosition(screen.getByLabelText('Email'))).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
    window.sessionStorage.clear();
  });

  it('when an administrator opens the sign-in page, then there is no note for students', async () => {
    const { router } = renderApp('/admin/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    await screen.findByLabelText('Email');
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });

  it('when Start finds the assessment already passed (another tab), then the completion page follows with the toast', async () => {
    server.use(
      http.post('/api/student/{token}/start', () =>
        refusal(409, { message: 'Assessment already completed!', code: 'already_completed' }),
      ),
    );
    db.results = [makeResult()];
    const { user } = renderStudentApp(`/assessment/${TOKEN}`);
    await user.click(await screen.findByRole('button', { name: 'Start Assessment' }));
    expect(await toast('Assessment already completed!')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Congratulations!' })).toBeInTheDocument();
    expect(screen.getByText(`${seededResult().percentage}%`)).toBeInTheDocument();
  });

  it('when the assessment fails to load for another reason, then "Failed to load assessment" shows', async () => {
    server.use(
      http.get('/api/student/{token}/assessment', ({ response }) =>
        response.untyped(outage(503, { message: 'down', code: 'unavailable' })),
      ),
    );
    renderStudentApp(`/assessment/${TOKEN}`);
    expect(await toast('Failed to load assessment')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('when the student has already passed, then the completion page shows that result with a toast', async () => {
    db.alreadyCompleted = true;
    db.results = [makeResult()];
    renderStudentApp(`/assessment/${TOKEN}`);
    expect(await toast('Assessment already completed!')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Congratulations!' })).toBeInTheDocument();
    expect(screen.getByText(`${seededResult().percentage}%`)).toBeInTheDocument();
    expect(where.location?.pathname).toBe(`/assessment/${TOKEN}/complete`);
  });

  it('when a submission is still being scored, then the completion page waits for its result', async () => {
    db.awaitingResult = true;
    renderStudentApp(`/assessment/${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'Calculating your result…' })).toBeInTheDocument();
    expect(where.location?.pathname).toBe(`/assessment/${TOKEN}/complete`);
  });

  it('when an attempt is in progress, then the test opens at once with the saved answers', async () => {
    db.attempt = attemptInProgress({ seq: 4, answers: [{ questionId: 'q1', answer: 'yes' }] });
    const { user } = renderStudentApp(`/assessment/${TOKEN}`);
    // Section 1 is complete, so the test resumes at section 2, where a required answer is missing.
    expect(await screen.findByRole('heading', { level: 2, name: 'Study Habits' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start Assessment' })).not.toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Progress' })).toHaveAttribute('aria-valuenow', '20');
    await user.click(screen.getByRole('button', { name: 'Section 1: Technology' }));
    expect(await screen.findByRole('radio', { name: 'Yes' })).toBeChecked();
  });
});
