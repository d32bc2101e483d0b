import { screen, waitFor, within } from '@testing-library/react';
import { answer } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { superAdmin } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render';
import { openSession, server } from '../../../testing/server';
import type { ImportPreview } from '../api/types';
import { store, useAssessmentServer } from './assessment-server';

useAssessmentServer();

/** What the service answers for a Moodle XML file: one section, two questions (one with Spanish), one item left out. */
const preview: ImportPreview = {
  content: {
    title: 'Distance Education Readiness',
    description: 'Are you ready to study online?',
    timeLimit: 30,
    passingScore: 70,
    shuffleQuestions: false,
    shuffleOptions: false,
    practiceQuestion: null,
    translations: {
      es: { questions: { q1: { question: '¿Tienes un ordenador que puedas usar cada día?' } } },
    },
    sections: [{ id: 1, title: 'Getting started', description: 'Your computer and connection.' }],
    questions: [
      {
        id: 'q1',
        type: 'yes_no',
        question: 'Do you have a computer you can use every day?',
        section: 1,
        points: 1,
        required: true,
        correctAnswer: 'yes',
        hasDownloadableFile: false,
      },
      {
        id: 'Study-space',
        type: 'file_upload',
        question: 'Upload a photo of the place where you study.',
        section: 1,
        points: 3,
        required: true,
        hasDownloadableFile: false,
      },
    ],
  },
  counts: { sections: 1, yes_no: 1, multiple_choice: 0, file_upload: 1 },
  leftOut: [{ item: 'Devices', reason: 'multiple correct answers' }],
};

it('when an admin imports a file and adds it to the current content, then the preview lists what is left out and the editor saves it all as a new version', async () => {
  const uploads: string[] = [];
  server.use(
    http.post('/api/assessment/import', ({ request }) => {
      uploads.push(request.headers.get('content-type') ?? '');
      return answer('/api/assessment/import', 'post', preview);
    }),
  );
  const { user } = renderApp('/admin/assessments', { token: openSession(superAdmin._id) });
  await screen.findByRole('heading', { name: 'Distance Education Readiness' });

  await user.click(screen.getByRole('button', { name: 'Import Questions' }));
  const dialog = await screen.findByRole('dialog', { name: 'Import Questions' });
  await user.upload(
    within(dialog).getByLabelText('Question file'),
    new File(['<quiz/>'], 'bank.xml', { type: 'text/xml' }),
  );
  await user.click(within(dialog).getByRole('button', { name: 'Read File' }));

  const result = await within(dialog).findByRole('region', { name: 'What the file holds' });
  expect(uploads).toEqual([expect.stringMatching(/^multipart\/form-data/)]);
  expect(within(result).getByText('1 section')).toBeInTheDocument();
  expect(within(result).getByText('1 yes/no question')).toBeInTheDocument();
  expect(within(result).getByText('0 multiple choice questions')).toBeInTheDocument();
  expect(within(result).getByText('1 item is left out:')).toBeInTheDocument();
  expect(within(result).getByText('Devices: multiple correct answers')).toBeInTheDocument();
  await user.click(within(result).getByLabelText('Add them as new sections after the current ones'));
  await user.click(within(dialog).getByRole('button', { name: 'Import 2 questions' }));

  await screen.findByRole('form', { name: 'Edit assessment' });
  expect(screen.getByText(/Imported from bank\.xml/)).toBeInTheDocument();
  expect(store.saves).toHaveLength(0);
  await user.click(screen.getByRole('button', { name: 'Save Changes' }));

  await screen.findByRole('heading', { name: 'Distance Education Readiness' });
  const saved = store.saves.at(-1)!;
  expect(saved.sections.map((s) => [s.id, s.title])).toEqual([
    [1, 'Technology Access'],
    [2, 'Study Habits'],
    [3, 'Getting started'],
  ]);
  expect(saved.questions.map((q) => [q.id, q.section])).toEqual([
    ['q1', 1],
    ['q2', 2],
    ['q3', 2],
    ['q1-2', 3],
    ['Study-space', 3],
  ]);
  // The file's translation goes along, under the question's new id.
  expect(saved.translations?.es?.questions).toEqual({
    'q1-2': { question: '¿Tienes un ordenador que puedas usar cada día?' },
  });
});

it('when an admin reads a file but cancels, or imports it and discards the edit, then the files the import stored are let go of', async () => {
  const withFile: ImportPreview = {
    ...preview,
    content: {
      ...preview.content,
      questions: preview.content.questions.map((q) =>
        q.type === 'file_upload'
          ? {
              ...q,
              hasDownloadableFile: true,
              downloadableFile: { originalName: 'desk.png', filename: 'f-imported.png', size: 68 },
            }
          : q,
      ),
    },
  };
  server.use(http.post('/api/assessment/import', () => answer('/api/assessment/import', 'post', withFile)));
  const { user } = renderApp('/admin/assessments', { token: openSession(superAdmin._id) });
  await screen.findByRole('heading', { name: 'Distance Education Readiness' });
  const readFile = async () => {
    await user.click(screen.getByRole('button', { name: 'Import Questions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import Questions' });
    await user.upload(within(dialog).getByLabelText('Question file'), new File(['<quiz/>'], 'bank.xml'));
    await user.click(within(dialog).getByRole('button', { name: 'Read File' }));
    await within(dialog).findByRole('region', { name: 'What the file holds' });
    return dialog;
  };

  await user.click(within(await readFile()).getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(store.deletedFiles).toEqual(['f-imported.png']));

  await user.click(within(await readFile()).getByRole('button', { name: 'Import 2 questions' }));
  await screen.findByRole('form', { name: 'Edit assessment' });
  await user.click(screen.getByRole('button', { name: 'Cancel' }));
  await user.click(await screen.findByRole('button', { name: 'Discard Changes' }));
  await waitFor(() => expect(store.deletedFiles).toEqual(['f-imported.png', 'f-imported.png']));
  expect(store.saves).toHaveLength(0);
});
