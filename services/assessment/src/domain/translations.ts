import { badRequest } from '@readiness/kit/errors';
import {
  TRANSLATION_LANGUAGES,
  type ContentTranslations,
  type TranslatedTexts,
  type TranslationLanguage,
} from '@readiness/contracts';
import type { AssessmentContent } from './assessment';

/** The longest each text may be, in English and in every translation alike. */
export const TEXT_LIMITS = {
  title: 200,
  description: 5000,
  sectionTitle: 200,
  sectionDescription: 2000,
  question: 2000,
  option: 500,
  fileInstructions: 2000,
} as const;

/** The languages' names in the service's messages. */
export const LANGUAGE_NAMES: Record<TranslationLanguage, string> = {
  es: 'Spanish',
  fr: 'French',
  pt: 'Portuguese',
  ar: 'Arabic',
};

type QuestionTexts = NonNullable<TranslatedTexts['questions']>[string];

/** A text trimmed, or undefined when nothing is left: an empty translation is a missing one. */
const given = (text: string | undefined) => text?.trim() || undefined;

/** The object without its undefined fields, or undefined when none is left. */
function kept<T extends object>(value: T): T | undefined {
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return entries.length ? (Object.fromEntries(entries) as T) : undefined;
}

/** A record of texts or objects, each normalized, without the ones left empty; undefined when none is left. */
function keptRecord<T>(record: Record<string, T> | undefined, each: (value: T) => T | undefined) {
  return kept(Object.fromEntries(Object.entries(record ?? {}).map(([id, v]) => [id, each(v)]))) as
    Record<string, T> | undefined;
}

/** A translated file as stored: the stored name, the admin's name for it and its size (no url, no type). */
const storedFile = (file: QuestionTexts['downloadableFile']) =>
  file && { originalName: file.originalName, filename: file.filename, size: file.size };

const questionTexts = (q: QuestionTexts): QuestionTexts | undefined =>
  kept({
    question: given(q.question),
    options: keptRecord(q.options, given),
    fileInstructions: given(q.fileInstructions),
    downloadableFile: storedFile(q.downloadableFile),
  });

/** Translations as stored: texts trimmed, and every empty text, object and language left out. */
export function normalizeTranslations(translations: ContentTranslations): ContentTranslations {
  const out: ContentTranslations = {};
  for (const language of TRANSLATION_LANGUAGES) {
    const t = translations[language];
    const texts =
      t &&
      kept({
        title: given(t.title),
        description: given(t.description),
        sections: keptRecord(t.sections, (s) =>
          kept({ title: given(s.title), description: given(s.description) }),
        ),
        questions: keptRecord(t.questions, questionTexts),
        practiceQuestion:
          t.practiceQuestion &&
          kept({
            question: given(t.practiceQuestion.question),
            options: keptRecord(t.practiceQuestion.options, given),
          }),
      });
    if (texts) out[language] = texts;
  }
  return out;
}

/** The stored names of the files the translations offer to download, every language's. */
export function translatedFileNames(translations: ContentTranslations): string[] {
  return TRANSLATION_LANGUAGES.flatMap((language) =>
    Object.values(translations[language]?.questions ?? {}).flatMap((q) =>
      q.downloadableFile ? [q.downloadableFile.filename] : [],
    ),
  );
}

/**
 * Each translation names only what the version has (its sections, questions, their options, a file-upload
 * question's instructions, a downloadable file's stand-in where the question offers one, the practice question)
 * and keeps each text within the English field's limit; a translated file must be one this service stored
 * (`isUploaded`). The first broken rule is a 400 naming the language and the text. Missing translations are
 * allowed.
 */
export function checkTranslations(
  content: AssessmentContent,
  isUploaded: (filename: string) => boolean = () => false,
): void {
  const sections = new Set(content.sections.map((s) => String(s.id)));
  const questions = new Map(content.questions.map((q) => [q.id, q]));
  for (const language of TRANSLATION_LANGUAGES) {
    const t = content.translations[language];
    if (!t) continue;
    const refuse = (message: string) => badRequest(`${LANGUAGE_NAMES[language]} translation: ${message}`);
    const limit = (text: string | undefined, max: number, what: string) => {
      if (text && text.length > max) throw refuse(`${what} must be at most ${max} characters`);
    };
    const options = (texts: Record<string, string> | undefined, known: { id: string }[], of: string) => {
      for (const [id, text] of Object.entries(texts ?? {})) {
        if (!known.some((o) => o.id === id)) throw refuse(`${of} has no option ${id}`);
        limit(text, TEXT_LIMITS.option, `the text of option ${id} of ${of}`);
      }
    };
    limit(t.title, TEXT_LIMITS.title, 'the title');
    limit(t.description, TEXT_LIMITS.description, 'the description');
    for (const [id, s] of Object.entries(t.sections ?? {})) {
      if (!sections.has(id)) throw refuse(`section ${id} does not exist`);
      limit(s.title, TEXT_LIMITS.sectionTitle, `the title of section ${id}`);
      limit(s.description, TEXT_LIMITS.sectionDescription, `the description of section ${id}`);
    }
    for (const [id, texts] of Object.entries(t.questions ?? {})) {
      const q = questions.get(id);
      if (!q) throw refuse(`question ${id} does not exist`);
      limit(texts.question, TEXT_LIMITS.question, `the text of question ${id}`);
      options(texts.options, q.options ?? [], `question ${id}`);
      if (texts.fileInstructions && q.type !== 'file_upload') {
        throw refuse(`question ${id} is not a file upload question, so it has no file instructions`);
      }
      limit(texts.fileInstructions, TEXT_LIMITS.fileInstructions, `the file instructions of question ${id}`);
      if (texts.downloadableFile) {
        if (!q.hasDownloadableFile || !q.downloadableFile) {
          throw refuse(`question ${id} offers no downloadable file, so it has no translated file`);
        }
        if (!isUploaded(texts.downloadableFile.filename)) {
          throw refuse(`the downloadable file of question ${id} must be a file uploaded first`);
        }
      }
    }
    if (t.practiceQuestion) {
      const practice = content.practiceQuestion;
      if (!practice) throw refuse('the version has no practice question');
      limit(t.practiceQuestion.question, TEXT_LIMITS.question, "the practice question's text");
      options(t.practiceQuestion.options, practice.options, 'the practice question');
    }
  }
}
