import { attemptAssessment } from '../paper';
import { practiceFeedback } from '../components/practice-question';
import { assessmentContent, languageMarks, textOf } from '../content';
import { assessment, attemptInProgress, practiceQuestion, served, translations } from './student-server';

const question = (id: string) => assessment.questions.find((q) => q.id === id)!;
const section = (id: number) => assessment.sections.find((s) => s.id === id)!;

describe("The assessment's texts in the student's language", () => {
  it('when a text has a translation, then it is the text, in that language', () => {
    expect(textOf('Technology', 'Technologie', 'fr')).toEqual({ text: 'Technologie', lang: 'fr' });
  });

  it('when a text has no translation, or an empty one, then the English text stands, marked English', () => {
    expect(textOf('Technology', undefined, 'ar')).toEqual({ text: 'Technology', lang: 'en' });
    expect(textOf('Technology', '', 'ar')).toEqual({ text: 'Technology', lang: 'en' });
    expect(textOf('Technology', '  ', 'ar')).toEqual({ text: 'Technology', lang: 'en' });
    expect(textOf(undefined, undefined, 'ar')).toEqual({ text: '', lang: 'en' });
  });

  it('when the version is translated into the language, then every text of it comes in that language', () => {
    const content = assessmentContent(assessment, 'fr');
    expect(content.language).toBe('fr');
    expect(content.title).toEqual({ text: 'Préparation à l’apprentissage en ligne', lang: 'fr' });
    expect(content.description).toEqual({ text: 'Êtes-vous prêt à étudier à distance ?', lang: 'fr' });
    expect(content.section(section(1))).toEqual({
      title: { text: 'Technologie', lang: 'fr' },
      description: { text: 'Vos appareils et votre connexion.', lang: 'fr' },
    });
    expect(content.question(question('q2'))).toEqual({
      question: { text: 'Quelle est la vitesse de votre connexion internet ?', lang: 'fr' },
      options: [
        { id: 'o1', text: 'Lente', lang: 'fr' },
        { id: 'o2', text: 'Rapide', lang: 'fr' },
      ],
      // English has none: nothing to show in either language.
      fileInstructions: { text: '', lang: 'en' },
    });
    expect(content.question(question('q4')).fileInstructions).toEqual({
      text: 'Remplissez le modèle et téléversez-le.',
      lang: 'fr',
    });
    expect(content.practice(practiceQuestion)).toEqual({
      question: { text: 'Quelle planète est la plus proche du Soleil ?', lang: 'fr' },
      options: [
        { id: 'p1', text: 'Vénus', lang: 'fr' },
        { id: 'p2', text: 'Mercure', lang: 'fr' },
        { id: 'p3', text: 'Mars', lang: 'fr' },
      ],
    });
  });

  it('when a translation leaves texts out or empty, then those are the English ones, marked English, text by text', () => {
    const content = assessmentContent(assessment, 'ar');
    expect(content.title).toEqual({ text: 'الاستعداد للتعلم عبر الإنترنت', lang: 'ar' });
    expect(content.section(section(2))).toEqual({
      title: { text: 'عادات الدراسة', lang: 'ar' },
      description: { text: 'How you organise your learning.', lang: 'en' },
    });
    // Option o2 is empty in Arabic; question q3 has no Arabic at all.
    expect(content.question(question('q2')).options).toEqual([
      { id: 'o1', text: 'بطيء', lang: 'ar' },
      { id: 'o2', text: 'Fast', lang: 'en' },
    ]);
    expect(content.question(question('q3'))).toEqual({
      question: { text: 'When do you study best?', lang: 'en' },
      options: [
        { id: 'o3', text: 'Mornings', lang: 'en' },
        { id: 'o4', text: 'Evenings', lang: 'en' },
      ],
      fileInstructions: { text: '', lang: 'en' },
    });
    // Spanish gives section 1's title, and an empty description.
    expect(assessmentContent(assessment, 'es').section(section(1))).toEqual({
      title: { text: 'Tecnología', lang: 'es' },
      description: { text: 'Your devices and connection.', lang: 'en' },
    });
  });

  it('when there are no translations (an older service), none for the language, or the page is English, then every text is English', () => {
    const english = {
      title: { text: 'Online Learning Readiness', lang: 'en' },
      section: {
        title: { text: 'Technology', lang: 'en' },
        description: { text: 'Your devices and connection.', lang: 'en' },
      },
      question: { text: 'Do you have a computer at home?', lang: 'en' },
    };
    const older = { title: assessment.title, description: assessment.description };
    for (const [source, language] of [
      [older, 'ar'],
      [{ ...assessment, translations: {} }, 'fr'],
      [{ ...assessment, translations: null }, 'es'],
      [assessment, 'pt'],
      [assessment, 'en'],
    ] as const) {
      const content = assessmentContent(source, language);
      expect(content.title).toEqual(english.title);
      expect(content.section(section(1))).toEqual(english.section);
      expect(content.question(question('q1')).question).toEqual(english.question);
    }
  });

  it("when an attempt's paper shuffled the options, then the texts follow its order and the ids stay the answers", () => {
    const attempt = attemptInProgress({ paper: { questionIds: ['q2'], options: { q2: ['o2', 'o1'] } } });
    const shuffled = attemptAssessment(served(assessment, attempt), attempt.paper).questions[0]!;
    expect(assessmentContent(assessment, 'fr').question(shuffled).options).toEqual([
      { id: 'o2', text: 'Rapide', lang: 'fr' },
      { id: 'o1', text: 'Lente', lang: 'fr' },
    ]);
  });

  it("when a text is not in the page's language, then its element is marked with its language and direction", () => {
    expect(languageMarks({ text: 'التقنية', lang: 'ar' }, 'ar')).toEqual({ dir: 'auto' });
    expect(languageMarks({ text: 'Technology', lang: 'en' }, 'en')).toEqual({ dir: 'auto' });
    expect(languageMarks({ text: 'Technology', lang: 'en' }, 'ar')).toEqual({ lang: 'en', dir: 'ltr' });
    expect(languageMarks({ text: 'Technology', lang: 'en' }, 'fr')).toEqual({ lang: 'en', dir: 'ltr' });
    expect(assessmentContent(assessment, 'ar').mark({ text: 'Fast', lang: 'en' })).toEqual({
      lang: 'en',
      dir: 'ltr',
    });
  });

  it('when a practice answer is checked wrong, then the feedback names the right option in the words the page shows', () => {
    const choices = assessmentContent(assessment, 'ar').practice(practiceQuestion).options;
    expect(practiceFeedback(choices, 'p2', 'p1')).toEqual({
      right: false,
      answer: { id: 'p2', text: 'عطارد', lang: 'ar' },
    });
    expect(practiceFeedback(choices, 'p2', 'p2')).toEqual({ right: true });
    expect(translations.ar?.practiceQuestion?.options?.p2).toBe('عطارد');
  });
});
