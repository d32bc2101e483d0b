import { screen, within } from '@testing-library/react';
import { superAdmin } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render';
import { openSession } from '../../../testing/server';
import type { Assessment } from '../api/types';
import { store, useAssessmentServer } from './assessment-server';

useAssessmentServer();

const SHUFFLE_QUESTIONS = 'Shuffle questions within each section';
const SHUFFLE_OPTIONS = 'Shuffle multiple-choice options';
const SAVED = 'Assessment updated successfully - New version created';

/** Gives stored version `version` these order settings and draws (section id → questions per student). */
function setUp(
  version: number,
  settings: Pick<Assessment, 'shuffleQuestions' | 'shuffleOptions'>,
  draws: Record<number, number> = {},
) {
  store.versions = store.versions.map((v) =>
    v.version === version
      ? {
          ...v,
          ...settings,
          sections: v.sections.map((s) => (draws[s.id] ? { ...s, draw: draws[s.id] } : s)),
        }
      : v,
  );
}

async function startEditing() {
  const app = renderApp('/admin/assessments', { token: openSession(superAdmin._id) });
  await app.user.click(await screen.findByRole('button', { name: 'Edit Assessment' }));
  await screen.findByRole('form', { name: 'Edit assessment' });
  return app;
}

const section = (id: number) => screen.getByRole('group', { name: `Section ${id}` });
const drawField = (id: number) => within(section(id)).getByLabelText('Questions per student');
const questionGroup = (n: number) => screen.getByRole('group', { name: `Question ${n}` });
const lastSave = () => store.saves.at(-1)!;

async function setDraw(user: ReturnType<typeof renderApp>['user'], id: number, value: string) {
  await user.clear(drawField(id));
  if (value) await user.type(drawField(id), value);
}

