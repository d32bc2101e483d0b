import type { MessageId } from '../../i18n/locales/en';
import { typedFetch } from '../../lib/api-fetch';
import type { Answer } from './api/types';

/*
 * Autosave: the answers so far go to `PUT …/answers` a few seconds after each change and at
 * once when the page is hidden or closed (`keepalive`, so the request outlives the page). Every change
 * takes the next sequence number and the server keeps the newest, so a late request never overwrites a
 * newer one. Until the server has the newest answers they are also kept in this device's storage, per
 * token and attempt, and sent when the connection returns; a reload restores them.
 */

export type SaveStatus = 'saved' | 'saving' | 'offline';

/** What the test's header says of each state ('Saved', 'Saving…', 'Offline — answers kept on this device'). */
export const SAVE_STATUS_MESSAGE: Record<SaveStatus, MessageId> = {
  saved: 'save.saved',
  saving: 'save.saving',
  offline: 'save.offline',
};

/** How long the page waits after a change before it saves, so a burst of clicks makes one request. */
export const AUTOSAVE_DELAY_MS = 2000;
const RETRY_MIN_MS = 5000;
const RETRY_MAX_MS = 30_000;

interface Kept {
  seq: number;
  savedSeq: number;
  answers: Answer[];
}

export const keptAnswersKey = (token: string, attemptId: string) => `readiness.answers.${token}.${attemptId}`;

function readKept(key: string): Kept | null {
  try {
    const raw = window.localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as Kept) : null;
  } catch {
    return null;
  }
}

/**
 * The answers this device holds that the server may not have: those kept in storage with a newer
 * sequence than the server's. Null when the server's copy is as new.
 */
export function unsentAnswers(token: string, attemptId: string, serverSeq: number): Kept | null {
  const kept = readKept(keptAnswersKey(token, attemptId));
  return kept && kept.seq > serverSeq && kept.seq > kept.savedSeq ? kept : null;
}

export function forgetAnswers(token: string, attemptId: string): void {
  try {
    window.localStorage.removeItem(keptAnswersKey(token, attemptId));
  } catch {
    // Storage can be unavailable (private mode); there is then nothing to forget.
  }
}

interface SaverOptions {
  token: string;
  attemptId: string;
  /** The newest sequence known: the server's, or the kept one when restoring unsent answers. */
  seq: number;
  answers: Answer[];
  onStatus: (status: SaveStatus) => void;
  delayMs?: number;
}

export class AnswerSaver {
  private readonly key: string;
  private seq: number;
  private savedSeq: number;
  private answers: Answer[];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private sending: Promise<void> | null = null;
  private retryMs = RETRY_MIN_MS;
  private offline = false;
  private closed = false;

  constructor(private readonly options: SaverOptions) {
    this.key = keptAnswersKey(options.token, options.attemptId);
    this.seq = options.seq;
    this.savedSeq = options.seq;
    this.answers = options.answers;
  }

  /** Restored answers the server does not hold yet: the next save sends them. */
  markUnsent(serverSeq: number): void {
    this.savedSeq = serverSeq;
    this.report();
    this.schedule(0);
  }

  change(answers: Answer[]): void {
    if (this.closed) return;
    this.seq += 1;
    this.answers = answers;
    this.keep();
    this.report();
    this.schedule(this.options.delayMs ?? AUTOSAVE_DELAY_MS);
  }

  /** Sends the newest answers now (one request at a time, so they arrive in order). */
  flush = async (): Promise<void> => {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.sending) {
      await this.sending;
      if (this.seq > this.savedSeq && !this.closed) return this.flush();
      return;
    }
    if (this.seq <= this.savedSeq || this.closed) return;
    this.sending = this.send(this.seq, this.answers).finally(() => {
      this.sending = null;
    });
    await this.sending;
  };

  /** The page is being hidden or closed: a request that outlives it carries whatever is unsaved. */
  leave = (): void => {
    if (this.seq <= this.savedSeq || this.closed) return;
    clearTimeout(this.timer);
    void this.put(this.seq, this.answers, true).catch(() => undefined);
  };

  /** The connection is back: what waited goes now. */
  online = (): void => {
    this.retryMs = RETRY_MIN_MS;
    void this.flush();
  };

  /** Offline as the browser reports it: nothing is lost, but the student should know. */
  wentOffline = (): void => {
    this.offline = true;
    this.report();
  };

  /** The attempt is over (submitted): nothing more is sent and nothing needs keeping. */
  stop(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  /** `PUT /api/student/{token}/answers`; `keepalive` for the one that must outlive the page. */
  private put(seq: number, answers: Answer[], keepalive: boolean): Promise<Response> {
    return typedFetch('/api/student/{token}/answers', 'put', {
      path: { token: this.options.token },
      body: { attemptId: this.options.attemptId, seq, answers },
      init: keepalive ? { keepalive } : undefined,
    });
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), delay);
  }

  private keep(): void {
    try {
      const kept: Kept = { seq: this.seq, savedSeq: this.savedSeq, answers: this.answers };
      window.localStorage.setItem(this.key, JSON.stringify(kept));
    } catch {
      // Full or unavailable storage: the answers are still in the page and still being sent.
    }
  }

  private report(): void {
    const status: SaveStatus =
      this.offline || (typeof navigator !== 'undefined' && navigator.onLine === false)
        ? 'offline'
        : this.seq > this.savedSeq
          ? 'saving'
          : 'saved';
    this.options.onStatus(status);
  }

  private async send(seq: number, answers: Answer[]): Promise<void> {
    let response: Response;
    try {
      response = await this.put(seq, answers, false);
    } catch {
      this.offline = true;
      this.report();
      this.schedule(this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
      return;
    }
    this.offline = false;
    this.retryMs = RETRY_MIN_MS;
    if (response.status === 409) {
      // The attempt is closed (submitted, or past its deadline): submitting takes it from here.
      this.closed = true;
      this.report();
      return;
    }
    if (!response.ok) {
      console.error('Autosave refused:', response.status);
      this.report();
      this.schedule(RETRY_MAX_MS);
      return;
    }
    const held = ((await response.json().catch(() => ({}))) as { seq?: number }).seq ?? seq;
    this.savedSeq = Math.max(this.savedSeq, seq);
    if (held > this.seq) {
      // Another tab or device saved a newer sequence: this page's answers must outrank it to count.
      this.seq = held;
      this.change(this.answers);
      return;
    }
    this.keep();
    this.report();
  }
}
