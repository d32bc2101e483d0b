import { useCallback, useEffect, useState } from 'react';
import { isLanguage, negotiateLanguage, type Language } from './languages';
import { useLanguage } from './react';

/** The language a visitor chose on a public student page (verification, a dead link), kept in this browser only. */
export const VISITOR_LANGUAGE_KEY = 'readiness.verify-language';

function chosenBefore(): Language | null {
  try {
    const kept = window.localStorage.getItem(VISITOR_LANGUAGE_KEY);
    return isLanguage(kept) ? kept : null;
  } catch {
    return null;
  }
}

function keep(language: Language): void {
  try {
    window.localStorage.setItem(VISITOR_LANGUAGE_KEY, language);
  } catch {
    // Without storage the choice lasts as long as the page.
  }
}

const browserLanguages = (): readonly string[] =>
  navigator.languages?.length ? navigator.languages : [navigator.language];

/**
 * The language of a student page that has no invitation to follow: the verification page (whoever scans a
 * certificate has none), a student path that does not exist, an invitation link that does not work. It is the one they chose on such a page before, else the first of their browser's languages the pages have, else English. It is active before
 * the page shows (`ready`).
 */
export function useVisitorLanguage() {
  const { language, setLanguage } = useLanguage();
  const [wanted] = useState(() => chosenBefore() ?? negotiateLanguage(browserLanguages()));
  const [settled, setSettled] = useState(false);

  useEffect(() => {
    setLanguage(wanted)
      .catch((error: unknown) => console.error('Failed to load the language:', error))
      .finally(() => setSettled(true));
  }, [wanted, setLanguage]);

  const choose = useCallback(
    (next: Language) => {
      keep(next);
      return setLanguage(next);
    },
    [setLanguage],
  );

  return { ready: settled || wanted === language, choose };
}
