import { createHash } from 'node:crypto';
import { badRequest } from '@readiness/kit/errors';
import { TRANSLATION_LANGUAGES, type TranslationLanguage } from '@readiness/contracts';
import type { AssessmentContent } from './assessment';
import { LANGUAGE_NAMES } from './translations';

/** Where a text sits in one language's translation, e.g. `['questions', 'q2', 'options', 'o1']`. */
export type TextPath = string[];

/**
 * What each translated text was written against: per language, the same tree as its translation with each text
 * (and a question's file) replaced by a hash of the English it translated then. A text without one (translations
 * saved before it was kept) was written against the English of its own version.
 */
export type TranslationSources = Partial<Record<TranslationLanguage, Tree>>;

/** The translated texts whose English changed since they were written, by language: each text's path. */
export type OutdatedTranslations = Partial<Record<TranslationLanguage, TextPath[]>>;

type Tree = { [key: string]: Tree | string };

/** A short hash of an English text: enough to tell that it changed, not to read it back. */
const englishHash = (english: string) => createHash('sha256').update(english).digest('hex').slice(0, 16);

/** Every English text a translation may give, by path (a question's file as its stored name). */
function englishTexts(content: AssessmentContent): Map<string, string> {
  const out = new Map<string, string>();
  const add = (path: TextPath, text: string | undefined) => {
    if (text !== undefined) out.set(JSON.stringify(path), text);
  };
  add(['title'], content.title);
  add(['description'], content.description);
  const practice = content.practiceQuestion;
  if (practice) {
    add(['practiceQuestion', 'question'], practice.question);
    for (const o of practice.options) add(['practiceQuestion', 'options', o.id], o.text);
  }
  for (const s of content.sections) {
    add(['sections', String(s.id), 'title'], s.title);
    add(['sections', String(s.id), 'description'], s.description);
  }
  for (const q of content.questions) {
    add(['questions', q.id, 'question'], q.question);
    for (const o of q.options ?? []) add(['questions', q.id, 'options', o.id], o.text);
    add(['questions', q.id, 'fileInstructions'], q.fileInstructions ?? '');
    add(['questions', q.id, 'downloadableFile'], q.downloadableFile?.filename);
  }
  return out;
}

/** What one language gives, text by text: its texts, and a question's file as its stored name. */
function givenTexts(tree: unknown, path: TextPath = [], out = new Map<string, string>()) {
  if (typeof tree === 'string') out.set(JSON.stringify(path), tree);
  else if (tree && typeof tree === 'object') {
    const file = (tree as { filename?: unknown }).filename;
    if (path.at(-1) === 'downloadableFile' && typeof file === 'string') out.set(JSON.stringify(path), file);
    else for (const [key, value] of Object.entries(tree)) givenTexts(value, [...path, key], out);
  }
  return out;
}

function setIn(tree: Tree, [key, ...rest]: TextPath, value: string): void {
  if (key === undefined) return;
  if (rest.length === 0) {
    tree[key] = value;
    return;
  }
  const child = tree[key];
  const next = child && typeof child === 'object' ? child : (tree[key] = {});
  setIn(next, rest, value);
}

/** The English each text a version translates was written against, by path. */
function sourcesOf(
  version: { content: AssessmentContent; sources: TranslationSources },
  language: TranslationLanguage,
) {
  const english = englishTexts(version.content);
  const recorded = givenTexts(version.sources[language]);
  const out = new Map<string, string>();
  for (const key of givenTexts(version.content.translations[language]).keys()) {
    out.set(key, recorded.get(key) ?? englishHash(english.get(key) ?? ''));
  }
  return out;
}

/**
 * What a save's translations were written against. A text the editor wrote or changed, or marked as reviewed,
 * was written against the English it is saved with; a text the save leaves as the version it is based on had it
 * (`previous`) keeps what that one was written against, so changing the English alone leaves it outdated.
 * A reviewed path the language does not translate is a 400 naming it.
 */
export function translationSources(
  content: AssessmentContent,
  previous: { content: AssessmentContent; sources: TranslationSources } | undefined,
  reviewed: OutdatedTranslations = {},
): TranslationSources {
  const english = englishTexts(content);
  const out: TranslationSources = {};
  for (const language of TRANSLATION_LANGUAGES) {
    const given = givenTexts(content.translations[language]);
    const confirmed = new Set((reviewed[language] ?? []).map((path) => JSON.stringify(path)));
    for (const key of confirmed) {
      if (!given.has(key)) {
        throw badRequest(
          `${LANGUAGE_NAMES[language]} translation: ${(JSON.parse(key) as string[]).join('/')} is not translated, so it cannot be marked reviewed`,
        );
      }
    }
    if (given.size === 0) continue;
    const before = previous ? givenTexts(previous.content.translations[language]) : new Map();
    const wroteAgainst = previous ? sourcesOf(previous, language) : new Map<string, string>();
    const tree: Tree = {};
    for (const [key, text] of given) {
      const kept = before.get(key) === text && !confirmed.has(key) ? wroteAgainst.get(key) : undefined;
      setIn(tree, JSON.parse(key) as TextPath, kept ?? englishHash(english.get(key) ?? ''));
    }
    out[language] = tree;
  }
  return out;
}

/** The texts each language translates whose English changed since they were written, in the content's order. */
export function outdatedTranslations(
  content: AssessmentContent,
  sources: TranslationSources,
): OutdatedTranslations {
  const english = englishTexts(content);
  const out: OutdatedTranslations = {};
  for (const language of TRANSLATION_LANGUAGES) {
    const wroteAgainst = sourcesOf({ content, sources }, language);
    const outdated = [...english.keys()]
      .filter((key) => {
        const source = wroteAgainst.get(key);
        return source !== undefined && source !== englishHash(english.get(key)!);
      })
      .map((key) => JSON.parse(key) as TextPath);
    if (outdated.length) out[language] = outdated;
  }
  return out;
}
