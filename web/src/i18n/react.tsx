import { useCallback, useLayoutEffect, useState, type ReactElement, type ReactNode } from 'react';
import { I18nProvider, Trans, useLingui } from '@lingui/react';
import { activateLanguage, createStudentI18n, type Translate } from './i18n';
import { textDirection, type Language } from './languages';
import type { MessageId } from './locales/en';

/**
 * The student pages' words: English until a page activates the student's language. The document's
 * `lang`, `dir` and title follow the active language, so that right-to-left mirrors the whole page.
 */
export function LanguageProvider({ children }: { children: ReactNode }) {
  const [i18n] = useState(createStudentI18n);
  return (
    <I18nProvider i18n={i18n}>
      <DocumentLanguage />
      {children}
    </I18nProvider>
  );
}

function DocumentLanguage() {
  const { i18n } = useLingui();
  const t = useT();
  const language = i18n.locale as Language;
  useLayoutEffect(() => {
    const html = document.documentElement;
    html.lang = language;
    html.dir = textDirection(language);
    document.title = t('app.title');
  }, [language, t]);
  return null;
}

/** The catalogue's text by id in the active language; a component that uses it follows a change of language. */
export function useT(): Translate {
  return useLingui()._ as Translate;
}

/** The active language, and a way to change it (after its catalogue has downloaded). */
export function useLanguage() {
  const { i18n } = useLingui();
  const setLanguage = useCallback((language: Language) => activateLanguage(i18n, language), [i18n]);
  return {
    language: i18n.locale as Language,
    direction: textDirection(i18n.locale as Language),
    setLanguage,
  };
}

/** The active locale's `Intl` formatting (dates, numbers, lists), with Lingui's instance. */
export function useI18n() {
  return useLingui().i18n;
}

/**
 * A message whose words wrap elements: `<0>…</0>` in the catalogue is `components[0]` with those words inside it.
 */
export function T(props: {
  id: MessageId;
  values?: Record<string, unknown>;
  components?: Record<string, ReactElement>;
}) {
  return <Trans {...props} />;
}
