import { useCallback, useEffect, useState } from 'react';
import type { Language } from '../../../i18n/languages';
import { useLanguage } from '../../../i18n/react';
import { typedFetch } from '../../../lib/api-fetch';

const RETRY_MIN_MS = 5000;
const RETRY_MAX_MS = 60_000;

/**
 * Keeps the student's language switch on the server (`PUT …/language`), with the student and the attempt in
 * progress, so a reload, the mails and the certificate follow it. One request at a time, the newest choice last;
 * a request that did not arrive is tried again quietly, later and when the connection returns. A refusal (an
 * expired link) is not tried again: the page keeps showing the language all the same.
 */
export class LanguageKeeper {
  private wanted: Language | null = null;
  private sending = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private retryMs = RETRY_MIN_MS;

  constructor(private readonly token: string) {}

  /** A choice the server does not hold yet, if any. */
  get pending(): Language | null {
    return this.wanted;
  }

  keep(language: Language): void {
    this.wanted = language;
    this.retryMs = RETRY_MIN_MS;
    clearTimeout(this.timer);
    void this.send();
  }

  /** The connection is back: a choice that waited goes now. */
  online = (): void => {
    if (!this.wanted || this.sending) return;
    clearTimeout(this.timer);
    void this.send();
  };

  stop(): void {
    clearTimeout(this.timer);
  }

  private async send(): Promise<void> {
    const language = this.wanted;
    if (this.sending || !language) return;
    this.sending = true;
    let outcome: 'kept' | 'refused' | 'failed';
    try {
      const response = await typedFetch('/api/student/{token}/language', 'put', {
        path: { token: this.token },
        body: { language },
        // A choice made just before the page closes still arrives.
        init: { keepalive: true },
      });
      outcome = response.ok
        ? 'kept'
        : response.status < 500 && response.status !== 408 && response.status !== 429
          ? 'refused'
          : 'failed';
    } catch {
      outcome = 'failed';
    }
    this.sending = false;
    if (this.wanted !== language) {
      void this.send();
      return;
    }
    if (outcome === 'failed') {
      this.timer = setTimeout(() => void this.send(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
      return;
    }
    if (outcome === 'refused') console.error('Language switch refused');
    this.wanted = null;
  }
}

/**
 * The student's language on their pages. The server resolves it with the page's data (`served`: the
 * attempt's, else the student's, else the browser's); it is made active before the page shows (`ready`), so a
 * student reading Arabic never sees the page in English first. `choose` switches at once, once the catalogue is
 * there, and keeps the choice on the server; answers, the clock and the section on screen are untouched.
 */
export function useStudentLanguage(token: string, served: Language | undefined) {
  const { language, setLanguage } = useLanguage();
  const [keeper] = useState(() => new LanguageKeeper(token));
  const [settled, setSettled] = useState(false);

  useEffect(() => {
    if (!served || settled) return;
    // A switch the server has not taken yet outranks what it answered.
    setLanguage(keeper.pending ?? served)
      .catch((error: unknown) => console.error('Failed to load the language:', error))
      .finally(() => setSettled(true));
  }, [served, settled, setLanguage, keeper]);

  useEffect(() => {
    window.addEventListener('online', keeper.online);
    return () => {
      window.removeEventListener('online', keeper.online);
      keeper.stop();
    };
  }, [keeper]);

  const choose = useCallback(
    (next: Language) => {
      keeper.keep(next);
      return setLanguage(next);
    },
    [keeper, setLanguage],
  );

  return { ready: settled || (served !== undefined && served === language), choose };
}
