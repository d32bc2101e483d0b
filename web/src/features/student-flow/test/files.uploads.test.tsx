import { screen, waitFor, within } from '@testing-library/react';
import { outage } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { renderStudentApp } from '../../../testing/render-student';
import { server } from '../../../testing/server';
import { chooseFile, dropFile } from './files';
import { attemptInProgress, db, MAX_UPLOAD_BYTES, TOKEN, useStudentServer } from './student-server';

useStudentServer();

async function openFileQuestion() {
  db.attempt = attemptInProgress({ seq: 1, answers: [{ questionId: 'q1', answer: 'yes' }] });
  const app = renderStudentApp(`/assessment/${TOKEN}`);
  await screen.findByRole('heading', { level: 2, name: 'Study Habits' });
  return { ...app, card: within(screen.getByRole('group', { name: /Upload your weekly study plan/ })) };
}

describe('File answers', () => {
  it('when a file is dropped, then it is uploaded at once for this attempt and question, and a new one replaces it', async () => {
    const { card } = await openFileQuestion();
    expect(card.getByText('Fill in the template and upload it.')).toBeInTheDocument();
    const input = card.getByLabelText(/Choose a file/);
    expect(input).toHaveAttribute('accept', '.pdf,.doc,.docx,.txt,.jpg,.jpeg,.png');
    dropFile(input.closest('.dropzone') as HTMLElement, 'plan.docx');
    expect(await card.findByText('plan.docx')).toBeInTheDocument();
    expect(db.uploads).toMatchObject([{ questionId: 'q4', originalName: 'plan.docx' }]);
    chooseFile(card.getByLabelText(/Replace the file/), 'plan-v2.pdf');
    expect(await card.findByText('plan-v2.pdf')).toBeInTheDocument();
    expect(card.queryByText('plan.docx')).not.toBeInTheDocument();
  });

  it('when the server refuses a file as too large, then its message is announced and nothing counts as answered', async () => {
    const { card } = await openFileQuestion();
    chooseFile(card.getByLabelText(/Choose a file/), 'scan.pdf', MAX_UPLOAD_BYTES + 1);
    expect(await card.findByRole('alert')).toHaveTextContent('The file is larger than 10 MB');
    expect(screen.getByRole('progressbar', { name: 'Progress' })).toHaveAttribute('aria-valuenow', '20');
  });

  it('when a file of another type is chosen, then the allow-list message shows and nothing is sent', async () => {
    const { card } = await openFileQuestion();
    chooseFile(card.getByLabelText(/Choose a file/), 'tool.exe');
    expect(await card.findByRole('alert')).toHaveTextContent(
      'Only PDF, Word (doc, docx), text and image (jpg, jpeg, png) files can be uploaded',
    );
    expect(db.uploads).toHaveLength(0);
  });

  it('when an uploaded file is removed, then the question is unanswered again', async () => {
    const { card, user } = await openFileQuestion();
    chooseFile(card.getByLabelText(/Choose a file/), 'plan.pdf');
    await user.click(await card.findByRole('button', { name: 'Remove plan.pdf' }));
    await waitFor(() => expect(card.queryByText('plan.pdf')).not.toBeInTheDocument());
    expect(card.getByLabelText(/Choose a file/)).toBeInTheDocument();
  });

  it('when the question file cannot be downloaded, then "Download failed. Please try again." shows', async () => {
    server.use(http.get('/api/assessment/files/{filename}', ({ response }) => response.untyped(outage(500))));
    const { card, user } = await openFileQuestion();
    await user.click(card.getByRole('button', { name: 'Download study-plan-template.docx' }));
    expect(
      await screen.findByText('Download failed. Please try again.', { selector: '.Toastify *' }),
    ).toBeInTheDocument();
  });
});
