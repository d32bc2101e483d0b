import { screen, within } from '@testing-library/react';
import { superAdmin } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render';
import { openSession } from '../../../testing/server';
import type { PracticeQuestion } from '../api/types';
import { store, useAssessmentServer } from './assessment-server';

useAssessmentServer();

const OFFER = 'Offer a practice question before Start';
const HINT = 'Students can try it on the welcome page before their time starts. It is never scored.';
const SAVED = 'Assessment updated successfully - New version created';

const planets: PracticeQuestion = {
  type: 'multiple_choice',
  question: 'Which planet is closest to the Sun?',
  options: [
    { id: 'p1', text: 'Venus' },
    { id: 'p2', text: 'Mercury' },
  ],
  correctAnswer: 'p2',
};

/** Gives the active version (2) this practice question. */
function offer(practiceQuestion: PracticeQuestion | null) {
  store.versions = store.versions.map((v) => (v.version === 2 ? { ...v, practiceQuestion } : v));
}

async function startEditing() {
  const app = renderApp('/admin/assessments', { token: openSession(superAdmin._id) });
  await app.user.click(await screen.findByRole('button', { name: 'Edit Assessment' }));
  await screen.findByRole('form', { name: 'Edit assessment' });
  return app;
}

const card = () => screen.getByRole('region', { name: 'Practice Question' });
const offerBox = () => within(card()).getByRole('checkbox', { name: OFFER });
const editor = () => within(card()).getByRole('group', { name: 'Practice question' });
const answerGroup = () => within(editor()).getByRole('radiogroup', { name: 'Correct answer' });
const lastSave = () => store.saves.at(-1)!;

async function save(user: ReturnType<typeof renderApp>['user']) {
  await user.click(screen.getByRole('button', { name: 'Save Changes' }));
}

