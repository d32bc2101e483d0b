import { act, screen, waitFor, within } from '@testing-library/react';
import { renderStudentApp } from '../../../testing/render-student';
import { AUTOSAVE_DELAY_MS, keptAnswersKey } from '../autosave';
import { attemptInProgress, db, TOKEN, useStudentServer } from './student-server';

useStudentServer();

const SAVE_WAIT = { timeout: AUTOSAVE_DELAY_MS + 3000 };
const question = (text: string) => screen.getByRole('group', { name: new RegExp(text) });
const status = (text: string) => screen.findByText(text, { selector: '.test-header__save' }, SAVE_WAIT);

async function resume() {
  db.attempt = attemptInProgress({ seq: 3, answers: [] });
  const app = renderStudentApp(`/assessment/${TOKEN}`);
  await screen.findByRole('heading', { level: 2, name: 'Technology' });
  return app;
}

function setVisibility(state: 'hidden' | 'visible') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

describe('Autosave', () => {
  it('when several answers change within a few seconds, then one save carries them all with the next sequence', async () => {
    const { user } = await resume();
    expect(screen.getByText('Saved', { selector: '.test-header__save' })).toBeInTheDocument();
    await user.click(within(question('Do you have a computer')).getByRole('radio', { name: 'Yes' }));
    await user.click(within(question('How fast is your internet')).getByRole('radio', { name: 'Slow' }));
    await user.click(within(question('How fast is your internet')).getByRole('radio', { name: 'Fast' }));
    expect(screen.getByText('Saving…', { selector: '.test-header__save' })).toBeInTheDocument();
    expect(db.puts).toHaveLength(0);
    await status('Saved');
    // Saving is shown, not spoken: a screen reader would otherwise hear it after every answer.
    expect(document.querySelector('.test-header__save')).not.toHaveAttribute('aria-live');
    expect(db.puts).toEqual([
      {
        attemptId: 'att-1',
        seq: 6,
        answers: [
          { questionId: 'q1', answer: 'yes' },
          { questionId: 'q2', answer: 'o2' },
        ],
        keepalive: false,
      },
    ]);
    await user.click(within(question('Do you have a computer')).getByRole('radio', { name: 'No' }));
    await waitFor(() => expect(db.puts).toHaveLength(2), SAVE_WAIT);
    expect(db.puts[1]!.seq).toBe(7);
    expect(db.attempt?.answers).toContainEqual({ questionId: 'q1', answer: 'no' });
  });

  it('when the page is hidden, then the unsaved answers leave at once in a request that outlives the page', async () => {
    const { user } = await resume();
    await user.click(within(question('Do you have a computer')).getByRole('radio', { name: 'Yes' }));
    setVisibility('hidden');
    await waitFor(() => expect(db.puts).toHaveLength(1));
    expect(db.puts[0]).toMatchObject({ seq: 4, keepalive: true });
    setVisibility('visible');
  });

  it('when the connection drops, then the answers are kept on this device and sent when it returns', async () => {
    db.offline = true;
    const { user } = await resume();
    await user.click(within(question('Do you have a computer')).getByRole('radio', { name: 'No' }));
    expect(await status('Offline — answers kept on this device')).toBeInTheDocument();
    const spoken = () =>
      [...document.querySelectorAll('.test-header [aria-live="polite"]')].map((el) => el.textContent);
    await waitFor(() => expect(spoken()).toContain('Offline — answers kept on this device'));
    const kept = JSON.parse(window.localStorage.getItem(keptAnswersKey(TOKEN, 'att-1'))!);
    expect(kept).toMatchObject({ seq: 4, answers: [{ questionId: 'q1', answer: 'no' }] });
    db.offline = false;
    await act(async () => {
      window.dispatchEvent(new Event('online'));
    });
    expect(await status('Saved')).toBeInTheDocument();
    await waitFor(() => expect(spoken()).toContain('Saved'));
  });

  it('when the page reloads with answers the server never got, then they are restored and sent', async () => {
    db.attempt = attemptInProgress({ seq: 3, answers: [{ questionId: 'q1', answer: 'yes' }] });
    window.localStorage.setItem(
      keptAnswersKey(TOKEN, 'att-1'),
      JSON.stringify({ seq: 5, savedSeq: 3, answers: [{ questionId: 'q1', answer: 'no' }] }),
    );
    const { user } = renderStudentApp(`/assessment/${TOKEN}`);
    await screen.findByRole('heading', { level: 2, name: 'Study Habits' });
    await waitFor(() => expect(db.puts).toHaveLength(1));
    expect(db.puts[0]).toMatchObject({ seq: 5, answers: [{ questionId: 'q1', answer: 'no' }] });
    await user.click(screen.getByRole('button', { name: 'Section 1: Technology' }));
    expect(within(question('Do you have a computer')).getByRole('radio', { name: 'No' })).toBeChecked();
  });

  it('when the server already holds a newer sequence from another device, then this page saves above it', async () => {
    const { user } = await resume();
    db.attempt = { ...db.attempt!, seq: 40 };
    await user.click(within(question('Do you have a computer')).getByRole('radio', { name: 'Yes' }));
    await waitFor(() => expect(db.puts.map((p) => p.seq)).toEqual([4, 41]), {
      timeout: 2 * AUTOSAVE_DELAY_MS + 3000,
    });
    expect(db.attempt?.answers).toEqual([{ questionId: 'q1', answer: 'yes' }]);
  }, 15_000);
});
