import { screen, within } from '@testing-library/react';
import { superAdmin } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render';
import { openSession } from '../../../testing/server';
import type { ContentTranslations } from '../api/types';
import { store, useAssessmentServer } from './assessment-server';

useAssessmentServer();

const SAVED = 'Assessment updated successfully - New version created';

/* The active version's 12 texts: title, description, section 1's title and description, section 2's title (its
 * description is empty), the three questions' texts, question 2's two options, question 3's instructions and the
 * file question 3 offers to download (a language's own file counts as a text). */
const spanish = {
  title: 'Preparación para la educación a distancia',
  description: '¿Está listo para estudiar en línea?',
  sections: {
    '1': { title: 'Acceso a la tecnología', description: 'Su equipo' },
    '2': { title: 'Hábitos de estudio' },
  },
  questions: {
    q1: { question: '¿Tiene una conexión a internet confiable?' },
    q2: {
      question: '¿Cuántas horas por semana puede estudiar?',
      options: { o1: 'Menos de 5', o2: 'De 5 a 10' },
    },
    q3: {
      question: 'Suba su plan semanal de estudio',
      fileInstructions: 'Use la plantilla',
      downloadableFile: { originalName: 'plantilla-plan.docx', filename: 'f-es.docx', size: 2100 },
    },
  },
};
const arabic = {
  title: 'الجاهزية للتعليم عن بعد',
  questions: { q1: { question: 'هل لديك اتصال موثوق بالإنترنت؟' } },
};

/** Gives the active version (2) these translations. */
function translate(translations: ContentTranslations) {
  store.versions = store.versions.map((v) => (v.version === 2 ? { ...v, translations } : v));
}

async function startEditing() {
  const app = renderApp('/admin/assessments', { token: openSession(superAdmin._id) });
  await app.user.click(await screen.findByRole('button', { name: 'Edit Assessment' }));
  await screen.findByRole('form', { name: 'Edit assessment' });
  return app;
}