describe('Practice question', () => {
  it('when a version with a practice question is edited, then the card shows it, and a save sends it back as it was', async () => {
    offer(planets);
    const { user } = await startEditing();

    // The card comes right after the Question Order card.
    const cards = screen.getAllByRole('region').map((r) => r.getAttribute('aria-label'));
    expect(cards.indexOf('Practice Question')).toBe(cards.indexOf('Question Order') + 1);
    expect(offerBox()).toBeChecked();
    expect(offerBox()).toHaveAccessibleDescription(HINT);
    expect(within(editor()).getByLabelText('Type')).toHaveValue('multiple_choice');
    // The choice types, labelled as the SPEC labels a question's type.
    expect(
      within(within(editor()).getByLabelText('Type'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Yes/No', 'Multiple Choice']);
    expect(within(editor()).getByLabelText('Question text')).toHaveValue(
      'Which planet is closest to the Sun?',
    );
    const options = within(editor()).getByRole('group', { name: 'Practice question options' });
    expect(
      within(options)
        .getAllByRole('textbox')
        .map((t) => (t as HTMLInputElement).value),
    ).toEqual(['Venus', 'Mercury']);
    expect(within(answerGroup()).getByRole('radio', { name: 'Mercury' })).toBeChecked();
    expect(within(answerGroup()).getByRole('radio', { name: 'Venus' })).not.toBeChecked();

    await save(user);
    expect(await screen.findByText(SAVED)).toBeInTheDocument();
    expect(lastSave().practiceQuestion).toEqual(planets);
    expect(store.versions.at(-1)!.practiceQuestion).toEqual(planets);
  });

  it('when the practice question is changed, then the save sends the change, and the new version reads it back', async () => {
    offer(planets);
    const { user } = await startEditing();
    const text = within(editor()).getByLabelText('Question text');
    await user.clear(text);
    await user.type(text, 'Which planet is largest?');
    const options = within(editor()).getByRole('group', { name: 'Practice question options' });
    await user.click(within(options).getByRole('button', { name: 'Add Option' }));
    const third = within(options).getByRole('textbox', { name: 'Option 3' });
    await user.clear(third);
    await user.type(third, 'Jupiter');
    await user.click(within(answerGroup()).getByRole('radio', { name: 'Jupiter' }));
    await save(user);

    expect(await screen.findByText(SAVED)).toBeInTheDocument();
    const sent = lastSave().practiceQuestion!;
    expect(sent).toMatchObject({ type: 'multiple_choice', question: 'Which planet is largest?' });
    expect(sent.options!.map((o) => o.text)).toEqual(['Venus', 'Mercury', 'Jupiter']);
    expect(sent.correctAnswer).toBe(sent.options![2]!.id);

    // The saved version opens in the editor as it was sent.
    await user.click(await screen.findByRole('button', { name: 'Edit Assessment' }));
    await screen.findByRole('form', { name: 'Edit assessment' });
    expect(within(editor()).getByLabelText('Question text')).toHaveValue('Which planet is largest?');
    expect(within(answerGroup()).getByRole('radio', { name: 'Jupiter' })).toBeChecked();
  });

  it('when a yes/no practice question is added, then the save sends its text and answer with no options', async () => {
    const { user } = await startEditing();
    expect(offerBox()).not.toBeChecked();
    expect(within(card()).queryByRole('group', { name: 'Practice question' })).not.toBeInTheDocument();

    await user.click(offerBox());
    expect(within(editor()).getByLabelText('Type')).toHaveValue('yes_no');
    expect(
      within(answerGroup())
        .getAllByRole('radio')
        .map((r) => r.closest('label')!.textContent),
    ).toEqual(['Yes', 'No']);
    await user.type(within(editor()).getByLabelText('Question text'), '  Is this only a practice?  ');
    await user.click(within(answerGroup()).getByRole('radio', { name: 'No' }));
    await save(user);

    expect(await screen.findByText(SAVED)).toBeInTheDocument();
    expect(lastSave().practiceQuestion).toEqual({
      type: 'yes_no',
      question: 'Is this only a practice?',
      options: [],
      correctAnswer: 'no',
    });
  });

  it('when the box is not ticked, then the save sends no practice question (null)', async () => {
    const { user } = await startEditing();
    await save(user);
    expect(await screen.findByText(SAVED)).toBeInTheDocument();
    expect(lastSave()).toHaveProperty('practiceQuestion', null);
  });

  it('when the box of an offered practice question is unticked, then the save sends null, whatever its draft held', async () => {
    offer(planets);
    const { user } = await startEditing();
    await user.clear(within(editor()).getByLabelText('Question text'));
    await user.click(offerBox());
    expect(within(card()).queryByRole('group', { name: 'Practice question' })).not.toBeInTheDocument();
    await save(user);

    expect(await screen.findByText(SAVED)).toBeInTheDocument();
    expect(lastSave()).toHaveProperty('practiceQuestion', null);
    expect(store.versions.at(-1)!.practiceQuestion).toBeNull();
  });

  it('when an offered practice question has no text and no answer, then each shows its message and nothing is sent', async () => {
    const { user } = await startEditing();
    await user.click(offerBox());
    await save(user);

    expect(await within(editor()).findByText('Practice question text is required')).toHaveAttribute(
      'role',
      'alert',
    );
    expect(
      within(editor()).getByText('Practice question: the correct answer is required'),
    ).toBeInTheDocument();
    expect(within(editor()).getByLabelText('Question text')).toHaveFocus();
    expect(store.saves).toHaveLength(0);

    // Not offered after all: its messages go, and the save goes through without it.
    await user.click(offerBox());
    expect(screen.queryByText('Practice question text is required')).not.toBeInTheDocument();
    await save(user);
    expect(await screen.findByText(SAVED)).toBeInTheDocument();
    expect(lastSave()).toHaveProperty('practiceQuestion', null);
  });

  it('when a multiple-choice practice question has fewer than 2 options and none chosen, then it says so and nothing is sent', async () => {
    const { user } = await startEditing();
    await user.click(offerBox());
    await user.type(within(editor()).getByLabelText('Question text'), 'Pick one');
    await user.click(within(answerGroup()).getByRole('radio', { name: 'Yes' }));
    // A new type asks for its own answer: the yes/no one is gone, and two options are there to fill in.
    await user.selectOptions(within(editor()).getByLabelText('Type'), 'multiple_choice');
    const options = within(editor()).getByRole('group', { name: 'Practice question options' });
    expect(within(options).getAllByRole('textbox')).toHaveLength(2);
    expect(
      within(answerGroup())
        .getAllByRole('radio')
        .filter((r) => (r as HTMLInputElement).checked),
    ).toEqual([]);
    await user.click(within(options).getByRole('button', { name: 'Remove option 2 of Practice question' }));
    await save(user);

    expect(
      await within(editor()).findByText(
        'Practice question: a multiple choice question needs at least 2 options',
      ),
    ).toBeInTheDocument();
    expect(
      within(editor()).getByText('Practice question: the correct answer is required'),
    ).toBeInTheDocument();
    expect(store.saves).toHaveLength(0);

    // Fixed, it saves: a second option, and the answer chosen among them.
    await user.click(within(options).getByRole('button', { name: 'Add Option' }));
    const second = within(options).getByRole('textbox', { name: 'Option 2' });
    await user.clear(second);
    await user.type(second, 'Right one');
    await user.click(within(answerGroup()).getByRole('radio', { name: 'Right one' }));
    await save(user);
    expect(await screen.findByText(SAVED)).toBeInTheDocument();
    const sent = lastSave().practiceQuestion!;
    expect(sent.options).toHaveLength(2);
    expect(sent.correctAnswer).toBe(sent.options![1]!.id);
  });

  it('when only the practice question changes, then leaving asks first', async () => {
    const { user } = await startEditing();
    await user.click(offerBox());
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    const ask = await screen.findByRole('dialog', { name: 'Discard unsaved changes?' });
    await user.click(within(ask).getByRole('button', { name: 'Keep Editing' }));
    expect(offerBox()).toBeChecked();

    // Ticking the box off again is no change left.
    await user.click(offerBox());
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('button', { name: 'Edit Assessment' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('when an offered practice question is edited, then leaving asks first', async () => {
    offer(planets);
    const { user } = await startEditing();
    await user.click(within(answerGroup()).getByRole('radio', { name: 'Venus' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('dialog', { name: 'Discard unsaved changes?' })).toBeInTheDocument();
  });

  it('when the version has a practice question, then read mode shows it, its options and its answer', async () => {
    offer(planets);
    renderApp('/admin/assessments', { token: openSession(superAdmin._id) });
    const view = await screen.findByRole('region', { name: 'Practice question (not scored)' });
    expect(within(view).getByText('Which planet is closest to the Sun?')).toBeInTheDocument();
    expect(within(view).getByText('Multiple Choice')).toBeInTheDocument();
    const options = within(view).getByRole('list', { name: 'Options of the practice question' });
    expect(
      within(options)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Venus', 'Mercury (correct answer)']);
    expect(within(view).getByText('Correct answer:').parentElement).toHaveTextContent(
      'Correct answer: Mercury',
    );
  });

  it('when the version has a yes/no practice question, then read mode shows its answer', async () => {
    offer({ type: 'yes_no', question: 'Is this a practice?', options: [], correctAnswer: 'no' });
    renderApp('/admin/assessments', { token: openSession(superAdmin._id) });
    const view = await screen.findByRole('region', { name: 'Practice question (not scored)' });
    expect(within(view).getByText('Is this a practice?')).toBeInTheDocument();
    expect(within(view).queryByRole('list')).not.toBeInTheDocument();
    expect(within(view).getByText('Correct answer:').parentElement).toHaveTextContent('Correct answer: No');
  });

  it('when the version has none, then read mode shows no practice question', async () => {
    renderApp('/admin/assessments', { token: openSession(superAdmin._id) });
    await screen.findByRole('heading', { name: 'Distance Education Readiness' });
    expect(screen.getByRole('region', { name: 'Basic Settings' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Practice question (not scored)' })).not.toBeInTheDocument();
  });
});
