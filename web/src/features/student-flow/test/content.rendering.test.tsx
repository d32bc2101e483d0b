import { screen, waitFor, within } from '@testing-library/react';
import { renderStudentApp } from '../../../testing/render-student';
import {
  attemptAnswered,
  attemptInProgress,
  db,
  practiceQuestion,
  TOKEN,
  translations,
  useStudentServer,
} from './student-server';

useStudentServer();

const question = (text: string) => screen.getByRole('group', { name: new RegExp(text) });
/** The element that holds a text: where its `lang` and `dir` are. */
const holder = (text: string, container: HTMLElement = document.body) => within(container).getByText(text);

describe("The assessment's content in the student's language", () => {
  it('when an Arabic student opens the welcome page, then the title, description, sections and practice question are Arabic, and its feedback quotes the Arabic answer', async () => {
    db.language = 'ar';
    db.assessment = { ...db.assessment, practiceQuestion };
    const { user } = renderStudentApp(`/assessment/${TOKEN}`);
    const title = await screen.findByRole('heading', { level: 2, name: 'الاستعداد للتعلم عبر الإنترنت' });
    expect(title).not.toHaveAttribute('lang');
    expect(title).toHaveAttribute('dir', 'auto');
    expect(screen.getByText('ما مدى استعدادك للدراسة عن بُعد؟')).toBeInTheDocument();
    const sections = within(screen.getByRole('region', { name: 'الاستعداد للتعلم عبر الإنترنت' }))
      .getAllByRole('listitem')
      .map((li) => li.firstElementChild!.textContent);
    expect(sections).toEqual(['القسم 1: التقنية', 'القسم 2: عادات الدراسة', 'القسم 3: الدافعية']);

    const practice = screen.getByRole('region', { name: 'سؤال تدريبي للتجربة' });
    const group = within(practice).getByRole('group', { name: 'ما أقرب كوكب إلى الشمس؟' });
    expect(
      within(group)
        .getAllByRole('radio')
        .map((r) => r.closest('label')!.textContent),
    ).toEqual(['الزهرة', 'عطارد', 'المريخ']);
    await user.click(within(group).getByRole('radio', { name: 'الزهرة' }));
    await user.click(within(practice).getByRole('button', { name: 'التحقق من الإجابة' }));
    expect(within(practice).getByRole('status')).toHaveTextContent(
      /^ليس تمامًا\. الإجابة الصحيحة هي: عطارد\.$/,
    );
  });

  it('when the language has no translation, then the welcome page shows the English texts marked English', async () => {
    db.language = 'pt';
    renderStudentApp(`/assessment/${TOKEN}`);
    const title = await screen.findByRole('heading', { level: 2, name: 'Online Learning Readiness' });
    expect(title).toHaveAttribute('lang', 'en');
    expect(title).toHaveAttribute('dir', 'ltr');
    expect(holder('How ready are you to study at a distance?')).toHaveAttribute('lang', 'en');
    expect(holder('Technology')).toHaveAttribute('lang', 'en');
    expect(screen.getByRole('button', { name: 'Iniciar a avaliação' })).toBeEnabled();
  });

  it('when an Arabic student takes the test, then translated questions and options are Arabic, and what is untranslated is English, marked lang="en" and left to right', async () => {
    db.language = 'ar';
    db.attempt = attemptInProgress({}, 25);
    const { user } = renderStudentApp(`/assessment/${TOKEN}`);
    const heading = await screen.findByRole('heading', { level: 2, name: 'التقنية' });
    expect(heading).not.toHaveAttribute('lang');
    expect(screen.getByText('أجهزتك واتصالك.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'القسم 1: التقنية' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'القسم 2: عادات الدراسة' })).toBeInTheDocument();

    const computer = question('هل لديك حاسوب في المنزل؟');
    expect(
      within(computer)
        .getAllByRole('radio')
        .map((r) => r.closest('label')!.textContent),
    ).toEqual(['نعم', 'لا']);
    const connection = question('ما سرعة اتصالك بالإنترنت؟');
    expect(
      within(connection)
        .getAllByRole('radio')
        .map((r) => r.closest('label')!.textContent),
    ).toEqual(['بطيء', 'Fast']);
    // Option o2 is empty in Arabic: English, and said so.
    expect(holder('بطيء', connection)).not.toHaveAttribute('lang');
    expect(holder('Fast', connection)).toHaveAttribute('lang', 'en');
    expect(holder('Fast', connection)).toHaveAttribute('dir', 'ltr');

    await user.click(within(computer).getByRole('radio', { name: 'نعم' }));
    await user.click(screen.getByRole('button', { name: 'القسم التالي' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'عادات الدراسة' })).toBeInTheDocument();
    // Section 2's description and question q3 have no Arabic.
    expect(holder('How you organise your learning.')).toHaveAttribute('lang', 'en');
    const study = question('When do you study best\\?');
    expect(holder('When do you study best?', study)).toHaveAttribute('lang', 'en');
    expect(holder('When do you study best?', study)).toHaveAttribute('dir', 'ltr');
    expect(holder('Mornings', study)).toHaveAttribute('lang', 'en');
    expect(holder('Evenings', study)).toHaveAttribute('lang', 'en');
    const plan = question('ارفع خطتك الدراسية الأسبوعية');
    expect(holder('املأ النموذج ثم ارفعه.', plan)).not.toHaveAttribute('lang');
    // The answer is the option's id, whatever the words it showed in.
    await waitFor(() => expect(db.attempt?.answers).toEqual([{ questionId: 'q1', answer: 'yes' }]), {
      timeout: 8000,
    });
  });

  it('when the student switches from Arabic to French mid-test, then the texts change at once and the chosen answer stays', async () => {
    db.language = 'ar';
    db.attempt = attemptInProgress({}, 25);
    const { user } = renderStudentApp(`/assessment/${TOKEN}`);
    await screen.findByRole('heading', { level: 2, name: 'التقنية' });
    await user.click(within(question('ما سرعة اتصالك بالإنترنت؟')).getByRole('radio', { name: 'بطيء' }));

    await user.selectOptions(screen.getByRole('combobox', { name: 'اللغة' }), 'fr');

    expect(await screen.findByRole('heading', { level: 2, name: 'Technologie' })).toBeInTheDocument();
    expect(screen.getByText('Vos appareils et votre connexion.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Section 1\s:\sTechnologie$/ })).toBeInTheDocument();
    const connection = question('Quelle est la vitesse de votre connexion internet \\?');
    const chosen = within(connection).getByRole('radio', { name: 'Lente' });
    expect(chosen).toBeChecked();
    expect(chosen).toHaveAttribute('value', 'o1');
    expect(within(connection).getByRole('radio', { name: 'Rapide' })).not.toBeChecked();
    // French translates everything here: nothing is marked as another language.
    expect(
      document.querySelectorAll('.test__section [lang], .test__questions [lang], .section-nav [lang]'),
    ).toHaveLength(0);
    expect(screen.queryByText('بطيء')).not.toBeInTheDocument();
    await waitFor(() => expect(db.attempt?.answers).toEqual([{ questionId: 'q2', answer: 'o1' }]), {
      timeout: 8000,
    });
  });

  it("when the student's submit dialog opens, then its close button is named in the student's language", async () => {
    db.language = 'ar';
    db.attempt = attemptAnswered();
    const { user } = renderStudentApp(`/assessment/${TOKEN}`);
    await screen.findByRole('heading', { level: 2, name: 'الدافعية' });
    await user.click(screen.getByRole('button', { name: 'إرسال التقييم' }));
    const dialog = await screen.findByRole('dialog', { name: 'إرسال التقييم الآن؟' });
    expect(within(dialog).getByRole('button', { name: 'إغلاق' })).toBeEnabled();
    expect(within(dialog).queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
  });

  it('when a section title has no translation, then its phone dropdown option is marked lang="en" as its tab is, and one in the page’s language is not', async () => {
    db.language = 'es';
    db.attempt = attemptInProgress({}, 25);
    renderStudentApp(`/assessment/${TOKEN}`);
    await screen.findByRole('heading', { level: 2, name: 'Tecnología' });
    const dropdown = screen.getByRole('combobox', { name: 'Sección' });
    const translated = within(dropdown).getByRole('option', { name: 'Sección 1: Tecnología' });
    expect(translated).not.toHaveAttribute('lang');
    for (const name of ['Sección 2: Study Habits', 'Sección 3: Motivation']) {
      expect(within(dropdown).getByRole('option', { name })).toHaveAttribute('lang', 'en');
    }
    expect(
      holder('Study Habits', screen.getByRole('button', { name: 'Sección 2: Study Habits' })),
    ).toHaveAttribute('lang', 'en');
  });

  it('when an Arabic page shows a section title in English, then its option is marked lang="en" and the title set apart in its own direction', async () => {
    db.language = 'ar';
    db.assessment = {
      ...db.assessment,
      translations: {
        ...translations,
        ar: { ...translations.ar, sections: { ...translations.ar?.sections, '3': { title: ' ' } } },
      },
    };
    db.attempt = attemptInProgress({}, 25);
    renderStudentApp(`/assessment/${TOKEN}`);
    await screen.findByRole('heading', { level: 2, name: 'التقنية' });
    const dropdown = screen.getByRole('combobox', { name: 'القسم' });
    expect(within(dropdown).getByRole('option', { name: 'القسم 2: عادات الدراسة' })).not.toHaveAttribute(
      'lang',
    );
    const english = within(dropdown).getByRole('option', { name: 'القسم 3: \u2068Motivation\u2069' });
    expect(english).toHaveAttribute('lang', 'en');
    expect(english).toHaveAttribute('value', '2');
  });
});
