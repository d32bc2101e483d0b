import type { Language } from '@readiness/contracts';
import { translations, type Catalogue } from '@readiness/kit/i18n';
import { ar } from './ar';
import { en, type MailMessage } from './en';
import { es } from './es';
import { fr } from './fr';
import { pt } from './pt';

export type { MailMessage } from './en';

/** A catalogue per language a student can read Readiness in: a language without one is a type error. */
export const MAIL_CATALOGUES: { en: typeof en } & Record<Language, Catalogue<MailMessage>> = {
  en,
  es,
  fr,
  pt,
  ar,
};

/** The student mails' words in a language (English for an empty or unknown one). */
export const mailTranslator = translations(MAIL_CATALOGUES);

export type MailTranslator = ReturnType<typeof mailTranslator>;
