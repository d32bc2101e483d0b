import { screen, waitFor, within } from '@testing-library/react';
import { outage } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { renderStudentApp } from '../../../testing/render-student';
import { server } from '../../../testing/server';
import { attemptInProgress, db, TOKEN, translations, useStudentServer } from './student-server';

useStudentServer();

/*
 * A question's downloadable file per language (issue 27 item 4): the page offers the file of its language when the
 * version gives one, else the English file with its name marked English; switching language swaps the file.
 */

const SPANISH_FILE = {
  originalName: 'plantilla-plan-de-estudio.docx',
  filename: 'f-456.docx',
  size: 3072,
  mimetype: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  url: '/api/assessment/files/f-456.docx',
};

/** The files the page asked for, by path; each answers 500 so the page reports it and nothing is saved. */
const requested: string[] = [];
beforeEach(() => {
  requested.length = 0;
  server.use(
    http.get('/api/assessment/files/{filename}', ({ params, response }) => {
      requested.push(params.filename);
      return response.untyped(outage(500));
    }),
  );
  db.assessment = {
    ...db.assessment,
    translations: {
      ...translations,
      es: {
        ...translations.es,
        questions: {
          q4: { fileInstructions: 'Complete la plantilla y súbala.', downloadableFile: SPANISH_FILE },
        },
      },
    },
  };
  db.attempt = attemptInProgress({ seq: 1, answers: [{ questionId: 'q1', answer: 'yes' }] });
});

/** The file question's card, whatever language its text is in. */
const fileCard = () => within(document.querySelector<HTMLElement>('[data-question-id="q4"]')!);

describe('A question file in the student’s language', () => {
  it('when the page is Spanish and the version has a Spanish file, then that file is offered, in Spanish, and it is the one downloaded', async () => {
    db.language = 'es';
    const { user } = renderStudentApp(`/assessment/${TOKEN}`);
    await screen.findByText('Complete la plantilla y súbala.');
    const card = fileCard();
    const button = card.getByRole('button', { name: 'Descargar plantilla-plan-de-estudio.docx' });
    const name = within(button).getByText('plantilla-plan-de-estudio.docx');
    expect(name).not.toHaveAttribute('lang');
    expect(card.queryByText('study-plan-template.docx')).not.toBeInTheDocument();
    await user.click(button);
    await waitFor(() => expect(requested).toEqual(['f-456.docx']));
  });

  it('when the page language has no file of its own, then the English file is offered with its name marked lang="en", and switching to Spanish swaps it', async () => {
    db.language = 'fr';
    const { user } = renderStudentApp(`/assessment/${TOKEN}`);
    await screen.findByText('Remplissez le modèle et téléversez-le.');
    const button = fileCard().getByRole('button', { name: 'Télécharger study-plan-template.docx' });
    const name = within(button).getByText('study-plan-template.docx');
    expect(name).toHaveAttribute('lang', 'en');
    expect(name).toHaveAttribute('dir', 'ltr');
    await user.click(button);
    await waitFor(() => expect(requested).toEqual(['f-123.docx']));

    await user.selectOptions(screen.getByRole('combobox', { name: 'Langue' }), 'es');
    const spanish = await fileCard().findByRole('button', {
      name: 'Descargar plantilla-plan-de-estudio.docx',
    });
    expect(fileCard().queryByText('study-plan-template.docx')).not.toBeInTheDocument();
    await user.click(spanish);
    await waitFor(() => expect(requested).toEqual(['f-123.docx', 'f-456.docx']));
  });

  it('when an Arabic page falls back to the English file, then its name is marked English and left to right', async () => {
    db.language = 'ar';
    renderStudentApp(`/assessment/${TOKEN}`);
    const name = await screen.findByText('study-plan-template.docx');
    expect(name).toHaveAttribute('lang', 'en');
    expect(name).toHaveAttribute('dir', 'ltr');
  });

  it('when the page is English, then the English file is offered without marks', async () => {
    renderStudentApp(`/assessment/${TOKEN}`);
    const name = await screen.findByText('study-plan-template.docx');
    expect(name).not.toHaveAttribute('lang');
    expect(screen.queryByText('plantilla-plan-de-estudio.docx')).not.toBeInTheDocument();
  });
});