const switcher = () => screen.getByRole('group', { name: 'Content language' });
const summary = () =>
  within(screen.getByRole('list', { name: 'Translation status' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);
const lastSave = () => store.saves.at(-1)!;

describe('Content in several languages', () => {
  it('when a language is chosen, then each text shows its English beside a field in that language, Arabic right to left, and English shows the content again', async () => {
    translate({ es: spanish, ar: arabic });
    const { user } = await startEditing();
    expect(
      within(switcher())
        .getAllByRole('button')
        .map((b) => [b.textContent, b.getAttribute('lang'), b.getAttribute('aria-pressed')]),
    ).toEqual([
      ['English', 'en', 'true'],
      ['Español', 'es', 'false'],
      ['Français', 'fr', 'false'],
      ['Português', 'pt', 'false'],
      ['العربية', 'ar', 'false'],
    ]);
    expect(screen.getByRole('region', { name: 'Basic Settings' })).toBeInTheDocument();

    await user.click(within(switcher()).getByRole('button', { name: 'العربية' }));
    expect(within(switcher()).getByRole('button', { name: 'العربية' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(screen.queryByRole('region', { name: 'Basic Settings' })).not.toBeInTheDocument();
    const card = screen.getByRole('region', { name: 'Arabic Translation' });
    expect(
      within(card)
        .getAllByRole('group')
        .map((g) => g.querySelector('legend')!.textContent),
    ).toEqual(['Basic Settings', 'Section 1', 'Section 2', 'Question 1', 'Question 2', 'Question 3']);

    const title = within(card).getByRole('textbox', { name: 'Title in Arabic' });
    expect(title).toHaveValue('الجاهزية للتعليم عن بعد');
    expect(title).toHaveAttribute('dir', 'rtl');
    expect(title).toHaveAttribute('lang', 'ar');
    expect(title).toHaveAccessibleDescription('English: Distance Education Readiness');
    const description = within(card).getByRole('textbox', { name: 'Description in Arabic' });
    expect(description).toHaveValue('');
    expect(description).toHaveAttribute('dir', 'rtl');
    expect(description).toHaveAccessibleDescription(
      'English: Are you ready to study online? Missing Students see the English text.',
    );
    expect(within(card).getByText('Are you ready to study online?')).toHaveAttribute('lang', 'en');
    expect(within(card).getAllByText('Missing')).toHaveLength(10);

    // Another language: its own texts, left to right.
    await user.click(within(switcher()).getByRole('button', { name: 'Español' }));
    const option = screen.getByRole('textbox', { name: 'Question 2 option 2 in Spanish' });
    expect(option).toHaveValue('De 5 a 10');
    expect(option).toHaveAttribute('lang', 'es');
    expect(option).not.toHaveAttribute('dir');
    expect(option).toHaveAccessibleDescription('English: 5 to 10');
    expect(screen.getByRole('textbox', { name: 'Question 3 file instructions in Spanish' })).toHaveValue(
      'Use la plantilla',
    );
    expect(screen.queryByText('Missing')).not.toBeInTheDocument();

    await user.click(within(switcher()).getByRole('button', { name: 'English' }));
    expect(screen.getByRole('region', { name: 'Basic Settings' })).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveValue('Distance Education Readiness');
  });

  it('when texts are translated or the English content changes, then the summary counts the texts each language misses', async () => {
    translate({ es: spanish, ar: arabic });
    const { user } = await startEditing();
    expect(summary()).toEqual([
      'Spanish: all 12 texts translated',
      'French: 12 of 12 texts missing',
      'Portuguese: 12 of 12 texts missing',
      'Arabic: 10 of 12 texts missing',
    ]);

    await user.click(within(switcher()).getByRole('button', { name: 'العربية' }));
    await user.type(screen.getByRole('textbox', { name: 'Description in Arabic' }), 'هل أنت مستعد؟');
    expect(summary()).toContain('Arabic: 9 of 12 texts missing');
    // Spaces alone are no translation.
    await user.type(screen.getByRole('textbox', { name: 'Section 2 title in Arabic' }), '   ');
    expect(summary()).toContain('Arabic: 9 of 12 texts missing');

    // A new English text is missing in every language until it is translated.
    await user.click(within(switcher()).getByRole('button', { name: 'English' }));
    await user.type(screen.getByLabelText('Section 2 description'), 'How you learn');
    expect(summary()).toEqual([
      'Spanish: 1 of 13 texts missing',
      'French: 13 of 13 texts missing',
      'Portuguese: 13 of 13 texts missing',
      'Arabic: 10 of 13 texts missing',
    ]);
  });

  it('when only a translation is typed, then leaving the edit asks first', async () => {
    const { user } = await startEditing();
    await user.click(within(switcher()).getByRole('button', { name: 'Português' }));
    await user.type(screen.getByRole('textbox', { name: 'Title in Portuguese' }), 'Prontidão');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('dialog', { name: 'Discard unsaved changes?' })).toBeInTheDocument();
  });

  it('when translations are edited and saved with some missing, then the save sends only the texts the version has, without empty ones', async () => {
    translate({ es: spanish, ar: arabic });
    const { user } = await startEditing();

    await user.click(within(switcher()).getByRole('button', { name: 'Français' }));
    await user.type(
      screen.getByRole('textbox', { name: 'Title in French' }),
      '  Préparation aux études à distance ',
    );
    await user.type(screen.getByRole('textbox', { name: 'Question 2 option 1 in French' }), 'Moins de 5');
    await user.type(screen.getByRole('textbox', { name: 'Question 1 text in French' }), '   ');
    await user.click(within(switcher()).getByRole('button', { name: 'العربية' }));
    await user.clear(screen.getByRole('textbox', { name: 'Question 1 text in Arabic' }));

    // Question 3 goes: its translations go with it.
    await user.click(within(switcher()).getByRole('button', { name: 'English' }));
    await user.click(screen.getByRole('button', { name: 'Remove Question 3' }));
    const ask = await screen.findByRole('dialog', { name: 'Remove Question 3?' });
    await user.click(within(ask).getByRole('button', { name: 'Remove Question' }));

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(SAVED)).toBeInTheDocument();
    const { q3: _gone, ...spanishQuestions } = spanish.questions;
    expect(lastSave().translations).toEqual({
      es: { ...spanish, questions: spanishQuestions },
      fr: {
        title: 'Préparation aux études à distance',
        questions: { q2: { options: { o1: 'Moins de 5' } } },
      },
      ar: { title: 'الجاهزية للتعليم عن بعد' },
    });
    // The English content is the version's own, unchanged by the translations.
    expect(lastSave()).toMatchObject({ title: 'Distance Education Readiness' });
  });

  it('when a rule of the English content is broken while another language is shown, then the editor goes back to English to show it', async () => {
    const { user } = await startEditing();
    await user.clear(screen.getByLabelText('Title'));
    await user.click(within(switcher()).getByRole('button', { name: 'Português' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Title is required')).toBeInTheDocument();
    expect(within(switcher()).getByRole('button', { name: 'English' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(store.saves).toHaveLength(0);
  });

  it('when a version is read, then its languages are listed, with the texts each still misses', async () => {
    translate({ es: spanish, ar: arabic });
    renderApp('/admin/assessments', { token: openSession(superAdmin._id) });
    const settings = await screen.findByRole('region', { name: 'Basic Settings' });
    expect(within(settings).getByText('Languages').nextSibling).toHaveTextContent(
      'English, Spanish, Arabic (10 of 12 texts missing)',
    );
  });

  it('when a version has no translations, then it reads English only', async () => {
    renderApp('/admin/assessments', { token: openSession(superAdmin._id) });
    const settings = await screen.findByRole('region', { name: 'Basic Settings' });
    expect(within(settings).getByText('Languages').nextSibling).toHaveTextContent('English only');
  });

  it('when a file is uploaded for a language, then it shows in place of Missing, is saved in that language, and Remove gives the English file back', async () => {
    translate({ ar: arabic });
    const { user } = await startEditing();
    expect(summary()).toContain('French: 12 of 12 texts missing');
    await user.click(within(switcher()).getByRole('button', { name: 'Français' }));
    const card = screen.getByRole('region', { name: 'French Translation' });
    const input = within(card).getByLabelText('Question 3 downloadable file in French');
    expect(input).toHaveAttribute('accept', '.jpg,.jpeg,.png,.gif,.pdf,.doc,.docx,.txt,.zip');
    expect(input).toHaveAccessibleDescription(
      'English file: plan-template.docx Accepted: jpg, jpeg, png, gif, pdf, doc, docx, txt, zip Missing Students get the English file.',
    );
    expect(within(card).getByText('plan-template.docx')).toHaveAttribute('lang', 'en');

    await user.upload(input, new File(['%PDF-1.4'], 'syllabus.pdf', { type: 'application/pdf' }));
    await within(card).findByRole('button', {
      name: 'Remove the French file syllabus.pdf from Question 3',
    });
    expect(summary()).toContain('French: 11 of 12 texts missing');
    expect(within(card).getAllByText('Missing')).toHaveLength(11);

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(SAVED)).toBeInTheDocument();
    expect(lastSave().translations).toEqual({
      fr: {
        questions: {
          q3: { downloadableFile: { originalName: 'syllabus.pdf', filename: 'f-new.pdf', size: 5120 } },
        },
      },
      ar: arabic,
    });
    // The English file stays the question's own.
    expect(lastSave().questions[2]).toMatchObject({
      downloadableFile: { originalName: 'plan-template.docx', filename: 'f-abc.docx' },
    });
  });

  it('when a language’s file is removed, then the save sends no file for it', async () => {
    translate({ es: spanish });
    const { user } = await startEditing();
    await user.click(within(switcher()).getByRole('button', { name: 'Español' }));
    await user.click(
      screen.getByRole('button', { name: 'Remove the Spanish file plantilla-plan.docx from Question 3' }),
    );
    expect(store.deletedFiles).toContain('f-es.docx');
    expect(screen.getByLabelText('Question 3 downloadable file in Spanish')).toBeInTheDocument();
    expect(summary()).toContain('Spanish: 1 of 12 texts missing');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(SAVED)).toBeInTheDocument();
    expect(lastSave().translations!.es?.questions?.q3).toEqual({
      question: 'Suba su plan semanal de estudio',
      fileInstructions: 'Use la plantilla',
    });
  });
});

describe('Translations whose English changed', () => {
  /** Gives the active version (2) these translations, of which the version says `outdated` need review. */
  function translateOutdated(translations: ContentTranslations, outdated: Record<string, string[][]>) {
    store.versions = store.versions.map((v) =>
      v.version === 2 ? { ...v, translations, outdatedTranslations: outdated } : v,
    );
  }

  it('when a translation was written for an earlier English, then it is marked, counted, asked about before saving, and marking it reviewed clears it', async () => {
    translateOutdated({ es: spanish, ar: arabic }, { es: [['questions', 'q1', 'question']] });
    const { user } = await startEditing();
    // Spanish has every text but one to review: it is not complete.
    expect(summary()).toEqual([
      'Spanish: 1 of 12 texts to review (English changed)',
      'French: 12 of 12 texts missing',
      'Portuguese: 12 of 12 texts missing',
      'Arabic: 10 of 12 texts missing',
    ]);

    await user.click(within(switcher()).getByRole('button', { name: 'Español' }));
    const field = screen.getByRole('textbox', { name: 'Question 1 text in Spanish' });
    expect(field).toHaveAccessibleDescription(
      expect.stringContaining(
        'English changed — review This translation was written for an earlier English text.',
      ),
    );
    expect(screen.getAllByText('English changed — review')).toHaveLength(1);

    // Saving first says how many are left to review; Review them goes back to them and saves nothing.
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const ask = await screen.findByRole('dialog', { name: 'Save with translations to review?' });
    expect(ask).toHaveTextContent(
      '1 translation was written for English text that has changed since (Spanish 1). Students see it as written until reviewed.',
    );
    await user.click(within(ask).getByRole('button', { name: 'Review them' }));
    expect(store.saves).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Mark reviewed: Question 1 text in Spanish' }));
    expect(screen.queryByText('English changed — review')).not.toBeInTheDocument();
    expect(summary()[0]).toBe('Spanish: all 12 texts translated');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(SAVED)).toBeInTheDocument();
    expect(lastSave().reviewedTranslations).toEqual({ es: [['questions', 'q1', 'question']] });
  });

  it('when the English of a translated text is changed in the edit, then its translations are marked at once, and rewriting one clears it', async () => {
    translateOutdated({ es: spanish, ar: arabic }, {});
    const { user } = await startEditing();
    const english = screen.getByDisplayValue('Do you have a reliable internet connection?');
    await user.clear(english);
    await user.type(english, 'Do you have internet at home?');
    expect(summary()).toEqual([
      'Spanish: 1 of 12 texts to review (English changed)',
      'French: 12 of 12 texts missing',
      'Portuguese: 12 of 12 texts missing',
      'Arabic: 10 of 12 texts missing, 1 to review (English changed)',
    ]);

    await user.click(within(switcher()).getByRole('button', { name: 'Español' }));
    expect(screen.getAllByText('English changed — review')).toHaveLength(1);
    await user.type(screen.getByRole('textbox', { name: 'Question 1 text in Spanish' }), ' en casa');
    expect(screen.queryByText('English changed — review')).not.toBeInTheDocument();

    // Arabic is still to review: the save asks, and Save anyway sends it as it is.
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const ask = await screen.findByRole('dialog', { name: 'Save with translations to review?' });
    expect(ask).toHaveTextContent('(Arabic 1)');
    await user.click(within(ask).getByRole('button', { name: 'Save anyway' }));
    expect(await screen.findByText(SAVED)).toBeInTheDocument();
    expect(lastSave().reviewedTranslations).toEqual({});
  });

  it('when a version is read, then a language with translations to review says how many', async () => {
    translateOutdated({ es: spanish }, { es: [['title'], ['questions', 'q2', 'options', 'o1']] });
    renderApp('/admin/assessments', { token: openSession(superAdmin._id) });
    expect(await screen.findByText('English, Spanish (2 to review: English changed)')).toBeInTheDocument();
  });
});
