import { adminT } from '../../../i18n/admin/admin-i18n';
import {
  TRANSLATION_LANGUAGES,
  type ContentTranslations,
  type TranslatedTexts,
  type TranslationLanguage,
} from './types';

/** One text a student reads, which a translation may give in its language. */
export interface TranslatableText {
  /** Where the text sits in one language's translation, e.g. `['questions', 'q2', 'options', 'o1']`. */
  path: string[];
  /** The version's own text. */
  english: string;
  /** How the editor names it, e.g. 'Question 2 option 1'. */
  label: string;
  /** What it belongs to, e.g. 'Question 2': the editor groups the texts by it. */
  group: string;
  /** A description or a question: several lines. */
  long: boolean;
  /**
   * A question's downloadable file rather than a text (`english` is the English file's name): a language gives its
   * own file at `path`, uploaded as the English one is.
   */
  file?: boolean;
}

type Choice = { id: string; text: string };

/** What the texts are read from: a version as served, or the edit form's values. */
interface Source {
  title: string;
  description: string;
  sections: Array<{ id: number; title: string; description: string }>;
  questions: Array<{
    id: string;
    type: string;
    question: string;
    options?: Choice[];
    fileInstructions?: string;
    hasDownloadableFile?: boolean;
    downloadableFile?: { originalName: string } | null;
  }>;
  practiceQuestion: { type: string; question: string; options: Choice[] } | null;
}

/**
 * Every text a student reads in the version, in the order the editor shows them: the title and description, the
 * practice question and its options, each section's title and description, each question's text, options and (a
 * file-upload question's) instructions, and the file a question offers to download. A text that is empty in English
 * has nothing to translate and is left out.
 * Questions are numbered as the editor numbers them.
 */
export function translatableTexts(content: Source): TranslatableText[] {
  const texts: TranslatableText[] = [];
  const add = (group: string, label: string, path: string[], english: string | undefined, long = false) => {
    if (english?.trim()) texts.push({ path, english, label, group, long });
  };
  const basic = adminT('translations.group.basic');
  add(basic, adminT('translations.label.title'), ['title'], content.title);
  add(basic, adminT('translations.label.description'), ['description'], content.description, true);
  const practice = content.practiceQuestion;
  if (practice) {
    add(
      adminT('translations.group.practice'),
      adminT('translations.label.practiceText'),
      ['practiceQuestion', 'question'],
      practice.question,
      true,
    );
    if (practice.type === 'multiple_choice') {
      practice.options.forEach((o, i) =>
        add(
          adminT('translations.group.practice'),
          adminT('translations.label.practiceOption', { n: i + 1 }),
          ['practiceQuestion', 'options', o.id],
          o.text,
        ),
      );
    }
  }
  for (const s of content.sections) {
    const group = adminT('translations.group.section', { id: s.id });
    add(
      group,
      adminT('translations.label.sectionTitle', { id: s.id }),
      ['sections', String(s.id), 'title'],
      s.title,
    );
    add(
      group,
      adminT('translations.label.sectionDescription', { id: s.id }),
      ['sections', String(s.id), 'description'],
      s.description,
      true,
    );
  }
  content.questions.forEach((q, index) => {
    const n = index + 1;
    const group = adminT('translations.group.question', { n });
    add(
      group,
      adminT('translations.label.questionText', { n }),
      ['questions', q.id, 'question'],
      q.question,
      true,
    );
    if (q.type === 'multiple_choice') {
      (q.options ?? []).forEach((o, i) =>
        add(
          group,
          adminT('translations.label.questionOption', { n, option: i + 1 }),
          ['questions', q.id, 'options', o.id],
          o.text,
        ),
      );
    }
    if (q.type === 'file_upload') {
      add(
        group,
        adminT('translations.label.fileInstructions', { n }),
        ['questions', q.id, 'fileInstructions'],
        q.fileInstructions,
        true,
      );
    }
    if (q.hasDownloadableFile && q.downloadableFile) {
      texts.push({
        path: ['questions', q.id, 'downloadableFile'],
        english: q.downloadableFile.originalName,
        label: adminT('translations.label.downloadableFile', { n }),
        group,
        long: false,
        file: true,
      });
    }
  });
  return texts;
}

/** A language's downloadable file of one question, as the form holds it. */
export type TranslatedFile = NonNullable<
  NonNullable<TranslatedTexts['questions']>[string]['downloadableFile']
>;

/** The file a translation gives at `path` (a question's `downloadableFile`), or undefined. */
export function fileIn(translation: TranslatedTexts | undefined, path: string[]): TranslatedFile | undefined {
  let at: unknown = translation;
  for (const key of path)
    at = at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
  const file = at as TranslatedFile | null | undefined;
  return file && typeof file === 'object' && file.filename ? file : undefined;
}

/** Whether a language gives this text (or file). */
const given = (translation: TranslatedTexts | undefined, t: TranslatableText) =>
  t.file ? Boolean(fileIn(translation, t.path)) : Boolean(textIn(translation, t.path).trim());

type Tree = { [key: string]: Tree | string | TranslatedFile | null | undefined };

