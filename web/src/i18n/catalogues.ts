import type { Messages } from '@lingui/core';
import { retryingChunk } from '../lib/code-chunks';
import type { Language } from './languages';

type OtherLanguage = Exclude<Language, 'en'>;

/*
 * The catalogues other than English, each in a chunk of its own that only a page in that language downloads (the
 * English one comes with the pages). Arabic brings its font with it. A chunk the network dropped is fetched again
 * (lib/code-chunks).
 */
const loaders: Record<OtherLanguage, () => Promise<Messages>> = {
  es: retryingChunk(() => import('./locales/es').then((m) => m.default)),
  fr: retryingChunk(() => import('./locales/fr').then((m) => m.default)),
  pt: retryingChunk(() => import('./locales/pt').then((m) => m.default)),
  ar: retryingChunk(() =>
    Promise.all([import('./locales/ar'), import('./arabic-font')]).then(([m]) => m.default),
  ),
};

const loading = new Map<OtherLanguage, Promise<Messages>>();

/** A language's catalogue, downloaded once; a failed download is tried again at the next call. */
export function loadCatalogue(language: OtherLanguage): Promise<Messages> {
  let messages = loading.get(language);
  if (!messages) {
    messages = loaders[language]();
    loading.set(language, messages);
    messages.catch(() => loading.delete(language));
  }
  return messages;
}
