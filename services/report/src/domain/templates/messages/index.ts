import type { Language } from '@readiness/contracts';
import { translations, type Catalogue } from '@readiness/kit/i18n';
import { ar } from './ar';
import { en, type CertificateMessage } from './en';
import { es } from './es';
import { fr } from './fr';
import { pt } from './pt';

/** A catalogue per language a student can read Readiness in: a language without one is a type error. */
export const CERTIFICATE_CATALOGUES: { en: typeof en } & Record<Language, Catalogue<CertificateMessage>> = {
  en,
  es,
  fr,
  pt,
  ar,
};

/** The certificate's words in a language (English for an unknown one), English dates as they always were. */
export const certificateTranslator = translations(CERTIFICATE_CATALOGUES, { locales: { en: 'en-GB' } });

export type CertificateTranslator = ReturnType<typeof certificateTranslator>;
