import { setupI18n, type I18n, type Messages } from '@lingui/core';
import { loadCatalogue } from './catalogues';
import { INTL_LOCALES, type Language } from './languages';
import en, { type MessageId } from './locales/en';

/** A message of the catalogue by id, with its values: the text in the active language. */
export type Translate = (id: MessageId, values?: Record<string, unknown>) => string;

/** The student pages' Lingui instance, English active: the English catalogue is part of the pages. */
export function createStudentI18n(): I18n {
  const i18n = setupI18n();
  i18n.load('en', en as Messages);
  i18n.activate('en', INTL_LOCALES.en);
  return i18n;
}

/** The language each instance was last asked for: a slower download asked for earlier does not win. */
const wanted = new WeakMap<I18n, Language>();
/** The instances a page has chosen a language for: until then English is only the default. */
const decided = new WeakSet<I18n>();
/** The catalogues each instance has been given besides English. */
const given = new WeakMap<I18n, Set<Language>>();

/**
 * Makes `language` the active one once its catalogue is there (downloaded on first use). Rejects when the catalogue
 * cannot be downloaded: the page stays in the language it had.
 */
export async function activateLanguage(i18n: I18n, language: Language): Promise<void> {
  wanted.set(i18n, language);
  decided.add(i18n);
  const has = given.get(i18n) ?? new Set<Language>(['en']);
  given.set(i18n, has);
  if (!has.has(language)) {
    const messages = await loadCatalogue(language as Exclude<Language, 'en'>);
    i18n.load(language, messages);
    has.add(language);
  }
  if (wanted.get(i18n) === language && i18n.locale !== language) {
    i18n.activate(language, INTL_LOCALES[language]);
  }
}

/** A translate function on `i18n`, typed by the catalogue's ids. */
export const translator =
  (i18n: I18n): Translate =>
  (id, values) =>
    i18n._(id, values);

/** Whether a page has chosen the language yet (the student's, the visitor's), or English is still only the default. */
export const languageDecided = (i18n: I18n) => decided.has(i18n);
