import { screen, waitFor, within } from '@testing-library/react';
import { refusal } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { renderStudentApp } from '../../../testing/render-student';
import { server } from '../../../testing/server';
import { LANGUAGES } from '../../../i18n/languages';
import ar from '../../../i18n/locales/ar';
import en from '../../../i18n/locales/en';
import es from '../../../i18n/locales/es';
import fr from '../../../i18n/locales/fr';
import pt from '../../../i18n/locales/pt';
import {
  attemptInProgress,
  db,
  makeFailedResult,
  seededFailedResult,
  TOKEN,
  useStudentServer,
} from './student-server';

useStudentServer();

const html = () => document.documentElement;
const question = (text: string) => screen.getByRole('group', { name: new RegExp(text) });
const languageSelect = (name: string) => screen.getByRole('combobox', { name });

/** Every text the page has shown since the call, so that a test can say what never appeared, not even briefly. */
function recordTexts() {
  const seen = new Set<string>();
  const record = () => seen.add(document.body.textContent ?? '');
  const observer = new MutationObserver(record);
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  return {
    saw: (text: string) => [...seen].some((t) => t.includes(text)),
    stop: () => observer.disconnect(),
  };
}

describe('Student pages in the student’s language', () => {
  it('when the server answers Arabic, then the welcome page is in Arabic, right to left, and never showed English first', async () => {
    db.language = 'ar';
    const texts = recordTexts();
    renderStudentApp(`/assessment/${TOKEN}`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'تقييم الجاهزية للتعليم عن بُعد' }),
    ).toBeInTheDocument();
    texts.stop();
    expect(html()).toHaveAttribute('lang', 'ar');
    expect(html()).toHaveAttribute('dir', 'rtl');
    expect(document.title).toBe('Readiness — التقييم');
    expect(screen.getByRole('button', { name: 'بدء التقييم' })).toBeEnabled();
    expect(screen.getByText('30 دقيقة')).toBeInTheDocument();
    expect(screen.getByText('5 أسئلة في 3 أقسام')).toBeInTheDocument();
    expect(languageSelect('اللغة')).toHaveValue('ar');
    expect(texts.saw('Start Assessment')).toBe(false);
    expect(texts.saw('Distance Education Readiness Assessment')).toBe(false);
  });

  it('when an Arabic student resumes the test, then the test page is in Arabic and right to left, with Western digits', async () => {
    db.language = 'ar';
    db.attempt = attemptInProgress({}, 25);
    renderStudentApp(`/assessment/${TOKEN}`);
    const timer = await screen.findByRole('timer', { name: 'الوقت المتبقي' });
    expect(timer.textContent).toMatch(/^2[45]:\d\d$/);
    expect(html()).toHaveAttribute('lang', 'ar');
    expect(html()).toHaveAttribute('dir', 'rtl');
    expect(screen.getByText('القسم 1 من 3')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'التقدم' })).toBeInTheDocument();
    expect(screen.getByText('اكتمل 0%')).toBeInTheDocument();
    expect(within(question('هل لديك حاسوب في المنزل')).getByRole('radio', { name: 'نعم' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'القسم التالي' })).toBeDisabled();
    expect(screen.getAllByText('إلزامي').length).toBeGreaterThan(0);
  });

  it.each(LANGUAGES)(
    'when a student reading %s is on the test screen, then its one level-1 heading names the assessment in that language',
    async (language) => {
      db.language = language;
      db.attempt = attemptInProgress({}, 25);
      renderStudentApp(`/assessment/${TOKEN}`);
      await screen.findByRole('timer');
      const heading = { en, es, fr, pt, ar }[language]['app.heading'];
      expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual([heading]);
    },
  );

  it('when the student switches to French mid-test, then the words change and every answer, the section, the clock and the unsaved changes stay', async () => {
    db.attempt = attemptInProgress({}, 25);
    const { user } = renderStudentApp(`/assessment/${TOKEN}`);
    await screen.findByRole('heading', { level: 2, name: 'Technology' });
    await user.click(within(question('Do you have a computer at home')).getByRole('radio', { name: 'Yes' }));
    await user.click(within(question('How fast is your internet')).getByRole('radio', { name: 'Fast' }));
    await user.click(screen.getByRole('button', { name: 'Next Section' }));
    await screen.findByRole('heading', { level: 2, name: 'Study Habits' });
    await user.click(within(question('When do you study best')).getByRole('radio', { name: 'Evenings' }));
    const timer = screen.getByRole('timer', { name: 'Time remaining' });

    await user.selectOptions(languageSelect('Language'), 'fr');

    expect(await screen.findByRole('timer', { name: 'Temps restant' })).toBe(timer);
    expect(html()).toHaveAttribute('lang', 'fr');
    expect(html()).toHaveAttribute('dir', 'ltr');
    expect(languageSelect('Langue')).toHaveValue('fr');
    expect(screen.getByRole('heading', { level: 2, name: 'Habitudes d’étude' })).toBeInTheDocument();
    expect(screen.getByText('Section 2 sur 3')).toBeInTheDocument();
    expect(
      within(question('Quand étudiez-vous le mieux')).getByRole('radio', { name: 'Le soir' }),
    ).toBeChecked();
    await waitFor(() => expect(db.languagePuts).toEqual(['fr']));

    await user.click(screen.getByRole('button', { name: 'Section précédente' }));
    await screen.findByRole('heading', { level: 2, name: 'Technologie' });
    expect(
      within(question('Avez-vous un ordinateur à la maison')).getByRole('radio', { name: 'Oui' }),
    ).toBeChecked();
    expect(
      within(question('Quelle est la vitesse de votre connexion')).getByRole('radio', { name: 'Rapide' }),
    ).toBeChecked();
    // The answers changed before the switch reach the server all the same.
    await waitFor(
      () =>
        expect(db.attempt?.answers).toEqual(
          expect.arrayContaining([
            { questionId: 'q1', answer: 'yes' },
            { questionId: 'q2', answer: 'o2' },
            { questionId: 'q3', answer: 'o4' },
          ]),
        ),
      { timeout: 8000 },
    );
  });

  it('when the switch cannot reach the server, then the page changes language all the same and the switch is sent once back online', async () => {
    const { user } = renderStudentApp(`/assessment/${TOKEN}`);
    await screen.findByRole('button', { name: 'Start Assessment' });
    db.languageAnswer = 'offline';

    await user.selectOptions(languageSelect('Language'), 'es');

    expect(await screen.findByRole('button', { name: 'Comenzar la evaluación' })).toBeEnabled();
    expect(html()).toHaveAttribute('lang', 'es');
    expect(db.languagePuts).toEqual([]);
    db.languageAnswer = 'keep';
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(db.languagePuts).toEqual(['es']));
  });

  it('when the server refuses the switch, then the page keeps the chosen language and does not ask again', async () => {
    const refused: string[] = [];
    server.use(
      http.put('/api/student/{token}/language', async ({ request }) => {
        refused.push(((await request.json()) as { language: string }).language);
        return refusal(404, { message: 'Invalid or expired invitation link', code: 'not_found' });
      }),
    );
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderStudentApp(`/assessment/${TOKEN}`);
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Language' }), 'pt');
    expect(await screen.findByRole('button', { name: 'Iniciar a avaliação' })).toBeEnabled();
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(refused).toEqual(['pt']));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(refused).toEqual(['pt']);
    expect(error).toHaveBeenCalledWith('Language switch refused');
    error.mockRestore();
  });

  it('when the completion page is opened by itself, then it asks the server for the language and shows the result in it', async () => {
    db.language = 'es';
    db.results = [makeFailedResult()];
    renderStudentApp(`/assessment/${TOKEN}/complete`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Evaluación completada' }),
    ).toBeInTheDocument();
    expect(html()).toHaveAttribute('lang', 'es');
    expect(screen.getByText(`${seededFailedResult().percentage} %`)).toBeInTheDocument();
    expect(screen.getByText('Se requiere un 70 % para aprobar')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Repetir la evaluación' })).toBeInTheDocument();
  });
});