describe('Question banks and shuffling', () => {
  it('when a version with shuffling and a draw is edited, then the form shows them and a save sends the changes', async () => {
    setUp(2, { shuffleQuestions: true, shuffleOptions: false }, { 2: 1 });
    const { user } = await startEditing();

    const order = screen.getByRole('region', { name: 'Question Order' });
    const shuffleQuestions = within(order).getByRole('checkbox', { name: SHUFFLE_QUESTIONS });
    const shuffleOptions = within(order).getByRole('checkbox', { name: SHUFFLE_OPTIONS });
    expect(shuffleQuestions).toBeChecked();
    expect(shuffleQuestions).toHaveAccessibleDescription(
      'Each student sees the questions of a section in their own order, fixed when they start.',
    );
    expect(shuffleOptions).not.toBeChecked();
    expect(shuffleOptions).toHaveAccessibleDescription(
      'Each student sees the options of every multiple-choice question in their own order.',
    );
    expect(drawField(1)).toHaveValue(null);
    expect(drawField(2)).toHaveValue(1);
    expect(drawField(2)).toHaveAccessibleDescription(
      'Each student gets 1 of these 2 questions, drawn at random when they start.',
    );
    expect(screen.getByText('Each student answers 2 of the 3 questions.')).toBeInTheDocument();

    // Two new questions go to section 1, which then gives each student 2 of its 3.
    await user.click(screen.getByRole('button', { name: 'Add Question' }));
    await user.click(screen.getByRole('button', { name: 'Add Question' }));
    await setDraw(user, 1, '2');
    expect(drawField(1)).toHaveAccessibleDescription(
      'Each student gets 2 of these 3 questions, drawn at random when they start.',
    );
    expect(screen.getByText('Each student answers 3 of the 5 questions.')).toBeInTheDocument();
    await user.click(shuffleQuestions);
    await user.click(shuffleOptions);
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    await screen.findByText(SAVED);
    const body = lastSave();
    expect(body.shuffleQuestions).toBe(false);
    expect(body.shuffleOptions).toBe(true);
    expect(body.sections.map((s) => [s.id, s.draw])).toEqual([
      [1, 2],
      [2, 1],
    ]);

    // The new version, now current, reads back as saved.
    expect(await screen.findByText('Options shuffled')).toBeInTheDocument();
    expect(screen.getByText('2 of 3 questions per student')).toBeInTheDocument();
    expect(screen.getByText('1 of 2 questions per student')).toBeInTheDocument();
  });

  it('when a draw is emptied, then the save leaves it out and the version has none', async () => {
    setUp(2, { shuffleQuestions: false, shuffleOptions: true }, { 2: 1 });
    const { user } = await startEditing();
    await setDraw(user, 2, '');
    expect(drawField(2)).toHaveAccessibleDescription('Every student gets all 2 questions.');
    expect(screen.queryByText(/^Each student answers/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    await screen.findByText(SAVED);
    expect(lastSave().sections.map((s) => 'draw' in s)).toEqual([false, false]);
    expect(lastSave()).toMatchObject({ shuffleQuestions: false, shuffleOptions: true });
    expect(store.versions.at(-1)!.sections.every((s) => s.draw === undefined)).toBe(true);
  });

  it('when the draw changes, then its hint and the summary say what each student gets', async () => {
    const { user } = await startEditing();
    expect(drawField(1)).toHaveAccessibleDescription('Every student gets its one question.');
    expect(drawField(2)).toHaveAccessibleDescription('Every student gets all 2 questions.');
    expect(screen.queryByText(/^Each student answers/)).not.toBeInTheDocument();

    await setDraw(user, 2, '1');
    expect(drawField(2)).toHaveAccessibleDescription(
      'Each student gets 1 of these 2 questions, drawn at random when they start.',
    );
    expect(screen.getByText('Each student answers 2 of the 3 questions.')).toBeInTheDocument();

    // A question moved into the section counts at once.
    await user.selectOptions(within(questionGroup(1)).getByLabelText('Section'), '2');
    expect(drawField(2)).toHaveAccessibleDescription(
      'Each student gets 1 of these 3 questions, drawn at random when they start.',
    );
    expect(drawField(1)).toHaveAccessibleDescription('This section has no questions yet.');
    expect(screen.getByText('Each student answers 1 of the 3 questions.')).toBeInTheDocument();

    // As many as the section has, or 0, is all of them.
    await setDraw(user, 2, '3');
    expect(drawField(2)).toHaveAccessibleDescription('Every student gets all 3 questions.');
    expect(screen.queryByText(/^Each student answers/)).not.toBeInTheDocument();
    await setDraw(user, 2, '0');
    expect(drawField(2)).toHaveAccessibleDescription('Every student gets all 3 questions.');
  });

  it('when a draw is above the section’s questions, then the field says so and nothing is sent until it fits', async () => {
    const { user } = await startEditing();
    await setDraw(user, 2, '3');
    const error = await within(section(2)).findByText('At most 2 (the questions in this section)');
    expect(error).toHaveAttribute('role', 'alert');
    expect(drawField(2)).toHaveAttribute('aria-invalid', 'true');
    expect(drawField(2)).toHaveAccessibleDescription('At most 2 (the questions in this section)');

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(drawField(2)).toHaveFocus();
    expect(store.saves).toHaveLength(0);

    // A third question in the section makes the draw fit: the message goes, and the save is made.
    await user.selectOptions(within(questionGroup(1)).getByLabelText('Section'), '2');
    expect(
      within(section(2)).queryByText('At most 2 (the questions in this section)'),
    ).not.toBeInTheDocument();
    expect(drawField(2)).toHaveAccessibleDescription('Every student gets all 3 questions.');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText(SAVED);
    expect(lastSave().sections[1]).toMatchObject({ id: 2, draw: 3 });
  });

  it('when a question leaves a section with a draw, then the draw that no longer fits is refused', async () => {
    const { user } = await startEditing();
    await setDraw(user, 2, '2');
    await user.click(within(questionGroup(3)).getByRole('button', { name: 'Remove Question 3' }));
    const ask = await screen.findByRole('dialog', { name: 'Remove Question 3?' });
    await user.click(within(ask).getByRole('button', { name: 'Remove Question' }));
    expect(
      await within(section(2)).findByText('At most 1 (the questions in this section)'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(store.saves).toHaveLength(0);
  });

  it('when only the order settings or a draw change, then leaving the edit asks first', async () => {
    const { user } = await startEditing();
    await user.click(screen.getByRole('checkbox', { name: SHUFFLE_OPTIONS }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    let ask = await screen.findByRole('dialog', { name: 'Discard unsaved changes?' });
    await user.click(within(ask).getByRole('button', { name: 'Keep Editing' }));

    // Undone, it is no change.
    await user.click(screen.getByRole('checkbox', { name: SHUFFLE_OPTIONS }));
    await setDraw(user, 1, '1');
    await setDraw(user, 1, '');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('button', { name: 'Edit Assessment' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit Assessment' }));
    await screen.findByRole('form', { name: 'Edit assessment' });
    await setDraw(user, 2, '1');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    ask = await screen.findByRole('dialog', { name: 'Discard unsaved changes?' });
    expect(ask).toBeInTheDocument();
  });

  it('when an old version with shuffling and a draw is viewed, then the read-only view shows them', async () => {
    setUp(1, { shuffleQuestions: true, shuffleOptions: true }, { 2: 1 });
    const { user } = renderApp('/admin/assessments', { token: openSession(superAdmin._id) });
    const settings = await screen.findByRole('region', { name: 'Basic Settings' });
    // The current version keeps its questions in order and gives every student all of them.
    expect(within(settings).getAllByText('As listed')).toHaveLength(2);
    expect(within(settings).queryByText('Questions per student')).not.toBeInTheDocument();
    expect(screen.queryByText(/questions per student$/)).not.toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'View version 1' }));
    await screen.findByRole('heading', { name: 'Version 1 (read-only)' });
    const old = await screen.findByRole('region', { name: 'Basic Settings' });
    expect(await within(old).findByText('Questions shuffled within sections')).toBeInTheDocument();
    expect(within(old).getByText('Options shuffled')).toBeInTheDocument();
    expect(within(old).getByText('Questions per student').nextElementSibling).toHaveTextContent('2');
    const studyHabits = screen.getByRole('region', { name: 'Section 2: Study Habits' });
    expect(within(studyHabits).getByText('1 of 2 questions per student')).toBeInTheDocument();
    const technology = screen.getByRole('region', { name: 'Section 1: Technology Access' });
    expect(within(technology).queryByText(/questions per student/)).not.toBeInTheDocument();
  });
});
