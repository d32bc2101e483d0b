import { screen, waitFor, within } from '@testing-library/react';
import { outage } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { formatTime } from '../../../lib/format';
import { notify } from '../../../lib/toast';
import { regularAdmin } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render';
import { openSession, server } from '../../../testing/server';
import { attempt, live, openLive, row, useLiveServer } from './live-server';

useLiveServer();

const lastQuery = () => live.listQueries.at(-1) ?? new URLSearchParams();
const timeLeftIn = (name: string) => row(name).querySelector('.timer')!;
const savedAt = (name: string) =>
  formatTime(Date.parse(live.attempts.find((a) => a.name === name)!.savedAt!));

describe('Live attempts', () => {
  it('when an admin opens Live from the sidebar, then each attempt shows the section its page is on, answers, time left and last save, least time left first', async () => {
    await openLive();
    expect(screen.getByRole('heading', { level: 1, name: 'Live attempts' })).toBeInTheDocument();
    expect(screen.getByText('Attempts in progress, updated every few seconds.')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Live' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Student',
      'Section on screen',
      'Answered',
      'Time left',
      'Last saved',
      'Actions',
    ]);
    const names = screen.getAllByRole('row').slice(1);
    expect(names.map((r) => within(r).getByText(/@example\.edu$/).textContent)).toEqual([
      'marie@example.edu',
      'niels@example.edu',
      'lise@example.edu',
    ]);

    const marie = row('Marie Curie');
    expect(within(marie).getByText('Section 2 of 4')).toBeInTheDocument();
    expect(within(marie).getByText('Technology')).toBeInTheDocument();
    expect(within(marie).getByText('7 / 20')).toBeInTheDocument();
    expect(within(marie).getByText('Active')).toBeInTheDocument();
    expect(within(marie).getByText(`Saved ${savedAt('Marie Curie')}`)).toBeInTheDocument();
    expect(timeLeftIn('Marie Curie')).toHaveTextContent(/^(3:00|2:[0-5]\d) \(under 5 minutes\)$/);
    expect(timeLeftIn('Marie Curie')).toHaveClass('timer--low');

    const niels = row('Niels Bohr');
    expect(within(niels).getByText('Attempt 2')).toBeInTheDocument();
    expect(within(niels).getByText('Idle 3 min')).toBeInTheDocument();
    expect(within(niels).getByText('+10 min added')).toBeInTheDocument();
    expect(timeLeftIn('Niels Bohr')).toHaveTextContent(/^(42:00|41:[0-5]\d)$/);
    expect(timeLeftIn('Niels Bohr')).not.toHaveClass('timer--low');

    const lise = row('Lise Meitner');
    expect(within(lise).getByText('Offline')).toBeInTheDocument();
    expect(within(lise).getByText('Nothing saved yet')).toBeInTheDocument();
    // A page that has not said which section it shows is not given one.
    expect(within(lise).getByText('Not reported yet')).toBeInTheDocument();
    expect(timeLeftIn('Lise Meitner')).toHaveTextContent(/^(1:35:00|1:34:[0-5]\d)$/);
  });

  it('when a second passes, then the time left counts down without asking the server', async () => {
    await openLive();
    // From here the server answers no list: a time left that changes can only be the page's own count.
    let asked = 0;
    server.use(
      http.get('/api/admin/live', () => {
        asked += 1;
        return new Promise<never>(() => undefined);
      }),
    );
    const before = timeLeftIn('Niels Bohr').textContent;
    await waitFor(() => expect(timeLeftIn('Niels Bohr').textContent).not.toBe(before), { timeout: 2_500 });
    expect(asked).toBeLessThanOrEqual(1);
  });

  it('when an attempt starts elsewhere, then it appears within a few seconds without a reload', async () => {
    await openLive();
    live.attempts.push(attempt({ attemptId: 'at-9', name: 'Paul Dirac', email: 'paul@example.edu' }));
    expect(await screen.findByText('Paul Dirac', undefined, { timeout: 6_000 })).toBeInTheDocument();
  });

  it('when no attempt is in progress, then the empty state says so and what will appear', async () => {
    live.attempts = [];
    renderApp('/admin/live', { token: openSession(regularAdmin._id) });
    expect(await screen.findByText('No attempts in progress')).toBeInTheDocument();
    expect(
      screen.getByText('Students who have started the assessment appear here while their time runs.'),
    ).toBeInTheDocument();
  });

  it('when searching, then the server is asked by name or e-mail from the first page, and no match says so', async () => {
    const { user } = await openLive();
    expect(lastQuery().get('page')).toBe('1');
    expect(lastQuery().get('limit')).toBe('25');
    expect(lastQuery().has('search')).toBe(false);
    const search = screen.getByRole('searchbox', { name: 'Search attempts' });
    await user.type(search, 'niels');
    await waitFor(() => expect(lastQuery().get('search')).toBe('niels'));
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(2));
    expect(row('Niels Bohr')).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'nobody');
    expect(await screen.findByText('No attempts match your search')).toBeInTheDocument();
    expect(screen.queryByText('No attempts in progress')).not.toBeInTheDocument();
  });

  it('when more attempts run than a page holds, then Next asks the server for the next page', async () => {
    live.attempts = Array.from({ length: 30 }, (_, i) =>
      attempt({
        attemptId: `at-p${i}`,
        name: `Pupil ${String(i).padStart(2, '0')}`,
        email: `pupil${i}@example.edu`,
        minutesLeft: 10 + i,
      }),
    );
    const { user } = await openLive();
    const pages = screen.getByRole('navigation', { name: 'Live attempt pages' });
    expect(pages).toHaveTextContent('Page 1 of 2 (30 attempts)');
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(lastQuery().get('page')).toBe('2'));
    expect(await screen.findByText('Pupil 29')).toBeInTheDocument();
  });

  it('when the list fails to load, then it is reported once, not at every poll', async () => {
    let polls = 0;
    server.use(
      http.get('/api/admin/live', ({ response }) => {
        polls += 1;
        return response.untyped(outage(503, { message: 'down' }));
      }),
    );
    const reported = jest.spyOn(notify, 'error');
    renderApp('/admin/live', { token: openSession(regularAdmin._id) });
    expect(await screen.findByText('Failed to load live attempts')).toBeInTheDocument();
    await waitFor(() => expect(polls).toBeGreaterThanOrEqual(2), { timeout: 6_000 });
    // The second answer's failure has reached the screen.
    await new Promise((settled) => setTimeout(settled, 300));
    expect(reported).toHaveBeenCalledTimes(1);
    reported.mockRestore();
  });
});
