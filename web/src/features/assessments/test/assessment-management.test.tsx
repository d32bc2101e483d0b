import { screen, waitFor, within } from '@testing-library/react';
import { outage, refusal } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { superAdmin } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render';
import { openSession, server } from '../../../testing/server';
import { STALE_MESSAGE, store, useAssessmentServer } from './assessment-server';

useAssessmentServer();

async function openAssessments() {
  const app = renderApp('/admin/assessments', { token: openSession(superAdmin._id) });
  await screen.findByRole('heading', { name: 'Distance Education Readiness' });
  return app;
}

async function startEditing() {
  const app = await openAssessments();
  await app.user.click(screen.getByRole('button', { name: 'Edit Assessment' }));
  await screen.findByRole('form', { name: 'Edit assessment' });
  return app;
}

/** Opens edit mode, ticks the first question's file box and uploads a text file to it. */
async function uploadToFirstQuestion() {
  const { user } = await startEditing();
  const q1 = questionGroup(1);
  await user.click(within(q1).getByLabelText('Attach a downloadable file'));
  await user.upload(
    within(q1).getByLabelText('Downloadable file for Question 1'),
    new File(['hello'], 'notes.txt', { type: 'text/plain' }),
  );
  return q1;
}

const history = () => screen.getByRole('region', { name: 'Version History' });
const questionGroup = (n: number) => screen.getByRole('group', { name: `Question ${n}` });
const lastSave = () => store.saves.at(-1)!;

