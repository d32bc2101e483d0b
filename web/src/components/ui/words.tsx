import { createContext, useContext, type ReactNode } from 'react';

/**
 * The few words the shared components say themselves (a dialog's close button and Cancel, a spinner's name), in
 * the language of the app that shows them: the admin app gives its catalogue's words, the student pages theirs.
 * Shared code holds no words of its own, so neither app can show the other's language.
 */
export interface UiWords {
  close: string;
  cancel: string;
  loading: string;
}

const UiWordsContext = createContext<UiWords | null>(null);

/** Gives the shared components their words: each app puts it at its root. */
export function UiWordsProvider({ words, children }: { words: UiWords; children: ReactNode }) {
  return <UiWordsContext.Provider value={words}>{children}</UiWordsContext.Provider>;
}

/** The shared components' words; a screen rendered without an app's provider is a mistake, and says so. */
export function useUiWords(): UiWords {
  const words = useContext(UiWordsContext);
  if (!words)
    throw new Error('A shared component was rendered outside UiWordsProvider: the app gives its words');
  return words;
}
