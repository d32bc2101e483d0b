import { screen, waitFor, within } from '@testing-library/react';
import { chooseFile } from './files';
import { outage } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { renderStudentApp } from '../../../testing/render-student';
import { server } from '../../../testing/server';
import { db, TOKEN, useStudentServer } from './student-server';

useStudentServer();

const toast = (text: string) => screen.findByText(text, { selector: '.Toastify *' });

async function startTest() {
  const scrollTo = jest.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  const app = renderStudentApp(`/assessment/${TOKEN}`);
  await app.user.click(await screen.findByRole('button', { name: 'Start Assessment' }));
  await screen.findByRole('heading', { level: 2, name: 'Technology' });
  return { ...app, scrollTo };
}

const progress = () => screen.getByRole('progressbar', { name: 'Progress' });
const question = (text: string) => screen.getByRole('group', { name: new RegExp(text) });

describe('Starting the assessment', () => {
  it('when Start is pressed, then section 1 opens at the top with the toast', async () => {
    const { scrollTo } = await startTest();
    expect(await toast('Assessment started. Good luck!')).toBeInTheDocument();
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    // The Start button is gone: focus waits on the first section's title.
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: 'Technology' })).toHaveFocus());
    expect(screen.getByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByRole('timer', { name: 'Time remaining' }).textContent).toMatch(/^(30:00|29:5\d)$/);
    expect(screen.getByText('Section 1 of 3')).toBeInTheDocument();
    expect(db.attempt).not.toBeNull();
    scrollTo.mockRestore();
  });

  it('when starting fails, then "Failed to start assessment" shows and the welcome page stays', async () => {
    server.use(
      http.post('/api/student/{token}/start', ({ response }) =>
        response.untyped(outage(503, { message: 'down', code: 'unavailable' })),
      ),
    );
    const { user } = renderStudentApp(`/assessment/${TOKEN}`);
    await user.click(await screen.findByRole('button', { name: 'Start Assessment' }));
    expect(await toast('Failed to start assessment')).toBeInTheDocument();
    // The mutation's pending state clears on the render after the toast.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Start Assessment' })).toBeEnabled());
  });
});

describe('Test screen', () => {
  it('when Next Section is disabled, then the hint names the unanswered required questions and takes the student to the first', async () => {
    const { user } = await startTest();
    const next = screen.getByRole('button', { name: 'Next Section' });
    expect(next).toBeDisabled();
    expect(next).toHaveAccessibleDescription(/Question 1 still needs an answer\./);
    await user.click(screen.getByRole('button', { name: 'Go to question 1' }));
    expect(
      within(question('Do you have a computer at home')).getByRole('radio', { name: 'Yes' }),
    ).toHaveFocus();
    await user.click(within(question('Do you have a computer at home')).getByRole('radio', { name: 'Yes' }));
    expect(next).toBeEnabled();
    expect(screen.queryByRole('button', { name: /Go to question/ })).not.toBeInTheDocument();
  });

  it('when the section has an unanswered required question, then Next Section stays disabled until it is answered', async () => {
    const { user } = await startTest();
    const next = screen.getByRole('button', { name: 'Next Section' });
    expect(next).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Previous Section' })).not.toBeInTheDocument();
    const required = question('Do you have a computer at home');
    expect(within(required).getByText('Required')).toBeInTheDocument();
    expect(within(question('How fast is your internet')).queryByText('Required')).not.toBeInTheDocument();
    // The optional question alone does not open the gate.
    await user.click(within(question('How fast is your internet')).getByRole('radio', { name: 'Fast' }));
    expect(next).toBeDisabled();
    expect(progress()).toHaveAttribute('aria-valuenow', '20');
    await user.click(within(required).getByRole('radio', { name: 'No' }));
    expect(next).toBeEnabled();
    expect(progress()).toHaveAttribute('aria-valuenow', '40');
    expect(screen.getByText('40% complete')).toBeInTheDocument();
  });

  it('when moving between sections, then focus lands on the section title and going back is always free', async () => {
    const { user } = await startTest();
    // A later section cannot be reached from the tabs while this one is incomplete.
    expect(screen.getByRole('button', { name: 'Section 2: Study Habits' })).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Section' })).toHaveDisplayValue('Section 1: Technology');
    await user.click(within(question('Do you have a computer')).getByRole('radio', { name: 'Yes' }));
    await user.click(screen.getByRole('button', { name: 'Next Section' }));
    const title = await screen.findByRole('heading', { level: 2, name: 'Study Habits' });
    await waitFor(() => expect(title).toHaveFocus());
    expect(screen.getByText('How you organise your learning.')).toBeInTheDocument();
    expect(screen.getByText('Section 2 of 3')).toBeInTheDocument();
    // Section 3 stays closed until section 2 is complete, from the tabs and from the phone dropdown.
    expect(screen.getByRole('button', { name: 'Section 3: Motivation' })).toBeDisabled();
    expect(screen.getByRole('option', { name: 'Section 3: Motivation' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Previous Section' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Technology' })).toHaveFocus();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Section' }), 'Section 2: Study Habits');
    expect(await screen.findByRole('heading', { level: 2, name: 'Study Habits' })).toHaveFocus();
  });

  it('when the last section is reached, then Submit Assessment replaces Next and waits for the required answers', async () => {
    const { user } = await startTest();
    await user.click(within(question('Do you have a computer')).getByRole('radio', { name: 'Yes' }));
    await user.click(screen.getByRole('button', { name: 'Next Section' }));
    await user.click(within(question('When do you study best')).getByRole('radio', { name: 'Evenings' }));
    expect(screen.getByRole('button', { name: 'Next Section' })).toBeDisabled();
    const upload = within(question('Upload your weekly study plan'));
    chooseFile(upload.getByLabelText(/Choose a file/), 'plan.pdf');
    expect(await upload.findByText('plan.pdf')).toBeInTheDocument();
    expect(progress()).toHaveAttribute('aria-valuenow', '60');
    await user.click(screen.getByRole('button', { name: 'Next Section' }));
    await screen.findByRole('heading', { level: 2, name: 'Motivation' });
    expect(screen.queryByRole('button', { name: 'Next Section' })).not.toBeInTheDocument();
    const submit = screen.getByRole('button', { name: 'Submit Assessment' });
    expect(submit).toBeDisabled();
    await user.click(screen.getByRole('radio', { name: 'Yes' }));
    expect(submit).toBeEnabled();
    expect(progress()).toHaveAttribute('aria-valuenow', '80');
  });
});
