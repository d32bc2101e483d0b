import { screen, within } from '@testing-library/react';
import { renderStudentApp } from '../../../testing/render-student';
import { server } from '../../../testing/server';
import { db, practiceQuestion, TOKEN, useStudentServer } from './student-server';

useStudentServer();

const TITLE = 'Try a practice question';
const NOTE = 'Untimed and not scored: it only shows how questions work.';

const practice = () => screen.findByRole('region', { name: TITLE });

async function openWelcome() {
  const app = renderStudentApp(`/assessment/${TOKEN}`);
  const card = await practice();
  return { ...app, card };
}

/** The feedback's words, which must be one element beside its icon: no text of their own among the row's items. */
function sentenceOf(status: HTMLElement): string | null {
  const items = [...status.childNodes];
  expect(items.map((n) => n.nodeName.toLowerCase())).toEqual(['svg', 'span']);
  return items[1]!.textContent;
}

describe('Practice question on the welcome page', () => {
  it('when the version offers a practice question, then the welcome page shows it with its note, and Check waits for a choice', async () => {
    db.assessment = { ...db.assessment, practiceQuestion };
    const { card } = await openWelcome();
    expect(within(card).getByRole('heading', { level: 2, name: TITLE })).toBeInTheDocument();
    expect(within(card).getByText(NOTE)).toBeInTheDocument();
    const group = within(card).getByRole('group', { name: 'Which planet is closest to the Sun?' });
    expect(
      within(group)
        .getAllByRole('radio')
        .map((r) => r.closest('label')!.textContent),
    ).toEqual(['Venus', 'Mercury', 'Mars']);
    expect(
      within(group)
        .getAllByRole('radio')
        .filter((r) => (r as HTMLInputElement).checked),
    ).toEqual([]);
    expect(within(card).getByRole('button', { name: 'Check answer' })).toBeDisabled();
    expect(within(card).getByRole('status')).toBeEmptyDOMElement();
    expect(screen.getByRole('button', { name: 'Start Assessment' })).toBeEnabled();
  });

  it('when the welcome page shows, then the check before Start and the practice question come before the Start button', async () => {
    db.assessment = { ...db.assessment, practiceQuestion };
    const { card } = await openWelcome();
    const start = screen.getByRole('button', { name: 'Start Assessment' });
    const check = screen.getByRole('region', { name: 'Before you start' });
    const follows = (a: Node, b: Node) => a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING;
    expect(follows(screen.getByRole('heading', { name: 'Sections' }), check)).toBeTruthy();
    expect(follows(check, card)).toBeTruthy();
    expect(follows(card, start)).toBeTruthy();
  });

  it('when the version offers none, then there is no practice card', async () => {
    renderStudentApp(`/assessment/${TOKEN}`);
    expect(await screen.findByRole('button', { name: 'Start Assessment' })).toBeEnabled();
    expect(screen.queryByRole('region', { name: TITLE })).not.toBeInTheDocument();
    expect(screen.queryByText(NOTE)).not.toBeInTheDocument();
  });

  it('when a wrong answer is checked, then it says so and names the right one; a new choice clears it and a right check says so', async () => {
    db.assessment = { ...db.assessment, practiceQuestion };
    const { user, card } = await openWelcome();
    const status = within(card).getByRole('status');

    await user.click(within(card).getByRole('radio', { name: 'Venus' }));
    expect(within(card).getByRole('radio', { name: 'Venus' })).toBeChecked();
    await user.click(within(card).getByRole('button', { name: 'Check answer' }));
    expect(status).toHaveTextContent(/^Not quite\. The answer is: Mercury\.$/);
    // The feedback lays out its icon and its sentence side by side (a flex row, with a gap between its items): the
    // sentence is one item, so no gap opens inside it ('Mercury .').
    expect(sentenceOf(status)).toBe('Not quite. The answer is: Mercury.');

    await user.click(within(card).getByRole('radio', { name: 'Mercury' }));
    expect(status).toBeEmptyDOMElement();
    await user.click(within(card).getByRole('button', { name: 'Check answer' }));
    expect(status).toHaveTextContent(/^That's right\.$/);
    expect(sentenceOf(status)).toBe("That's right.");

    // Changing the answer again and checking it again works as often as the student likes.
    await user.click(within(card).getByRole('radio', { name: 'Mars' }));
    await user.click(within(card).getByRole('button', { name: 'Check answer' }));
    expect(status).toHaveTextContent(/^Not quite\. The answer is: Mercury\.$/);
  });

  it('when a yes/no practice question is checked, then the answer it names is Yes or No', async () => {
    db.assessment = {
      ...db.assessment,
      practiceQuestion: {
        type: 'yes_no',
        question: 'Is this a practice?',
        options: [],
        correctAnswer: 'yes',
      },
    };
    const { user, card } = await openWelcome();
    const group = within(card).getByRole('group', { name: 'Is this a practice?' });
    expect(within(group).getAllByRole('radio')).toHaveLength(2);
    await user.click(within(group).getByRole('radio', { name: 'No' }));
    await user.click(within(card).getByRole('button', { name: 'Check answer' }));
    expect(within(card).getByRole('status')).toHaveTextContent(/^Not quite\. The answer is: Yes\.$/);
    await user.click(within(group).getByRole('radio', { name: 'Yes' }));
    await user.click(within(card).getByRole('button', { name: 'Check answer' }));
    expect(within(card).getByRole('status')).toHaveTextContent(/^That's right\.$/);
  });

  it('when the practice question is answered and checked, then nothing reaches the server, and Start then starts the test', async () => {
    db.assessment = { ...db.assessment, practiceQuestion };
    const scrollTo = jest.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    const requests: string[] = [];
    const seen = ({ request }: { request: Request }) => {
      requests.push(`${request.method} ${new URL(request.url).pathname}`);
    };
    try {
      const { user, card } = await openWelcome();
      // The check before Start has done its look-ups: from here on, any request is the practice's.
      expect(
        await within(screen.getByRole('region', { name: 'Before you start' })).findByText(
          /^Check finished\./,
        ),
      ).toBeInTheDocument();
      server.events.on('request:start', seen);

      await user.click(within(card).getByRole('radio', { name: 'Venus' }));
      await user.click(within(card).getByRole('button', { name: 'Check answer' }));
      await user.click(within(card).getByRole('radio', { name: 'Mercury' }));
      await user.click(within(card).getByRole('button', { name: 'Check answer' }));
      expect(within(card).getByRole('status')).toHaveTextContent("That's right.");

      expect(requests).toEqual([]);
      expect(db.puts).toEqual([]);
      expect(db.activity).toEqual([]);
      expect(db.attempt).toBeNull();

      await user.click(screen.getByRole('button', { name: 'Start Assessment' }));
      expect(await screen.findByRole('heading', { level: 2, name: 'Technology' })).toBeInTheDocument();
      expect(requests).toContain(`POST /api/student/${TOKEN}/start`);
      expect(db.attempt).not.toBeNull();
      // The practice answer is not one of the test's: the first question starts unanswered.
      expect(screen.queryByRole('region', { name: TITLE })).not.toBeInTheDocument();
      expect(screen.getAllByRole('radio').filter((r) => (r as HTMLInputElement).checked)).toEqual([]);
    } finally {
      server.events.removeListener('request:start', seen);
      scrollTo.mockRestore();
    }
  });
});
