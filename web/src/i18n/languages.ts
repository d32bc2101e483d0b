/*
 * The languages a student can read the pages in, English first: the same five the server keeps on the
 * student and the attempt (`language` of GET /api/student/{token}/assessment). Each is shown by its own name.
 */
export const LANGUAGES = ['en', 'es', 'fr', 'pt', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];

export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  pt: 'Português',
  ar: 'العربية',
};

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

export const textDirection = (language: Language): 'rtl' | 'ltr' => (language === 'ar' ? 'rtl' : 'ltr');

/**
 * The locales `Intl` formats a language's dates, numbers and plurals with. Arabic keeps Western digits (`nu-latn`),
 * as the countdown, the codes and the scores do, so that one page never mixes two sets of digits.
 */
export const INTL_LOCALES: Record<Language, string[]> = {
  en: ['en-US'],
  es: ['es'],
  fr: ['fr'],
  pt: ['pt'],
  ar: ['ar-u-nu-latn'],
};

/**
 * The first supported language in the visitor's preference order (`navigator.languages`): 'pt-BR' is Portuguese,
 * 'ar-EG' Arabic; English when none is.
 */
export function negotiateLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}
