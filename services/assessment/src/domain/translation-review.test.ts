import type { AssessmentContent } from './assessment';
import { outdatedTranslations, translationSources } from './translation-review';

const content = (
  question: string,
  file = 'guide-1.pdf',
  es = '¿Tiene una computadora?',
): AssessmentContent => ({
  title: 'Readiness',
  description: '',
  timeLimit: 20,
  passingScore: 70,
  sections: [{ id: 1, title: 'Technology', description: '' }],
  questions: [
    {
      id: 'q1',
      type: 'yes_no',
      question,
      section: 1,
      points: 1,
      required: true,
      correctAnswer: 'yes',
      hasDownloadableFile: true,
      downloadableFile: { originalName: 'guide.pdf', filename: file, size: 10 },
    },
  ],
  shuffleQuestions: false,
  shuffleOptions: false,
  practiceQuestion: null,
  translations: {
    es: {
      title: 'Preparación',
      questions: {
        q1: { question: es, downloadableFile: { originalName: 'guia.pdf', filename: 'guia-1.pdf', size: 9 } },
      },
    },
  },
});

/** A version saved from `next` over `previous` (or first), as the save stores it. */
const savedOver = (
  next: AssessmentContent,
  previous?: ReturnType<typeof version>,
  reviewed?: Parameters<typeof translationSources>[2],
) => version(next, translationSources(next, previous, reviewed));
const version = (c: AssessmentContent, sources: ReturnType<typeof translationSources>) => ({
  content: c,
  sources,
});

describe('outdated translations', () => {
  it('when a translation is written with its English, then it is current', () => {
    const v1 = savedOver(content('Do you own a computer?'));
    expect(outdatedTranslations(v1.content, v1.sources)).toEqual({});
  });

  it('when the English changes and the translation stays, then the translation is outdated, in every later save too', () => {
    const v1 = savedOver(content('Do you own a computer?'));
    const v2 = savedOver(content('Do you own a laptop?'), v1);
    expect(outdatedTranslations(v2.content, v2.sources)).toEqual({ es: [['questions', 'q1', 'question']] });
    const v3 = savedOver(content('Do you own a laptop?'), v2);
    expect(outdatedTranslations(v3.content, v3.sources)).toEqual({ es: [['questions', 'q1', 'question']] });
  });

  it('when the outdated translation is changed or marked reviewed, then it is current again', () => {
    const v1 = savedOver(content('Do you own a computer?'));
    const v2 = savedOver(content('Do you own a laptop?'), v1);
    const rewritten = savedOver(content('Do you own a laptop?', 'guide-1.pdf', '¿Tiene un portátil?'), v2);
    expect(outdatedTranslations(rewritten.content, rewritten.sources)).toEqual({});
    const confirmed = savedOver(content('Do you own a laptop?'), v2, {
      es: [['questions', 'q1', 'question']],
    });
    expect(outdatedTranslations(confirmed.content, confirmed.sources)).toEqual({});
  });

  it("when the English file is replaced, then the language's own file is outdated", () => {
    const v1 = savedOver(content('Do you own a computer?'));
    const v2 = savedOver(content('Do you own a computer?', 'guide-2.pdf'), v1);
    expect(outdatedTranslations(v2.content, v2.sources)).toEqual({
      es: [['questions', 'q1', 'downloadableFile']],
    });
  });

  it('when a version kept no sources (saved before they were), then its translations are current, and outdated once the English changes', () => {
    const old = version(content('Do you own a computer?'), {});
    expect(outdatedTranslations(old.content, old.sources)).toEqual({});
    const next = savedOver(content('Do you own a laptop?'), old);
    expect(outdatedTranslations(next.content, next.sources)).toEqual({
      es: [['questions', 'q1', 'question']],
    });
  });

  it('when a text the language does not translate is marked reviewed, then the save is refused naming it', () => {
    expect(() => savedOver(content('Q'), undefined, { es: [['description']] })).toThrow(
      'Spanish translation: description is not translated, so it cannot be marked reviewed',
    );
  });
});