/** The translation of one text, or '' when it has none. */
export function textIn(translation: TranslatedTexts | undefined, path: string[]): string {
  let at: unknown = translation;
  for (const key of path) at = at && typeof at === 'object' ? (at as Tree)[key] : undefined;
  return typeof at === 'string' ? at : '';
}

function setIn(tree: Tree, [key, ...rest]: string[], value: Tree[string]): Tree {
  if (key === undefined) return tree;
  if (rest.length === 0) return { ...tree, [key]: value };
  const child = tree[key];
  return { ...tree, [key]: setIn(child && typeof child === 'object' ? (child as Tree) : {}, rest, value) };
}

/** The translations with one text of one language changed (a new object: the form's value is replaced). */
export function withText(
  translations: ContentTranslations,
  language: TranslationLanguage,
  path: string[],
  value: string,
): ContentTranslations {
  return { ...translations, [language]: setIn((translations[language] ?? {}) as Tree, path, value) };
}

/**
 * The translations with one question's file of one language set (the uploaded file) or cleared (null); a new
 * object, as `withText`'s.
 */
export function withFile(
  translations: ContentTranslations,
  language: TranslationLanguage,
  path: string[],
  file: TranslatedFile | null,
): ContentTranslations {
  return { ...translations, [language]: setIn((translations[language] ?? {}) as Tree, path, file) };
}

/** The texts (and files) a language does not translate yet (empty counts as missing). */
export const missingTexts = (texts: TranslatableText[], translation: TranslatedTexts | undefined) =>
  texts.filter((t) => !given(translation, t));

/**
 * What a save sends: for each language, only the texts the version still has (a removed question's translation
 * goes with it, and a question's file once the question offers none), trimmed, without the empty ones; a language
 * with none is left out.
 */
export function translationsPayload(
  translations: ContentTranslations,
  texts: TranslatableText[],
): ContentTranslations {
  const out: ContentTranslations = {};
  for (const language of TRANSLATION_LANGUAGES) {
    let tree: Tree = {};
    for (const t of texts) {
      if (t.file) {
        const file = fileIn(translations[language], t.path);
        if (file) {
          const { originalName, filename, size } = file;
          tree = setIn(tree, t.path, { originalName, filename, size });
        }
        continue;
      }
      const value = textIn(translations[language], t.path).trim();
      if (value) tree = setIn(tree, t.path, value);
    }
    if (Object.keys(tree).length) out[language] = tree as TranslatedTexts;
  }
  return out;
}

/** Each language a version translates at least one text into, with how many of its texts are still missing. */
export function languagesPresent(translations: ContentTranslations, texts: TranslatableText[]) {
  return TRANSLATION_LANGUAGES.flatMap((language) => {
    const missing = missingTexts(texts, translations[language]).length;
    return missing < texts.length ? [{ language, missing }] : [];
  });
}

/** Texts by language, each named by its path: what a version says is outdated, and what the editor reviewed. */
export type TextPaths = Partial<Record<TranslationLanguage, string[][]>>;

const pathKey = (path: string[]) => JSON.stringify(path);

/** A language's translation of one text (or its file's stored name), '' when it gives none. */
const givenValue = (translation: TranslatedTexts | undefined, t: TranslatableText) =>
  t.file ? (fileIn(translation, t.path)?.filename ?? '') : textIn(translation, t.path).trim();

/** The version the edit started from: its texts, its translations and which of them it says are outdated. */
export interface LoadedContent {
  texts: TranslatableText[];
  translations: ContentTranslations;
  outdated: TextPaths;
}

/**
 * The texts a language translates whose English changed since the translation was written ('English changed —
 * review'): those the loaded version says are outdated, and those whose English this edit changes, as long as
 * the edit leaves their translation as it was loaded and the editor has not marked them reviewed. A translation
 * the edit writes or changes is written against the English it is saved with: current.
 */
export function outdatedTexts(
  texts: TranslatableText[],
  translations: ContentTranslations,
  language: TranslationLanguage,
  loaded: LoadedContent,
  reviewed: TextPaths,
): TranslatableText[] {
  const translation = translations[language];
  const before = loaded.translations[language];
  const englishBefore = new Map(loaded.texts.map((t) => [pathKey(t.path), t.english]));
  const flagged = new Set((loaded.outdated[language] ?? []).map(pathKey));
  const confirmed = new Set((reviewed[language] ?? []).map(pathKey));
  return texts.filter((t) => {
    const key = pathKey(t.path);
    const value = givenValue(translation, t);
    if (!value || value !== givenValue(before, t) || confirmed.has(key)) return false;
    return flagged.has(key) || englishBefore.get(key) !== t.english;
  });
}

/** The reviewed paths a save sends: only texts it still translates (a text emptied since needs no review). */
export function reviewedPayload(
  reviewed: TextPaths,
  translations: ContentTranslations,
  texts: TranslatableText[],
): TextPaths {
  const out: TextPaths = {};
  for (const language of TRANSLATION_LANGUAGES) {
    const given = new Set(
      texts.filter((t) => givenValue(translations[language], t)).map((t) => pathKey(t.path)),
    );
    const kept = (reviewed[language] ?? []).filter((path) => given.has(pathKey(path)));
    if (kept.length) out[language] = kept;
  }
  return out;
}