describe('Assessment Management', () => {
  it('when the page opens, then read mode shows the settings, every question by section and the history', async () => {
    await openAssessments();
    expect(screen.getByText('30 minutes')).toBeInTheDocument();
    expect(screen.getByText('70%')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Section 1: Technology Access' })).toBeInTheDocument();
    expect(screen.getByText('Do you have a reliable internet connection?')).toBeInTheDocument();
    expect(screen.getByText('Multiple Choice')).toBeInTheDocument();
    expect(screen.getByText('File Upload')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download plan-template.docx' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();

    const items = await within(history()).findAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByText('Version 2')).toBeInTheDocument();
    expect(within(items[0]!).getByText('Current')).toBeInTheDocument();
    expect(within(items[0]!).getByText(/Grace Hopper/)).toBeInTheDocument();
    expect(within(items[0]!).getByText(/Feb 1, 2025/)).toBeInTheDocument();
    expect(within(items[1]!).queryByText('Current')).not.toBeInTheDocument();
    expect(within(items[1]!).getByText(/Alan Turing/)).toBeInTheDocument();
  });

  it('when an edit is cancelled, then the changes are gone and nothing is sent', async () => {
    const { user } = await startEditing();
    const title = screen.getByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'Something else');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    // Unsaved edits: Cancel asks first, and keeping on editing keeps them.
    let ask = await screen.findByRole('dialog', { name: 'Discard unsaved changes?' });
    expect(ask).toHaveAttribute('aria-modal', 'true');
    await user.click(within(ask).getByRole('button', { name: 'Keep Editing' }));
    expect(screen.getByLabelText('Title')).toHaveValue('Something else');
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    ask = await screen.findByRole('dialog', { name: 'Discard unsaved changes?' });
    await user.click(within(ask).getByRole('button', { name: 'Discard Changes' }));
    expect(await screen.findByRole('heading', { name: 'Distance Education Readiness' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit Assessment' }));
    expect(await screen.findByLabelText('Title')).toHaveValue('Distance Education Readiness');
    expect(store.saves).toHaveLength(0);
  });

  it('when an edit without changes is cancelled, then it closes without asking', async () => {
    const { user } = await startEditing();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('button', { name: 'Edit Assessment' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('when a question is removed, then it asks first and Cancel keeps the question', async () => {
    const { user } = await startEditing();
    await user.click(within(questionGroup(3)).getByRole('button', { name: 'Remove Question 3' }));
    let ask = await screen.findByRole('dialog', { name: 'Remove Question 3?' });
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(screen.getAllByRole('group', { name: /^Question \d$/ })).toHaveLength(3);

    await user.click(within(questionGroup(3)).getByRole('button', { name: 'Remove Question 3' }));
    ask = await screen.findByRole('dialog', { name: 'Remove Question 3?' });
    await user.click(within(ask).getByRole('button', { name: 'Remove Question' }));
    expect(screen.getAllByRole('group', { name: /^Question \d$/ })).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Assessment updated successfully - New version created');
    expect(lastSave().questions.map((q) => q.id)).toEqual(['q1', 'q2']);
  });

  it('when a section with questions is removed and its questions are moved, then they go to the chosen section', async () => {
    const { user } = await startEditing();
    await user.click(screen.getByRole('button', { name: 'Remove Section 2' }));
    const ask = await screen.findByRole('dialog', { name: 'Remove Section 2?' });
    expect(ask).toHaveTextContent('Section 2 has 2 questions. Move them to another section or delete them.');
    expect(within(ask).getByLabelText('Move questions to')).toHaveValue('1');
    await user.click(within(ask).getByRole('button', { name: 'Move Questions' }));
    expect(screen.queryByRole('group', { name: 'Section 2' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Assessment updated successfully - New version created');
    const body = lastSave();
    expect(body.sections.map((s) => s.id)).toEqual([1]);
    expect(body.questions.map((q) => [q.id, q.section])).toEqual([
      ['q1', 1],
      ['q2', 1],
      ['q3', 1],
    ]);
  });

  it('when a section with questions is removed with its questions, then both are gone', async () => {
    const { user } = await startEditing();
    await user.click(screen.getByRole('button', { name: 'Remove Section 2' }));
    let ask = await screen.findByRole('dialog', { name: 'Remove Section 2?' });
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('group', { name: 'Section 2' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove Section 2' }));
    ask = await screen.findByRole('dialog', { name: 'Remove Section 2?' });
    await user.click(within(ask).getByRole('button', { name: 'Delete Questions' }));
    expect(screen.getAllByRole('group', { name: /^Question \d$/ })).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Assessment updated successfully - New version created');
    const body = lastSave();
    expect(body.sections.map((s) => s.id)).toEqual([1]);
    expect(body.questions.map((q) => [q.id, q.section])).toEqual([['q1', 1]]);
  });

  it('when an empty section is removed, then it asks to confirm only', async () => {
    const { user } = await startEditing();
    await user.click(screen.getByRole('button', { name: 'Add Section' }));
    await user.click(screen.getByRole('button', { name: 'Remove Section 3' }));
    const ask = await screen.findByRole('dialog', { name: 'Remove Section 3?' });
    expect(within(ask).queryByRole('button', { name: 'Move Questions' })).not.toBeInTheDocument();
    await user.click(within(ask).getByRole('button', { name: 'Remove Section' }));
    expect(screen.queryByRole('group', { name: 'Section 3' })).not.toBeInTheDocument();
  });

  it('when a save is made, then the whole assessment goes with its base version and notes, and the new version is Current', async () => {
    const { user } = await startEditing();
    const title = screen.getByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'Readiness 2025');

    // Turn the yes/no question into a multiple choice one and give it a third option.
    await user.selectOptions(within(questionGroup(1)).getByLabelText('Type'), 'multiple_choice');
    await user.click(within(questionGroup(1)).getByRole('button', { name: 'Add Option' }));
    expect(within(questionGroup(1)).getAllByRole('textbox', { name: /^Option \d$/ })).toHaveLength(3);
    await user.click(within(questionGroup(1)).getByRole('button', { name: 'Remove option 1 of Question 1' }));

    await user.click(screen.getByRole('button', { name: 'Add Section' }));
    await user.click(screen.getByRole('button', { name: 'Add Question' }));
    await user.type(screen.getByLabelText('Change notes (optional)'), 'Clearer wording');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(
      await screen.findByText('Assessment updated successfully - New version created'),
    ).toBeInTheDocument();
    const body = lastSave();
    expect(body.baseVersion).toBe(2);
    expect(body.changeNotes).toBe('Clearer wording');
    expect(body.title).toBe('Readiness 2025');
    expect(body.sections.map((s) => s.id)).toEqual([1, 2, 3]);
    expect(body.sections[2]!.title).toBe('Section 3');
    const first = body.questions[0]!;
    expect(first.type).toBe('multiple_choice');
    expect(first.options).toHaveLength(2);
    expect(first.options!.map((o) => o.id)).toContain(first.correctAnswer);
    const added = body.questions.at(-1)!;
    expect(added).toMatchObject({
      type: 'yes_no',
      question: 'New question',
      correctAnswer: 'yes',
      points: 1,
      section: 1,
      required: true,
    });
    expect(added.id).toMatch(/^q\d+$/);
    expect(body.questions[2]!.downloadableFile).toEqual({
      originalName: 'plan-template.docx',
      filename: 'f-abc.docx',
      size: 2048,
    });

    expect(await screen.findByRole('heading', { name: 'Readiness 2025' })).toBeInTheDocument();
    await waitFor(() => expect(within(history()).getAllByRole('listitem')).toHaveLength(3));
    const newest = within(history()).getAllByRole('listitem')[0]!;
    expect(within(newest).getByText('Version 3')).toBeInTheDocument();
    expect(within(newest).getByText('Current')).toBeInTheDocument();
  });

  it('when fields break the rules, then each shows its message and nothing is sent', async () => {
    const { user } = await startEditing();
    await user.clear(screen.getByLabelText('Title'));
    const time = screen.getByLabelText('Time limit (minutes)');
    await user.clear(time);
    await user.type(time, '0');
    const score = screen.getByLabelText('Passing score (%)');
    await user.clear(score);
    await user.type(score, '101');
    const points = within(questionGroup(1)).getByLabelText('Points');
    await user.clear(points);
    await user.type(points, '0');
    await user.click(within(questionGroup(2)).getByRole('button', { name: 'Remove option 1 of Question 2' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Title is required')).toBeInTheDocument();
    expect(screen.getByText('Time limit must be at least 1 minute')).toBeInTheDocument();
    expect(screen.getByText('Passing score must be between 0 and 100')).toBeInTheDocument();
    expect(within(questionGroup(1)).getByText('Points must be at least 1')).toBeInTheDocument();
    expect(
      within(questionGroup(2)).getByText('A multiple choice question needs at least 2 options'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveFocus();
    expect(screen.getByText('Title is required')).toHaveAttribute('role', 'alert');
    expect(store.saves).toHaveLength(0);
  });

  it('when someone else saved first, then the server’s message shows and the edit stays open', async () => {
    store.versions.push({ ...store.versions[1]!, version: 3, isActive: false });
    const { user } = await startEditing();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(STALE_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Edit assessment' })).toBeInTheDocument();
  });

  it('when a save fails without a message, then "Failed to update assessment" shows', async () => {
    server.use(http.put('/api/assessment', ({ response }) => response.untyped(outage(500))));
    const { user } = await startEditing();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Failed to update assessment')).toBeInTheDocument();
  });

  it('when the history and an old version are shown, then each button named apart from its text starts with that text (label in name)', async () => {
    const { user } = await openAssessments();
    await user.click(await screen.findByRole('button', { name: 'View version 1' }));
    await screen.findByRole('heading', { name: 'Version 1 (read-only)' });
    const named = screen
      .getAllByRole('button')
      .filter((b) => b.hasAttribute('aria-label') && b.textContent?.trim())
      .map((b) => ({ text: b.textContent!.trim(), name: b.getAttribute('aria-label')! }));
    expect(named).toContainEqual({ text: 'Make Current', name: 'Make Current version 1' });
    // Someone who says what they see ('click Make Current') reaches the button: its name begins with its words.
    for (const { text, name } of named)
      expect(name.slice(0, text.length).toLowerCase()).toBe(text.toLowerCase());
  });

  it('when an old version is opened and made current, then it asks first and the history moves Current', async () => {
    const { user } = await openAssessments();
    await user.click(await screen.findByRole('button', { name: 'View version 1' }));
    expect(await screen.findByRole('heading', { name: 'Version 1 (read-only)' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Assessment' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Make Current version 1' }));
    const dialog = screen.getByRole('dialog', { name: 'Make Version Current' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(store.versions[0]!.isActive).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Make Current version 1' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Make Version Current' })).getByRole('button', {
        name: 'Make Current',
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Readiness (first draft)' })).toBeInTheDocument();
    await waitFor(() => {
      const [v2, v1] = within(history()).getAllByRole('listitem');
      expect(within(v1!).getByText('Current')).toBeInTheDocument();
      expect(within(v2!).queryByText('Current')).not.toBeInTheDocument();
    });
  });

  it('when a file is uploaded and removed, then the draft holds it, then not, and the file is deleted', async () => {
    const { user } = await startEditing();
    const q1 = questionGroup(1);
    await user.click(within(q1).getByLabelText('Attach a downloadable file'));
    const input = within(q1).getByLabelText('Downloadable file for Question 1');
    expect(input).toHaveAttribute('accept', '.jpg,.jpeg,.png,.gif,.pdf,.doc,.docx,.txt,.zip');
    await user.upload(input, new File(['%PDF-1.4'], 'syllabus.pdf', { type: 'application/pdf' }));
    expect(await within(q1).findByText('syllabus.pdf')).toBeInTheDocument();
    await user.click(within(q1).getByRole('button', { name: 'Remove file syllabus.pdf from Question 1' }));
    await waitFor(() => expect(store.deletedFiles).toEqual(['f-new.pdf']));
    expect(within(q1).getByLabelText('Downloadable file for Question 1')).toBeInTheDocument();
  });

  it('when the downloadable-file box is unchecked, then the attached file is cleared from the save', async () => {
    const { user } = await startEditing();
    await user.click(within(questionGroup(3)).getByLabelText('Attach a downloadable file'));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Assessment updated successfully - New version created');
    expect(lastSave().questions[2]).toMatchObject({ hasDownloadableFile: false, downloadableFile: null });
  });

  it('when an upload fails, then "File upload failed" shows and no file is attached', async () => {
    server.use(http.post('/api/assessment/upload-file', ({ response }) => response.untyped(outage(500))));
    const q1 = await uploadToFirstQuestion();
    expect(await screen.findByText('File upload failed')).toBeInTheDocument();
    expect(within(q1).getByLabelText('Downloadable file for Question 1')).toBeInTheDocument();
  });

  it('when the server refuses an upload with a message, then that message shows', async () => {
    server.use(
      http.post('/api/assessment/upload-file', () =>
        refusal(413, { message: 'File is too large', code: 'file_too_large' }),
      ),
    );
    await uploadToFirstQuestion();
    expect(await screen.findByText('File is too large')).toBeInTheDocument();
  });

  it('when there are unsaved edits and the admin goes to another page, then it asks first', async () => {
    const { user, router } = await startEditing();
    await user.type(screen.getByLabelText('Title'), ' (draft)');
    await user.click(screen.getByRole('link', { name: 'Dashboard' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard unsaved changes?' });
    await user.click(within(dialog).getByRole('button', { name: 'Stay on this page' }));
    expect(router.state.location.pathname).toBe('/admin/assessments');
    expect(screen.getByLabelText('Title')).toHaveValue('Distance Education Readiness (draft)');

    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);

    await user.click(screen.getByRole('link', { name: 'Dashboard' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Discard unsaved changes?' })).getByRole('button', {
        name: 'Leave and discard',
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/dashboard'));
  });

  it('when the assessment fails to load, then "Failed to load assessment" shows', async () => {
    server.use(http.get('/api/assessment', ({ response }) => response.untyped(outage(503))));
    renderApp('/admin/assessments', { token: openSession(superAdmin._id) });
    expect(await screen.findAllByText('Failed to load assessment')).not.toHaveLength(0);
  });

  it('when the history fails to load, then "Failed to load version history" shows', async () => {
    server.use(http.get('/api/assessment/versions', ({ response }) => response.untyped(outage(503))));
    await openAssessments();
    expect(await screen.findByText('Failed to load version history')).toBeInTheDocument();
  });

  it('when there is no assessment, then "No Assessment Found" shows and a super admin can create the first one', async () => {
    store.versions = [];
    const { user } = renderApp('/admin/assessments', { token: openSession(superAdmin._id) });
    expect(await screen.findByText('No Assessment Found')).toBeInTheDocument();
    expect(screen.getByText(/contact the system administrator/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create Assessment' }));
    await user.type(screen.getByLabelText('Title'), 'First assessment');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByRole('heading', { name: 'First assessment' })).toBeInTheDocument();
    expect(lastSave()).not.toHaveProperty('baseVersion');
  });
});
