import { TRANSLATION_LANGUAGES, type TranslationLanguage } from '@readiness/contracts';

/** A text in English with its translations, by language; a language without one is left out. */
export type Texts = { en: string } & Partial<Record<TranslationLanguage, string>>;

/**
 * Moodle's multi-language content (the "Multi-language content" filter): one `<span lang="xx" class="multilang">`
 * per language, side by side, of which Moodle shows the reader's. A text without translations is written as it is.
 */
export function toMultilang(texts: Texts, toHtml: (text: string) => string): string {
  const languages = TRANSLATION_LANGUAGES.filter((l) => texts[l]);
  if (languages.length === 0) return toHtml(texts.en);
  return (['en', ...languages] as const)
    .map((l) => `<span lang="${l}" class="multilang">${toHtml(texts[l] ?? '')}</span>`)
    .join('');
}

const isTranslation = (lang: string): lang is TranslationLanguage =>
  (TRANSLATION_LANGUAGES as readonly string[]).includes(lang);

/**
 * Multi-language HTML split by language: the English span (or, without one, the first, as Moodle shows it), and each
 * span in a language Readiness translates into. HTML without such spans is all English. Linear in the text: a span
 * left open runs to the end.
 */
export function fromMultilang(html: string): { en: string } & Partial<Record<TranslationLanguage, string>> {
  const spans = [...html.matchAll(/<span\b([^<>]*)>([\s\S]*?)(?:<\/span>|$)/gi)].flatMap((m) => {
    const attrs = m[1] ?? '';
    const lang = /\blang\s*=\s*["']?([a-zA-Z]{2})/.exec(attrs)?.[1]?.toLowerCase();
    return /\bmultilang\b/.test(attrs) && lang ? [{ lang, html: m[2] ?? '' }] : [];
  });
  if (spans.length === 0) return { en: html };
  const out: { en: string } & Partial<Record<TranslationLanguage, string>> = {
    en: (spans.find((s) => s.lang === 'en') ?? spans[0]!).html,
  };
  for (const s of spans) if (isTranslation(s.lang)) out[s.lang] ??= s.html;
  return out;
}
