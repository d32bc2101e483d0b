import { textDirection, type Language } from '../../i18n/languages';
import type {
  ContentTranslations,
  PracticeQuestion,
  QuestionFile,
  StudentAssessment,
  StudentQuestion,
} from './api/types';

/*
 * The assessment's own words in the student's language: a version's texts are English, and it may
 * carry translations of them (`translations`, by language, each text by the id of what it belongs to). A text the
 * language leaves out, or leaves empty, shows in English and says so, so that a screen reader reads it as English.
 * A question's file to download may also be given per language (else the English file, marked so too).
 * Only words and files change: ids, order and answers are the version's, so switching language changes nothing
 * else.
 */

/** A text of the assessment as the page shows it: its words and the language they are in. */
export interface Localized {
  text: string;
  lang: Language;
}

/** An answer a choice question offers (an option, or Yes / No), in the language it shows in. */
export interface LocalizedChoice extends Localized {
  id: string;
}

export interface LocalizedSection {
  title: Localized;
  description: Localized;
}

/** A question's file to download, in the language it is in: the language's own file, else the English one. */
export interface LocalizedFile {
  file: QuestionFile;
  lang: Language;
}

export interface LocalizedQuestion {
  question: Localized;
  /** The question's options in its own order (an attempt's paper may have shuffled them). */
  options: LocalizedChoice[];
  fileInstructions: Localized;
  /** The file the question offers to download; absent when it offers none. */
  downloadableFile?: LocalizedFile;
}

export interface LocalizedPractice {
  question: Localized;
  options: LocalizedChoice[];
}

/** The attributes of an element that holds a text: its `lang` and `dir` when its language is not the page's. */
export interface LanguageMarks {
  lang?: Language;
  dir: 'auto' | 'ltr' | 'rtl';
}

/** The assessment's texts in one language, each looked up by what it belongs to. */
export interface AssessmentContent {
  /** The language asked for: the page's. */
  language: Language;
  title: Localized;
  description: Localized;
  section(section: { id: number; title: string; description?: string }): LocalizedSection;
  question(
    question: Pick<StudentQuestion, 'id' | 'question' | 'options' | 'fileInstructions'> &
      Partial<Pick<StudentQuestion, 'hasDownloadableFile' | 'downloadableFile'>>,
  ): LocalizedQuestion;
  practice(practice: Pick<PracticeQuestion, 'question' | 'options'>): LocalizedPractice;
  /** How an element holding `text` is marked on this page (see `languageMarks`). */
  mark(text: Localized): LanguageMarks;
}

/** What the texts are read from: the version as served; `translations` is absent from an older service. */
export type ContentSource = Pick<StudentAssessment, 'title' | 'description'> & {
  translations?: ContentTranslations | null;
};

/** The translation when there is one (not empty), else the English text, each with its language. */
export function textOf(
  english: string | undefined,
  translated: string | undefined,
  language: Language,
): Localized {
  return translated?.trim() ? { text: translated, lang: language } : { text: english ?? '', lang: 'en' };
}

type TranslatedFile = NonNullable<
  NonNullable<NonNullable<ContentTranslations['es']>['questions']>[string]['downloadableFile']
>;

/**
 * The question's file in `language` when the version gives one (a question offering a file at all), else the
 * English file. Both download from where the service says (a translated file from an older service without a
 * url, from where every question file is served).
 */
export function fileOf(
  english: QuestionFile | undefined,
  translated: TranslatedFile | undefined,
  language: Language,
): LocalizedFile | undefined {
  if (!english) return undefined;
  if (!translated?.filename) return { file: english, lang: 'en' };
  return {
    file: {
      originalName: translated.originalName,
      filename: translated.filename,
      size: translated.size,
      mimetype: translated.mimetype ?? '',
      url: translated.url ?? `/api/assessment/files/${encodeURIComponent(translated.filename)}`,
    },
    lang: language,
  };
}

/**
 * A text in the page's language keeps `dir="auto"` (its words decide, as any text a person wrote); a text in another
 * language is marked with it, and with its direction: English on an Arabic page reads left to right.
 */
export function languageMarks(text: Localized, page: Language): LanguageMarks {
  return text.lang === page ? { dir: 'auto' } : { lang: text.lang, dir: textDirection(text.lang) };
}

/** The assessment's texts in `language`: translated where the version gives a translation, English elsewhere. */
export function assessmentContent(assessment: ContentSource, language: Language): AssessmentContent {
  const texts = language === 'en' ? undefined : assessment.translations?.[language];
  const options = (
    choices: Array<{ id: string; text: string }>,
    translated: Record<string, string> | undefined,
  ): LocalizedChoice[] => choices.map((o) => ({ id: o.id, ...textOf(o.text, translated?.[o.id], language) }));
  return {
    language,
    title: textOf(assessment.title, texts?.title, language),
    description: textOf(assessment.description, texts?.description, language),
    section: (section) => {
      const own = texts?.sections?.[String(section.id)];
      return {
        title: textOf(section.title, own?.title, language),
        description: textOf(section.description, own?.description, language),
      };
    },
    question: (question) => {
      const own = texts?.questions?.[question.id];
      return {
        question: textOf(question.question, own?.question, language),
        options: options(question.options, own?.options),
        fileInstructions: textOf(question.fileInstructions, own?.fileInstructions, language),
        downloadableFile:
          question.hasDownloadableFile === false
            ? undefined
            : fileOf(question.downloadableFile, own?.downloadableFile, language),
      };
    },
    practice: (practice) => ({
      question: textOf(practice.question, texts?.practiceQuestion?.question, language),
      options: options(practice.options, texts?.practiceQuestion?.options),
    }),
    mark: (text) => languageMarks(text, language),
  };
}
